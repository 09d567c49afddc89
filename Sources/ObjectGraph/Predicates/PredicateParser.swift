import Foundation

/// A recursive-descent parser for Apple's predicate format language.
///
/// Precedence, loosest first: OR, AND, NOT, then comparisons; inside expressions `|`, `^`, `&`,
/// shifts, `+ -`, `* /`, `**` (right-associative), unary `-` and `~`, then `.key` and `[index]`.
/// A chain of one logical operator becomes one compound predicate, as Apple's parser builds it,
/// so `a AND b AND c` prints without inner parentheses.
struct PredicateParser {
    private let format: String
    private let tokens: [Token]
    private var index = 0
    /// How deep the parse has recursed; bounded so that no input can exhaust the stack.
    private var depth = 0
    /// What `parsePredicate` found at each token index it started from.
    private var predicateMemo: [Int: Result<ParsedPredicate, PredicateError>] = [:]
    /// The deepest tree a format string may describe, counted in nested predicates and
    /// expressions (``TreeDepth``). Checked on the tree, not on the text, so that what
    /// `predicateFormat` prints for a tree that parsed (with parentheses the input may not
    /// have had: `NOT (NOT (...))` for `!!...`) parses too.
    static let maximumDepth = 100
    /// The deepest recursion of the parser. Printed text needs at most two levels of
    /// recursion for each level of the tree, so this leaves room for any printed tree.
    static let maximumRecursion = 2 * maximumDepth + 50

    init(format: String, arguments: [Any?]) throws {
        self.format = format
        // Converting an argument to a constant recurses into its arrays and dictionaries, so
        // their depth is measured first, without recursion. A tree deeper than the limit would
        // be refused after parsing anyway.
        for (i, argument) in arguments.enumerated() {
            try ArgumentDepth.check(argument, limit: Self.maximumDepth, describedAs: "argument \(i + 1)")
        }
        var lexer = Lexer(format: format, arguments: arguments)
        self.tokens = try lexer.tokenize()
    }

    // MARK: Entry points

    mutating func parseStandalonePredicate() throws -> Predicate {
        let predicate = try reportingRecursion { try $0.parsePredicate() }
        guard current.kind == .end else {
            throw unexpected(expected: "AND, OR or the end of the string")
        }
        try checkTreeDepth(TreeDepth.exceeds(Self.maximumDepth, predicate))
        return predicate
    }

    mutating func parseStandaloneExpression() throws -> Expression {
        let expression = try reportingRecursion { try $0.parseExpression() }
        guard current.kind == .end else {
            throw unexpected(expected: "an operator or the end of the string")
        }
        try checkTreeDepth(TreeDepth.exceeds(Self.maximumDepth, expression))
        return expression
    }

    /// Runs a parse, turning the recursion limit's signal into its parse error.
    private mutating func reportingRecursion<T>(_ body: (inout PredicateParser) throws -> T) throws -> T {
        do {
            return try body(&self)
        } catch let limit as RecursionLimit {
            throw limit.error
        }
    }

    private func checkTreeDepth(_ tooDeep: Bool) throws {
        guard tooDeep else { return }
        throw PredicateError.unparseable(
            format: format, offset: 0, found: "a predicate nested more than \(Self.maximumDepth) levels deep",
            expected: "a simpler predicate")
    }

    // MARK: Tokens

    private var current: Token { tokens[index] }
    private func peekToken(_ ahead: Int = 1) -> Token { tokens[min(index + ahead, tokens.count - 1)] }
    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private func unexpected(expected: String) -> PredicateError {
        PredicateError.unparseable(format: format, offset: current.offset, found: current.quoted, expected: expected)
    }

    private mutating func expect(_ punctuation: String, _ what: String) throws {
        guard current.isPunctuation(punctuation) else { throw unexpected(expected: what) }
        advance()
    }

    private func isKeyword(_ word: String) -> Bool { current.keyword == word }

    private mutating func enter() throws {
        depth += 1
        if depth > Self.maximumRecursion {
            // Not a PredicateError, so that no fallback catches it and tries another reading.
            throw RecursionLimit(
                error: PredicateError.unparseable(
                    format: format, offset: current.offset, found: "nesting deeper than \(Self.maximumDepth) levels",
                    expected: "a simpler predicate"))
        }
    }
    private mutating func leave() { depth -= 1 }

    // MARK: Predicates

