/// What went wrong with a predicate: parsing it, substituting into it, or evaluating it.
///
/// Foundation raises an Objective-C exception for all of these, which Swift cannot catch;
/// here they are thrown errors whose messages start the way Apple's exception reasons do.
public struct PredicateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Hashable, Sendable {
        /// The format string is malformed (Apple: `Unable to parse the format string`).
        case unparseable
        /// Too few or too many arguments, or an argument of the wrong kind.
        case invalidArgument
        /// A `$variable` with no value in the substitution dictionary.
        case missingVariable
        /// A key that the evaluated object does not have (NSUnknownKeyException).
        case unknownKey
        /// A regular expression or LIKE pattern that does not compile.
        case invalidPattern
        /// Operands the operator or function cannot work with.
        case invalidOperand
        /// A function name or `FUNCTION` selector that is not known.
        case unknownFunction
        /// A predicate that cannot be built (an empty NOT).
        case invalidPredicate
        /// A predicate, expression or argument nested deeper than ``Predicate/maximumDepth``
        /// (or, for a format string and its arguments, the parser's limit of 100 levels).
        case nestedTooDeeply
    }

    /// The kind of failure.
    public let code: Code
    /// The whole message, ready to show a person.
    public let message: String
    /// For parse errors, the offset in Unicode scalars from the start of the format string
    /// (for ASCII text, in characters).
    public let offset: Int?

    /// Creates an error.
    public init(_ code: Code, _ message: String, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    public var description: String { message }
}

extension PredicateError {
    /// A parse error in Apple's words, with the offset, the token, what was expected and a
    /// caret under the spot.
    static func unparseable(format: String, offset: Int, found: String, expected: String) -> PredicateError {
        // Offsets count Unicode scalars, as the lexer reads them. Point the caret into the line
        // that holds the offset.
        let lines = format.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        var lineStart = 0
        var lineText = Substring(format)
        for line in lines {
            if offset <= lineStart + line.count {
                lineText = Substring(line)
                break
            }
            lineStart += line.count + 1
        }
        let column = max(0, offset - lineStart)
        let caret = String(repeating: " ", count: column) + "^"
        let message = """
            Unable to parse the format string "\(format)": at offset \(offset), found \(found), expected \(expected)
                \(lineText)
                \(caret)
            """
        return PredicateError(.unparseable, message, offset: offset)
    }
}
