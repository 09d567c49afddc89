import Foundation

/// A token of the predicate format language, with where it starts in the format string.
struct Token: Equatable {
    enum Kind: Equatable {
        /// A C identifier: a key, a keyword (keywords are matched case-insensitively), or a
        /// function name.
        case identifier(String)
        /// `#word`: a reserved word used as a key.
        case escapedIdentifier(String)
        /// `@word`: a collection operator such as `@count`.
        case atIdentifier(String)
        /// `$name`.
        case variable(String)
        /// `name:` or `raise:toPower:`: a function selector written out.
        case selector(String)
        /// A quoted string literal, escapes already processed.
        case string(String)
        /// A number literal.
        case number(ConstantValue)
        /// A `%@`, `%d`, `%f` or `%%` argument, already converted.
        case argument(ConstantValue)
        /// A `%K` argument: a key path.
        case keyPathArgument(String)
        /// Punctuation and operators: `(`, `==`, `&&`, `**`, ...
        case punctuation(String)
        /// The end of the string.
        case end
    }

    var kind: Kind
    /// Offset in Unicode scalars from the start of the format string (for ASCII text, the
    /// offset in characters).
    var offset: Int
    /// The source text of the token, for error messages.
    var text: String

    /// The identifier's text upper-cased, when the token is a plain identifier.
    var keyword: String? {
        if case .identifier(let s) = kind { return s.uppercased() }
        return nil
    }

    func isPunctuation(_ p: String) -> Bool { kind == .punctuation(p) }

    /// How an error message names this token.
    var quoted: String {
        if kind == .end { return "the end of the string" }
        return "'\(text)'"
    }
}

/// Splits a format string into tokens, substituting format arguments as it goes.
///
/// Quoted strings stop substitution, as Apple documents: `'%@'` is the two characters `%@`.
///
/// It reads Unicode scalars, not characters: a string literal that begins with a combining
/// mark (`"\u0301x"` prints as a quote followed by U+0301) would otherwise fuse with its
/// opening quote into one character that is no quote at all.
struct Lexer {
    let format: String
    private let chars: [Unicode.Scalar]
    private var position = 0
    private var arguments: [Any?]
    private var argumentIndex = 0

    init(format: String, arguments: [Any?]) {
        self.format = format
        self.chars = Array(format.unicodeScalars)
        self.arguments = arguments
    }