    /// A predicate from the current token on. A "(" may open a predicate or an expression and
    /// the parser tries both, so each start is parsed once and remembered: without this,
    /// nested readings such as `((TERNARY((...` took time exponential in their depth.
    private mutating func parsePredicate() throws -> Predicate {
        let start = index
        if let known = predicateMemo[start] {
            switch known {
            case .success(let parsed):
                index = parsed.end
                return parsed.predicate
            case .failure(let error):
                throw error
            }
        }
        do {
            let predicate = try parsePredicateOnce()
            predicateMemo[start] = .success(ParsedPredicate(predicate: predicate, end: index))
            return predicate
        } catch let error as PredicateError {
            predicateMemo[start] = .failure(error)
            throw error
        }
    }

    private mutating func parsePredicateOnce() throws -> Predicate {
        try enter()
        defer { leave() }
        var terms = [try parseAnd()]
        while isKeyword("OR") || current.isPunctuation("||") {
            advance()
            terms.append(try parseAnd())
        }
        return terms.count == 1 ? terms[0] : .compound(CompoundPredicate(unchecked: .or, terms))
    }

    private mutating func parseAnd() throws -> Predicate {
        var terms = [try parseNot()]
        while isKeyword("AND") || current.isPunctuation("&&") {
            advance()
            terms.append(try parseNot())
        }
        return terms.count == 1 ? terms[0] : .compound(CompoundPredicate(unchecked: .and, terms))
    }

    private mutating func parseNot() throws -> Predicate {
        if isKeyword("NOT") || current.isPunctuation("!") {
            // `NOT (` recurses through the parenthesis, which counts; a bare `NOT NOT` counts here.
            let counts = !peekToken().isPunctuation("(")
            if counts { try enter() }
            defer { if counts { leave() } }
            advance()
            return .not(try parseNot())
        }
        return try parsePrimaryPredicate()
    }

    private mutating func parsePrimaryPredicate() throws -> Predicate {
        if isKeyword("TRUEPREDICATE") {
            advance()
            return .truePredicate
        }
        if isKeyword("FALSEPREDICATE") {
            advance()
            return .falsePredicate
        }
        guard current.isPunctuation("(") else { return try parseComparison() }
        // "(" may open a parenthesised predicate or an expression such as "(a + b) > 3".
        // Try the predicate first; fall back to a comparison; report the error that got further.
        let start = index
        var predicateError: PredicateError?
        do {
            advance()
            let predicate = try parsePredicate()
            try expect(")", "')' to close the parenthesis")
            if !continuesExpression(current) { return predicate }
        } catch let error as PredicateError {
            if error.code != .unparseable { throw error }
            predicateError = error
        }
        index = start
        do {
            return try parseComparison()
        } catch let error as PredicateError {
            guard let first = predicateError, error.code == .unparseable else { throw error }
            throw (first.offset ?? 0) > (error.offset ?? 0) ? first : error
        }
    }

