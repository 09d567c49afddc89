/// A comparison of two expressions: NSComparisonPredicate, as a value type.
///
/// ```swift
/// let p = ComparisonPredicate(.keyPath("name"), .beginsWith, .constant(.string("J")), options: .caseInsensitive)
/// Predicate.comparison(p).predicateFormat   // name BEGINSWITH[c] "J"
/// ```
public struct ComparisonPredicate: Hashable, Sendable {
    /// The left-hand expression.
    public var leftExpression: Expression
    /// The right-hand expression.
    public var rightExpression: Expression
    /// The operator.
    public var operatorType: Operator
    /// `ANY`, `ALL` or neither (direct). `SOME` parses as `ANY`; `NONE` as `NOT ANY`.
    public var modifier: Modifier
    /// `[c]`, `[d]`, `[n]`, `[l]` and their combinations.
    public var options: Options

    /// Creates a comparison of two expressions.
    public init(
        _ left: Expression, _ operatorType: Operator, _ right: Expression,
        modifier: Modifier = .direct, options: Options = []
    ) {
        self.leftExpression = left
        self.rightExpression = right
        self.operatorType = operatorType
        self.modifier = modifier
        self.options = options
    }

    /// NSComparisonPredicate.Operator, with Apple's raw values.
    public enum Operator: Int, Hashable, Sendable, CaseIterable {
        /// `<`
        case lessThan = 0
        /// `<=` (also written `=<`)
        case lessThanOrEqualTo = 1
        /// `>`
        case greaterThan = 2
        /// `>=` (also written `=>`)
        case greaterThanOrEqualTo = 3
        /// `==` (also written `=`)
        case equalTo = 4
        /// `!=` (also written `<>`)
        case notEqualTo = 5
        /// `MATCHES`: the whole string matches an ICU regular expression.
        case matches = 6
        /// `LIKE`: the whole string matches a pattern with `*` and `?` wildcards.
        case like = 7
        /// `BEGINSWITH`
        case beginsWith = 8
        /// `ENDSWITH`
        case endsWith = 9
        /// `IN`: the left side is in the collection (or substring of the string) on the right.
        case `in` = 10
        /// `CONTAINS`: the collection (or string) on the left contains the right side.
        case contains = 99
        /// `BETWEEN`: inside a two-element array of bounds, both inclusive.
        case between = 100

        /// The canonical spelling `predicateFormat` uses.
        public var symbol: String {
            switch self {
            case .lessThan: return "<"
            case .lessThanOrEqualTo: return "<="
            case .greaterThan: return ">"
            case .greaterThanOrEqualTo: return ">="
            case .equalTo: return "=="
            case .notEqualTo: return "!="
            case .matches: return "MATCHES"
            case .like: return "LIKE"
            case .beginsWith: return "BEGINSWITH"
            case .endsWith: return "ENDSWITH"
            case .in: return "IN"
            case .contains: return "CONTAINS"
            case .between: return "BETWEEN"
            }
        }
    }

    /// NSComparisonPredicate.Modifier.
    public enum Modifier: Int, Hashable, Sendable {
        /// A direct comparison.
        case direct = 0
        /// `ALL`: the comparison holds for every element of the left-hand collection.
        case all = 1
        /// `ANY` (or `SOME`): the comparison holds for at least one element.
        case any = 2
    }

    /// NSComparisonPredicate.Options, with Apple's bit values.
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        /// Creates options from their bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// `[c]`: case-insensitive.
        public static let caseInsensitive = Options(rawValue: 0x1)
        /// `[d]`: diacritic-insensitive.
        public static let diacriticInsensitive = Options(rawValue: 0x2)
        /// `[n]`: the strings are already normalized; no folding is done.
        public static let normalized = Options(rawValue: 0x4)
        /// `[l]`: locale-sensitive comparison.
        public static let localeSensitive = Options(rawValue: 0x8)

        /// The letters inside the brackets, in Apple's printing order (c, d, l, n).
        public var letters: String {
            var s = ""
            if contains(.caseInsensitive) { s += "c" }
            if contains(.diacriticInsensitive) { s += "d" }
            if contains(.localeSensitive) { s += "l" }
            if contains(.normalized) { s += "n" }
            return s
        }
    }
}
