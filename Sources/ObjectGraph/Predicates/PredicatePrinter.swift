import Foundation

/// Prints predicates and expressions the way Apple's `predicateFormat` does.
///
/// The rules (<doc:PredicateFormatStringReference>, "Printing rules"): double-quoted strings; canonical operators;
/// booleans as 1 and 0; dates as `CAST(<seconds>, "NSDate")`; arrays as `{a, b}`; a compound
/// subpredicate in parentheses, a comparison never; binary operands that are themselves binary
/// in parentheses; input parentheses are not preserved.
///
/// Printing recurses once per level of expressions (compound predicates are printed with a
/// worklist), so it stops at ``Predicate/maximumDepth`` levels (counted as ``TreeDepth`` counts
/// them) and prints ``truncationMarker`` for what lies deeper.
enum PredicatePrinter {
    /// What stands for the part of a tree deeper than ``Predicate/maximumDepth``: text no
    /// parser accepts, so a truncated printout can never be read back as another predicate.
    static let truncationMarker = "<nested deeper than \(Predicate.maximumDepth) levels: not printed>"

    static func format(_ predicate: Predicate) -> String { format(predicate, budget: Predicate.maximumDepth) }

    /// What is left to print of a predicate, last first.
    private enum PendingText {
        case text(String)
        case predicate(Predicate, budget: Int)
    }

    /// Prints a predicate with a worklist, so that compound predicates never recurse: an AND
    /// inside an AND (an OR inside an OR) prints with its parentheses as Apple prints it but
    /// spends no budget, and a folded chain of any length prints without recursion per link.
    /// Only comparisons recurse, into expressions, which spend budget.
    static func format(_ predicate: Predicate, budget: Int) -> String {
        var out = ""
        var pending: [PendingText] = [.predicate(predicate, budget: budget)]
        while let next = pending.popLast() {
            switch next {
            case .text(let text):
                out += text
            case .predicate(let predicate, let budget):
                guard budget > 0 else {
                    out += truncationMarker
                    continue
                }
                switch predicate {
                case .constant(let value):
                    out += value ? "TRUEPREDICATE" : "FALSEPREDICATE"
                case .comparison(let c):
                    out += format(c, budget: budget)
                case .block(let b):
                    out += "BLOCKPREDICATE(\(String(b.identifier, radix: 16)))"
                case .compound(let c):
                    // A link of the same chain keeps the budget; any other child spends one.
                    func childBudget(_ sub: Predicate) -> Int { c.continuesChain(sub) == nil ? budget - 1 : budget }
                    let subpredicates = c.subpredicates
                    switch (c.compoundPredicateType, subpredicates.count) {
                    case (.and, 0): out += "TRUEPREDICATE"
                    case (.or, 0): out += "FALSEPREDICATE"
                    case (.not, 0): out += "NOT"
                    case (.not, 1):
                        out += "NOT "
                        pushSubpredicate(subpredicates[0], budget: budget - 1, onto: &pending)
                    case (_, 1):
                        pending.append(.predicate(subpredicates[0], budget: childBudget(subpredicates[0])))
                    case (let type, _):
                        // Pushed last part first, so that the first pops first.
                        for (i, sub) in subpredicates.enumerated().reversed() {
                            pushSubpredicate(sub, budget: childBudget(sub), onto: &pending)
                            if i > 0 { pending.append(.text(" \(type.symbol) ")) }
                        }
                    }
                }
            }
        }
        return out
    }

    /// A subpredicate of a compound: compounds (of any type) in parentheses.
    private static func pushSubpredicate(_ predicate: Predicate, budget: Int, onto pending: inout [PendingText]) {
        guard case .compound = predicate, budget > 0 else {
            pending.append(.predicate(predicate, budget: budget))
            return
        }
        pending.append(.text(")"))
        pending.append(.predicate(predicate, budget: budget))
        pending.append(.text("("))
    }