    /// All tokens, ending with `.end`. Throws when the text or the arguments are wrong.
    mutating func tokenize() throws -> [Token] {
        var tokens: [Token] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { break }
        }
        if argumentIndex < arguments.count {
            let extra = arguments.count - argumentIndex
            throw PredicateError(
                .invalidArgument,
                "Unable to parse the format string \"\(format)\": \(arguments.count) argument\(arguments.count == 1 ? "" : "s") given but the format uses \(argumentIndex); remove the \(extra) extra argument\(extra == 1 ? "" : "s") or add a specifier for each"
            )
        }
        return tokens
    }

    private func error(at offset: Int, found: String, expected: String) -> PredicateError {
        PredicateError.unparseable(format: format, offset: offset, found: found, expected: expected)
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        let i = position + ahead
        return i < chars.count ? chars[i] : nil
    }

    private mutating func next() throws -> Token {
        while let c = peek(), c.properties.isWhitespace { position += 1 }
        let start = position
        guard let c = peek() else { return Token(kind: .end, offset: start, text: "") }

        func make(_ kind: Token.Kind) -> Token {
            Token(kind: kind, offset: start, text: scalarText(chars[start..<position]))
        }

        if c.isASCIILetterOrUnderscore {
            let word = readIdentifier()
            // `name:` (but not `name :=`) starts a selector such as `raise:toPower:`.
            if peek() == ":" && peek(1) != "=" {
                var selector = word + ":"
                position += 1
                while let n = peek(), n.isASCIILetterOrUnderscore {
                    let save = position
                    let part = readIdentifier()
                    if peek() == ":" && peek(1) != "=" {
                        selector += part + ":"
                        position += 1
                    } else {
                        position = save
                        break
                    }
                }
                return make(.selector(selector))
            }
            return make(.identifier(word))
        }
        if c.isASCIIDigit { return make(.number(try readNumber())) }
        switch c {
        case "\"", "'":
            return make(.string(try readString(quote: c)))
        case "#", "@", "$":
            position += 1
            guard let n = peek(), n.isASCIILetterOrUnderscore else {
                throw error(
                    at: position, found: peek().map { "'\($0)'" } ?? "the end of the string",
                    expected: "a name after '\(c)'")
            }
            let word = readIdentifier()
            switch c {
            case "#": return make(.escapedIdentifier(word))
            case "@": return make(.atIdentifier(word))
            default: return make(.variable(word))
            }
        case "%":
            return try readSpecifier(start: start)
        default:
            break
        }
        // Operators and punctuation, longest first.
        let three = scalarText(chars[position..<min(position + 3, chars.count)])
        let two = String(three.prefix(2))
        for op in ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "**", "<<", ">>", ":="] where two == op {
            position += 2
            return make(.punctuation(op))
        }
        if "=<>!+-*/(){}[],.&|^~".unicodeScalars.contains(c) {
            position += 1
            return make(.punctuation(String(c)))
        }
        if c.properties.isAlphabetic {
            throw error(
                at: start, found: "'\(c)'",
                expected: "an ASCII key; a key with other letters must be passed as a %K argument")
        }
        throw error(at: start, found: "'\(c)'", expected: "an expression, an operator or punctuation")
    }

    private mutating func readIdentifier() -> String {
        let start = position
        while let c = peek(), c.isASCIILetterOrUnderscore || c.isASCIIDigit { position += 1 }
        return scalarText(chars[start..<position])
    }

    private mutating func readNumber() throws -> ConstantValue {
        let start = position
        if peek() == "0", let p = peek(1), "xXoObB".unicodeScalars.contains(p) {
            position += 2
            let radix: Int
            switch p.properties.lowercaseMapping {
            case "x": radix = 16
            case "o": radix = 8
            default: radix = 2
            }
            let digitsStart = position
            while let c = peek(), c.isHexDigit { position += 1 }
            let digits = scalarText(chars[digitsStart..<position])
            guard !digits.isEmpty, let value = Int(digits, radix: radix) else {
                throw error(
                    at: start, found: "'\(scalarText(chars[start..<position]))'",
                    expected: "a base-\(radix) number that fits in 64 bits")
            }
            return .int(value)
        }
        while let c = peek(), c.isASCIIDigit { position += 1 }
        var isFloat = false
        if peek() == ".", let d = peek(1), d.isASCIIDigit {
            isFloat = true
            position += 1
            while let c = peek(), c.isASCIIDigit { position += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            var ahead = 1
            if let s = peek(1), s == "+" || s == "-" { ahead = 2 }
            if let d = peek(ahead), d.isASCIIDigit {
                isFloat = true
                position += ahead
                while let c = peek(), c.isASCIIDigit { position += 1 }
            }
        }
        let text = scalarText(chars[start..<position])
        if !isFloat, let i = Int(text) { return .int(i) }
        guard let d = Double(text), d.isFinite else {
            throw error(at: start, found: "'\(text)'", expected: "a number that fits in a double")
        }
        return .double(d)
    }

    private mutating func readString(quote: Unicode.Scalar) throws -> String {
        let start = position
        position += 1
        var result = ""
        while true {
            guard let c = peek() else {
                throw error(
                    at: start, found: "a string that is never closed",
                    expected: "a closing \(quote) (a quote of the other kind does not close it)")
            }
            position += 1
            if c == quote { return result }
            guard c == "\\" else {
                result.unicodeScalars.append(c)
                continue
            }
            guard let e = peek() else {
                throw error(at: position - 1, found: "a backslash at the end", expected: "a character after '\\'")
            }
            position += 1
            switch e {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "\\", "\"", "'": result.unicodeScalars.append(e)
            case "x", "X":
                result.unicodeScalars.append(try readCode(digits: 2, radix: 16, escapeStart: position - 2))
            case "u", "U":
                result.unicodeScalars.append(try readCode(digits: 4, radix: 16, escapeStart: position - 2))
            case "0"..."7":
                position -= 1
                result.unicodeScalars.append(try readCode(digits: 3, radix: 8, escapeStart: position - 1))
            default:
                // Not an escape the language knows: keep both characters, so a regular
                // expression such as '\d+' reaches MATCHES unchanged.
                result.append("\\")
                result.unicodeScalars.append(e)
            }
        }
    }

    private mutating func readCode(digits: Int, radix: Int, escapeStart: Int) throws -> Unicode.Scalar {
        var text = ""
        for _ in 0..<digits {
            guard let c = peek(), c.isHexDigit, Int(String(c), radix: radix) != nil else { break }
            text.unicodeScalars.append(c)
            position += 1
        }
        guard text.count == digits, let value = UInt32(text, radix: radix),
            let scalar = Unicode.Scalar(value)
        else {
            throw error(
                at: escapeStart, found: "'\(scalarText(chars[escapeStart..<position]))'",
                expected: "\(digits) base-\(radix) digits naming a character")
        }
        return scalar
    }

    /// printf conversions Apple accepts besides `%@` and `%K`, and what they produce.
    private static let integerConversions: Set<String> = [
        "d", "i", "D", "u", "U", "x", "X", "o", "O", "c", "C",
        "ld", "li", "lu", "lx", "lX", "lo", "lld", "lli", "llu", "llx", "llX",
        "qd", "qi", "qu", "hd", "hi", "hu", "hhd", "hhi", "hhu", "zd", "zu",
    ]
    private static let floatConversions: Set<String> = ["f", "e", "E", "g", "G", "lf", "le", "lg", "F", "a", "A"]

    private mutating func readSpecifier(start: Int) throws -> Token {
        position += 1
        var spec = ""
        if peek() == "%" {
            position += 1
            return Token(kind: .argument(.string("%")), offset: start, text: "%%")
        }
        // Length modifiers, then one conversion letter.
        while let c = peek(), "lqhz".unicodeScalars.contains(c), spec.count < 2 {
            spec.unicodeScalars.append(c)
            position += 1
        }
        if let c = peek(), c == "@" || c.isASCIILetterOrUnderscore {
            spec.unicodeScalars.append(c)
            position += 1
        }
        let text = "%" + spec
        let isKnown =
            spec == "@" || spec == "K" || Self.integerConversions.contains(spec) || Self.floatConversions.contains(spec)
        guard isKnown else {
            throw error(
                at: start, found: "'\(text)'",
                expected:
                    "a format specifier: %@ for a value, %K for a key path, %d or %f for a number, %% for a percent sign"
            )
        }
        guard argumentIndex < arguments.count else {
            throw argumentError(
                at: start,
                "the specifier \(text) at offset \(start) needs argument \(argumentIndex + 1), but only \(arguments.count) \(arguments.count == 1 ? "was" : "were") given"
            )
        }
        let value = arguments[argumentIndex]
        argumentIndex += 1
        let label = "argument \(argumentIndex) (for \(text) at offset \(start))"
        switch spec {
        case "K":
            guard let key = unwrapOptional(value) as? String else {
                throw argumentError(
                    at: start, "\(label) must be a string naming a key path, but it is \(describeArgument(value))")
            }
            guard !key.isEmpty else {
                throw argumentError(at: start, "\(label) is an empty key path")
            }
            return Token(kind: .keyPathArgument(key), offset: start, text: text)
        case "@":
            return Token(kind: .argument(try constant(value, label: label, at: start)), offset: start, text: text)
        default:
            let constant = try constant(value, label: label, at: start)
            let wantsFloat = Self.floatConversions.contains(spec)
            switch constant {
            case .int(let i) where wantsFloat:
                return Token(kind: .argument(.double(Double(i))), offset: start, text: text)
            case .double(let d) where !wantsFloat && Int(exactly: d.rounded(.towardZero)) != nil:
                // printf's %d truncates a double, as C would read its bits as an integer.
                return Token(kind: .argument(.int(Int(d.rounded(.towardZero)))), offset: start, text: text)
            case .bool(let b):
                return Token(
                    kind: .argument(wantsFloat ? .double(b ? 1 : 0) : .int(b ? 1 : 0)), offset: start, text: text)
            case .int, .double, .decimal:
                return Token(kind: .argument(constant), offset: start, text: text)
            default:
                throw argumentError(
                    at: start,
                    "\(label) must be a number for \(text), but it is \(describeArgument(value)); use %@ for other values"
                )
            }
        }
    }

    /// An argument that does not fit its specifier: Apple's prefix, then what is wrong.
    private func argumentError(at offset: Int, _ detail: String) -> PredicateError {
        PredicateError(.invalidArgument, "Unable to parse the format string \"\(format)\": \(detail)", offset: offset)
    }

    /// The constant for a `%@` or `%d` argument; a value no predicate can hold is an argument error.
    private func constant(_ value: Any?, label: String, at offset: Int) throws -> ConstantValue {
        do {
            return try ConstantValue(argument: value, describedAs: label)
        } catch let error as PredicateError {
            throw argumentError(at: offset, error.message)
        }
    }
}

func describeArgument(_ value: Any?) -> String {
    guard let value = unwrapOptional(value) else { return "nil" }
    return "\(type(of: value)) \(String(reflecting: value))"
}

/// The text of a run of scalars.
private func scalarText(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
    var s = ""
    s.unicodeScalars.append(contentsOf: scalars)
    return s
}

extension Unicode.Scalar {
    var isASCIILetterOrUnderscore: Bool {
        let a = value
        return (a >= 65 && a <= 90) || (a >= 97 && a <= 122) || a == 95
    }
    var isASCIIDigit: Bool { value >= 48 && value <= 57 }
    var isHexDigit: Bool { isASCIIDigit || (value >= 65 && value <= 70) || (value >= 97 && value <= 102) }
}

extension Character {
    var isASCIILetterOrUnderscore: Bool {
        guard let a = asciiValue else { return false }
        return (a >= 65 && a <= 90) || (a >= 97 && a <= 122) || a == 95
    }
    var isASCIIDigit: Bool {
        guard let a = asciiValue else { return false }
        return a >= 48 && a <= 57
    }
}