    /// Whether a token can only continue an expression, never follow a whole predicate.
    private func continuesExpression(_ token: Token) -> Bool {
        if case .punctuation(let p) = token.kind {
            return [
                "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "+", "-", "*", "/", "**",
                ".", "[", "&", "|", "^", "<<", ">>",
            ].contains(p)
        }
        if let k = token.keyword {
            return ["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "IN", "BETWEEN"].contains(k)
        }
        return false
    }

    private mutating func parseComparison() throws -> Predicate {
        var modifier = ComparisonPredicate.Modifier.direct
        var negate = false
        switch current.keyword {
        case "ANY", "SOME":
            modifier = .any
            advance()
        case "ALL":
            modifier = .all
            advance()
        case "NONE":
            modifier = .any
            negate = true
            advance()
        default: break
        }
        let left = try parseExpression()
        guard let op = comparisonOperator(current) else {
            throw unexpected(
                expected:
                    "a comparison operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES, IN or BETWEEN)"
            )
        }
        advance()
        let options = try parseOptions()
        let right = try parseExpression()
        let comparison = Predicate.comparison(
            ComparisonPredicate(left, op, right, modifier: modifier, options: options))
        return negate ? .not(comparison) : comparison
    }

    private func comparisonOperator(_ token: Token) -> ComparisonPredicate.Operator? {
        switch token.kind {
        case .punctuation(let p):
            switch p {
            case "=", "==": return .equalTo
            case "!=", "<>": return .notEqualTo
            case "<": return .lessThan
            case "<=", "=<": return .lessThanOrEqualTo
            case ">": return .greaterThan
            case ">=", "=>": return .greaterThanOrEqualTo
            default: return nil
            }
        case .identifier:
            switch token.keyword {
            case "BEGINSWITH": return .beginsWith
            case "ENDSWITH": return .endsWith
            case "CONTAINS": return .contains
            case "LIKE": return .like
            case "MATCHES": return .matches
            case "IN": return .in
            case "BETWEEN": return .between
            default: return nil
            }
        default: return nil
        }
    }

    /// `[c]`, `[d]`, `[cd]`, `[n]`, `[l]` right after an operator.
    private mutating func parseOptions() throws -> ComparisonPredicate.Options {
        guard current.isPunctuation("[") else { return [] }
        advance()
        guard case .identifier(let letters) = current.kind else {
            throw unexpected(expected: "option letters c, d, n or l inside the brackets")
        }
        var options: ComparisonPredicate.Options = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            case "l": options.insert(.localeSensitive)
            default:
                throw unexpected(expected: "option letters c, d, n or l (as in [cd])")
            }
        }
        advance()
        try expect("]", "']' to close the options")
        return options
    }

    // MARK: Expressions

    private mutating func parseExpression() throws -> Expression {
        try enter()
        defer { leave() }
        if case .variable(let name) = current.kind, peekToken().isPunctuation(":=") {
            advance()
            advance()
            return .assignment(name, try parseExpression())
        }
        return try parseBinary(level: 0)
    }

    /// Binary operator levels, loosest first. `**` is handled by `parsePower`.
    private static let binaryLevels: [[String]] = [["|"], ["^"], ["&"], ["<<", ">>"], ["+", "-"], ["*", "/"]]

    private mutating func parseBinary(level: Int) throws -> Expression {
        guard level < Self.binaryLevels.count else { return try parsePower() }
        var left = try parseBinary(level: level + 1)
        var chain = 0
        while case .punctuation(let p) = current.kind, Self.binaryLevels[level].contains(p) {
            advance()
            let right = try parseBinary(level: level + 1)
            left = .function(Expression.binaryOperators.first { $0.symbol == p }!.selector, [left, right])
            chain += 1
            // A long chain nests as deeply as parentheses would.
            if chain > Self.maximumDepth {
                throw PredicateError.unparseable(
                    format: format, offset: current.offset,
                    found: "a chain of more than \(Self.maximumDepth) operators",
                    expected: "a shorter expression")
            }
        }
        return left
    }

    private mutating func parsePower() throws -> Expression {
        let base = try parseUnary()
        guard current.isPunctuation("**") else { return base }
        try enter()
        defer { leave() }
        advance()
        return .function("raise:toPower:", [base, try parsePower()])
    }

    private mutating func parseUnary() throws -> Expression {
        if current.isPunctuation("-") {
            try enter()
            defer { leave() }
            advance()
            // -9223372036854775808 is Int.min, though 9223372036854775808 alone is too big.
            if case .number(.double(let d)) = current.kind, d == 9_223_372_036_854_775_808,
                current.text.allSatisfy(\.isASCIIDigit), !peekToken().isPunctuation("."),
                !peekToken().isPunctuation("[")
            {
                advance()
                return .constant(.int(Int.min))
            }
            let operand = try parseUnary()
            switch operand {
            // -0 is the double -0.0, which prints as -0 again.
            case .constant(.int(0)): return .constant(.double(-0.0))
            case .constant(.int(let i)) where i != Int.min: return .constant(.int(-i))
            case .constant(.double(let d)): return .constant(.double(-d))
            case .constant(.decimal(let d)): return .constant(.decimal(-d))
            default: return .function("from:subtract:", [.constant(.int(0)), operand])
            }
        }
        if current.isPunctuation("~") {
            try enter()
            defer { leave() }
            advance()
            return .function("onesComplement:", [try parseUnary()])
        }
        return try parsePostfix()
    }

    private mutating func parsePostfix() throws -> Expression {
        var expression = try parsePrimaryExpression()
        var chain = 0
        while true {
            if current.isPunctuation(".") {
                advance()
                let component = try parseKeyComponent()
                switch expression {
                case .keyPath(let path): expression = .keyPath(path + "." + component)
                case .member(let base, let path): expression = .member(base, path + "." + component)
                default: expression = .member(expression, component)
                }
            } else if current.isPunctuation("[") {
                advance()
                let selector: Expression.IndexSelector
                switch current.keyword {
                case "FIRST":
                    selector = .first
                    advance()
                case "LAST":
                    selector = .last
                    advance()
                case "SIZE":
                    selector = .size
                    advance()
                default: selector = .expression(try parseExpression())
                }
                try expect("]", "']' to close the index")
                expression = .index(expression, selector)
                chain += 1
                if chain > Self.maximumDepth {
                    throw PredicateError.unparseable(
                        format: format, offset: current.offset, found: "more than \(Self.maximumDepth) indexes",
                        expected: "a shorter expression")
                }
            } else {
                return expression
            }
        }
    }

    private mutating func parseKeyComponent() throws -> String {
        let component: String
        switch current.kind {
        case .identifier(let word): component = word
        case .escapedIdentifier(let word): component = word
        case .atIdentifier(let word): component = "@" + word
        case .keyPathArgument(let key): component = key
        // `$a.$b` (pBNF: keypath_expression ::= expression "." expression): the key is the
        // variable's value, looked up when the predicate is evaluated or substituted.
        case .variable(let name): component = "$" + name
        default: throw unexpected(expected: "a key after '.'")
        }
        advance()
        return component
    }

    /// Reserved words that can never start an expression.
    private static let reservedWords: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI",
        "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "FIRST", "LAST", "SIZE",
        "ANYKEY", "FETCH", "TRUEPREDICATE", "FALSEPREDICATE",
    ]

    private mutating func parsePrimaryExpression() throws -> Expression {
        let token = current
        switch token.kind {
        case .number(let value), .argument(let value):
            advance()
            return .constant(value)
        case .string(let s):
            advance()
            return .constant(.string(s))
        case .keyPathArgument(let key):
            advance()
            return .keyPath(key)
        case .variable(let name):
            advance()
            return .variable(name)
        case .escapedIdentifier(let word):
            advance()
            return .keyPath(word)
        case .atIdentifier(let word):
            advance()
            return .keyPath("@" + word)
        case .selector(let selector):
            advance()
            return try parseFunctionCall(selector: selector, at: token)
        case .punctuation("("):
            advance()
            let inner = try parseExpression()
            try expect(")", "')' to close the parenthesis")
            return inner
        case .punctuation("{"):
            return try parseAggregate()
        case .identifier(let word):
            let keyword = word.uppercased()
            switch keyword {
            case "SELF":
                advance()
                return .evaluatedObject
            case "NULL", "NIL":
                advance()
                return .constant(.null)
            case "TRUE", "YES":
                advance()
                return .constant(.bool(true))
            case "FALSE", "NO":
                advance()
                return .constant(.bool(false))
            case "SUBQUERY":
                advance()
                return try parseSubquery()
            case "FUNCTION":
                advance()
                return try parseCustomFunction()
            case "FETCH" where peekToken().isPunctuation("("):
                advance()
                return try parseFetch()
            case "CAST":
                advance()
                return try parseCast()
            case "TERNARY":
                advance()
                return try parseTernary()
            default: break
            }
            if Self.reservedWords.contains(keyword) {
                throw unexpected(
                    expected: "an expression (\(word) is a reserved word; write #\(word) to use it as a key)")
            }
            if peekToken().isPunctuation("(") {
                advance()
                guard let function = BuiltinFunctions.selector(forName: word) else {
                    throw PredicateError.unparseable(
                        format: format, offset: token.offset, found: "'\(word)('",
                        expected:
                            "a built-in function (\(BuiltinFunctions.namesForMessages)), or FUNCTION(receiver, 'name') for a registered one"
                    )
                }
                return try parseFunctionCall(selector: function, at: token, collectArguments: true)
            }
            advance()
            return .keyPath(word)
        default:
            throw unexpected(expected: "an expression")
        }
    }

    private mutating func parseArguments() throws -> [Expression] {
        try expect("(", "'(' to open the argument list")
        var arguments: [Expression] = []
        if current.isPunctuation(")") {
            advance()
            return arguments
        }
        while true {
            arguments.append(try parseExpression())
            if current.isPunctuation(",") {
                advance()
                continue
            }
            try expect(")", "',' or ')' in the argument list")
            return arguments
        }
    }

    /// `sum:(...)`, `raise:toPower:(...)`, or a named call such as `max(1, 5, 10)`.
    private mutating func parseFunctionCall(selector: String, at token: Token, collectArguments: Bool = false) throws
        -> Expression
    {
        guard let function = BuiltinFunctions.function(forSelector: selector) else {
            throw PredicateError.unparseable(
                format: format, offset: token.offset, found: "'\(selector)'",
                expected: "a built-in function selector such as sum: or raise:toPower:")
        }
        var arguments = try parseArguments()
        // MAX(1, 5, 10): the statistics functions take one collection; several bare
        // arguments form that collection.
        if collectArguments && function.takesCollection && arguments.count != 1 {
            arguments = [Self.aggregate(arguments)]
        }
        guard arguments.count == function.arity else {
            throw PredicateError.unparseable(
                format: format, offset: token.offset,
                found: "\(arguments.count) argument\(arguments.count == 1 ? "" : "s") to \(selector)",
                expected: "\(function.arity) argument\(function.arity == 1 ? "" : "s")")
        }
        return .function(selector, arguments)
    }

    /// An aggregate of constants is a constant array, as Apple's parser makes it.
    private static func aggregate(_ elements: [Expression]) -> Expression {
        var constants: [ConstantValue] = []
        for element in elements {
            guard case .constant(let c) = element else { return .aggregate(elements) }
            constants.append(c)
        }
        return .constant(.array(constants))
    }

    private mutating func parseAggregate() throws -> Expression {
        try enter()
        defer { leave() }
        try expect("{", "'{'")
        var elements: [Expression] = []
        if current.isPunctuation("}") {
            advance()
            return .constant(.array([]))
        }
        while true {
            elements.append(try parseExpression())
            if current.isPunctuation(",") {
                advance()
                continue
            }
            try expect("}", "',' or '}' in the array")
            return Self.aggregate(elements)
        }
    }

    private mutating func parseSubquery() throws -> Expression {
        try enter()
        defer { leave() }
        try expect("(", "'(' after SUBQUERY")
        let collection = try parseExpression()
        try expect(",", "',' after the SUBQUERY collection")
        guard case .variable(let variable) = current.kind else {
            throw unexpected(expected: "a $variable naming each element of the SUBQUERY collection")
        }
        advance()
        try expect(",", "',' after the SUBQUERY variable")
        let predicate = try parsePredicate()
        try expect(")", "')' to close SUBQUERY")
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }

    private mutating func parseCustomFunction() throws -> Expression {
        try enter()
        defer { leave() }
        let start = current
        let arguments = try parseArguments()
        guard arguments.count >= 2 else {
            throw PredicateError.unparseable(
                format: format, offset: start.offset,
                found: "FUNCTION with \(arguments.count) argument\(arguments.count == 1 ? "" : "s")",
                expected: "FUNCTION(receiver, 'selectorName', arguments...)")
        }
        guard case .constant(.string(let selector)) = arguments[1] else {
            throw PredicateError.unparseable(
                format: format, offset: start.offset, found: "a FUNCTION selector that is not a string",
                expected: "the selector name as a quoted string")
        }
        return .customFunction(receiver: arguments[0], selector: selector, arguments: Array(arguments.dropFirst(2)))
    }

    /// `FETCH(fetchRequest, context, countOnly)`: NSFetchRequestExpression, kept as the
    /// function `FETCH`. The predicate language does not run it; a migration manager reads it
    /// as an entity mapping's source expression.
    private mutating func parseFetch() throws -> Expression {
        try enter()
        defer { leave() }
        let start = current
        let arguments = try parseArguments()
        guard arguments.count == 3 else {
            throw PredicateError.unparseable(
                format: format, offset: start.offset,
                found: "FETCH with \(arguments.count) argument\(arguments.count == 1 ? "" : "s")",
                expected: "FETCH(fetchRequest, context, countOnly)")
        }
        return .function("FETCH", arguments)
    }

    private mutating func parseCast() throws -> Expression {
        try enter()
        defer { leave() }
        let start = current
        let arguments = try parseArguments()
        guard arguments.count == 2 else {
            throw PredicateError.unparseable(
                format: format, offset: start.offset,
                found: "CAST with \(arguments.count) argument\(arguments.count == 1 ? "" : "s")",
                expected: "CAST(value, 'TypeName')")
        }
        // A date prints as CAST(<seconds>, "NSDate"); reading that back gives the date again.
        if case .constant(let value) = arguments[0], let seconds = value.doubleValue,
            case .constant(.string("NSDate")) = arguments[1], value != .null
        {
            return .constant(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        }
        return .cast(arguments[0], arguments[1])
    }

    private mutating func parseTernary() throws -> Expression {
        try enter()
        defer { leave() }
        try expect("(", "'(' after TERNARY")
        let condition = try parsePredicate()
        try expect(",", "',' after the TERNARY condition")
        let whenTrue = try parseExpression()
        try expect(",", "',' after the TERNARY true expression")
        let whenFalse = try parseExpression()
        try expect(")", "')' to close TERNARY")
        return .conditional(condition, whenTrue, whenFalse)
    }
}

/// A predicate parsed from some token index, and the index after it.
private struct ParsedPredicate {
    let predicate: Predicate
    let end: Int
}

/// Thrown when the parser recurses too deeply; the entry points turn it into its error.
private struct RecursionLimit: Error {
    let error: PredicateError
}