    /// A comparison that is at the top level of `budget` levels.
    static func format(_ c: ComparisonPredicate, budget: Int = Predicate.maximumDepth) -> String {
        var s = ""
        switch c.modifier {
        case .any: s = "ANY "
        case .all: s = "ALL "
        case .direct: break
        }
        s += format(c.leftExpression, budget: budget - 1)
        s += " " + c.operatorType.symbol
        let letters = c.options.letters
        if !letters.isEmpty { s += "[" + letters + "]" }
        s += " " + format(c.rightExpression, budget: budget - 1)
        return s
    }

    static func format(_ expression: Expression) -> String { format(expression, budget: Predicate.maximumDepth) }

    static func format(_ expression: Expression, budget: Int) -> String {
        guard budget > 0 else { return truncationMarker }
        // Each part one level further down.
        let inner = budget - 1
        func format(_ e: Expression) -> String { PredicatePrinter.format(e, budget: inner) }
        func format(_ p: Predicate) -> String { PredicatePrinter.format(p, budget: inner) }
        func format(_ v: ConstantValue) -> String { PredicatePrinter.format(v, budget: inner) }
        func operand(_ e: Expression) -> String { PredicatePrinter.operand(e, budget: inner) }
        func postfixBase(_ e: Expression) -> String { PredicatePrinter.postfixBase(e, budget: inner) }
        switch expression {
        case .constant(let value):
            // A constant expression and its value are one level.
            return PredicatePrinter.format(value, budget: budget)
        case .evaluatedObject:
            return "SELF"
        case .variable(let name):
            return "$" + name
        case .keyPath(let path):
            return formatKeyPath(path)
        case .member(let base, let path):
            return postfixBase(base) + "." + formatKeyPath(path)
        case .function(let selector, let arguments):
            if arguments.count == 2, let symbol = Expression.binarySymbol(forSelector: selector) {
                return operand(arguments[0]) + " " + symbol + " " + operand(arguments[1])
            }
            if selector == "FETCH" {
                return "FETCH(" + arguments.map(format).joined(separator: ", ") + ")"
            }
            if selector == "onesComplement:", arguments.count == 1 {
                return "~" + operand(arguments[0])
            }
            return selector + "(" + arguments.map(format).joined(separator: ", ") + ")"
        case .customFunction(let receiver, let selector, let arguments):
            // Apple prints a space before the comma that follows the selector when there are
            // arguments: FUNCTION(a, "pow:" , 3).
            var s = "FUNCTION(" + format(receiver) + ", " + quote(selector)
            if !arguments.isEmpty { s += " , " + arguments.map(format).joined(separator: ", ") }
            return s + ")"
        case .index(let base, let selector):
            let inside: String
            switch selector {
            case .first: inside = "FIRST"
            case .last: inside = "LAST"
            case .size: inside = "SIZE"
            case .expression(let e): inside = format(e)
            }
            return postfixBase(base) + "[" + inside + "]"
        case .aggregate(let elements):
            return "{" + elements.map(format).joined(separator: ", ") + "}"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(" + format(collection) + ", $" + variable + ", " + format(predicate) + ")"
        case .cast(let value, let type):
            return "CAST(" + format(value) + ", " + format(type) + ")"
        case .conditional(let predicate, let whenTrue, let whenFalse):
            return "TERNARY(" + format(predicate) + ", " + format(whenTrue) + ", " + format(whenFalse) + ")"
        case .assignment(let name, let value):
            return "$" + name + " := " + format(value)
        }
    }

    /// An operand of a binary operator, an index or a key: binary expressions (and negative
    /// numbers and assignments, which would otherwise read differently) in parentheses.
    private static func operand(_ expression: Expression, budget: Int) -> String {
        guard budget > 0 else { return truncationMarker }
        switch expression {
        case .function(let selector, let arguments)
        where arguments.count == 2 && Expression.binarySymbol(forSelector: selector) != nil:
            return "(" + format(expression, budget: budget) + ")"
        case .assignment:
            return "(" + format(expression, budget: budget) + ")"
        default:
            return format(expression, budget: budget)
        }
    }

    /// The base of `.key` or `[index]`: as an operand, and a negative number or a `~x` in
    /// parentheses, since `-5.x` reads as `-(5.x)` and `~a.b` as `~(a.b)`.
    private static func postfixBase(_ expression: Expression, budget: Int) -> String {
        guard budget > 0 else { return truncationMarker }
        if case .constant(let value) = expression, value.isNumber, let d = value.doubleValue,
            d < 0 || (d == 0 && d.sign == .minus)
        {
            return "(" + format(expression, budget: budget) + ")"
        }
        if case .function("onesComplement:", let arguments) = expression, arguments.count == 1 {
            return "(" + format(expression, budget: budget) + ")"
        }
        return operand(expression, budget: budget)
    }

    /// Key path components that are reserved words get a `#`, so the text parses again.
    /// Other components print as they are, as Apple prints them: a key given through `%K`
    /// that is no C identifier (`étrange`, `a b`) prints text that does not parse again.
    static func formatKeyPath(_ path: String) -> String {
        guard path.contains(where: { $0.isLetter }) else { return path }
        return path.split(separator: ".", omittingEmptySubsequences: false).map { component -> String in
            reservedWords.contains(component.uppercased()) ? "#" + component : String(component)
        }.joined(separator: ".")
    }

    /// Apple's reserved words, plus the words this parser reads as keywords before a `(`.
    static let reservedWords: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI",
        "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE",
        "YES", "FALSE", "NO", "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST",
        "TRUEPREDICATE", "FALSEPREDICATE", "FUNCTION", "TERNARY",
    ]

    static func format(_ value: ConstantValue) -> String { format(value, budget: Predicate.maximumDepth) }

    static func format(_ value: ConstantValue, budget: Int) -> String {
        guard budget > 0 else { return truncationMarker }
        func format(_ v: ConstantValue) -> String { PredicatePrinter.format(v, budget: budget - 1) }
        switch value {
        case .null: return "nil"
        case .nsNull: return "<null>"
        case .bool(let b): return b ? "1" : "0"
        case .int(let i): return String(i)
        case .double(let d): return formatDouble(d)
        case .decimal(let d): return d.description
        case .string(let s): return quote(s)
        case .date(let d):
            // Apple prints plain NSDate descriptions for dates inside collections; we print
            // the CAST form everywhere so that the text always parses back.
            return "CAST(" + formatSeconds(d.timeIntervalSinceReferenceDate) + ", \"NSDate\")"
        case .data(let d): return "<" + d.map { String(format: "%02x", $0) }.joined() + ">"
        case .uuid(let u): return u.uuidString
        case .url(let u): return u.absoluteString
        case .array(let a): return "{" + a.map(format).joined(separator: ", ") + "}"
        case .set(let s): return "{" + s.map(format).sorted().joined(separator: ", ") + "}"
        case .dictionary(let d):
            return "{" + d.keys.sorted().map { "\($0) = \(format(d[$0]!))" }.joined(separator: ", ") + "}"
        case .reference(let r): return r.description
        }
    }

    /// A date's seconds as Apple prints them, with `%f` (six decimals); when six decimals
    /// would lose part of the value, with every digit needed to read the same date back.
    static func formatSeconds(_ seconds: Double) -> String {
        let fixed = String(format: "%f", seconds)
        if Double(fixed) == seconds || !seconds.isFinite { return fixed }
        return seconds.description
    }

    /// A double as NSNumber describes it: whole numbers without a fraction, others with the
    /// fewest digits that read back as the same double.
    static func formatDouble(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e16 {
            if d == 0 { return d.sign == .minus ? "-0" : "0" }
            return String(Int64(d))
        }
        return d.description
    }

    /// A string in double quotes, with `\` and `"` escaped.
    static func quote(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }
}
