/// AND, OR or NOT over subpredicates: NSCompoundPredicate, as a value type.
///
/// Apple: "An AND predicate with no subpredicates evaluates to true. An OR predicate with no
/// subpredicates evaluates to false. A compound predicate with one or more subpredicates
/// evaluates to the truth of its subpredicates." A NOT of several subpredicates looks only at
/// the first, as Foundation does, and prints them joined by `NOT`.
public struct CompoundPredicate: Hashable, Sendable {
    /// AND, OR or NOT.
    public internal(set) var compoundPredicateType: LogicalType
    /// The subpredicates, in order; evaluation goes left to right and stops early.
    ///
    /// Read-only, so a NOT can never be emptied after the initializer checked it.
    public internal(set) var subpredicates: [Predicate]

    /// Creates a compound predicate.
    ///
    /// A NOT needs at least one subpredicate: an empty NOT is refused with an error, where
    /// Foundation raises an exception.
    public init(type: LogicalType, subpredicates: [Predicate]) throws {
        if type == .not && subpredicates.isEmpty {
            throw PredicateError(.invalidPredicate, "Tried to construct a NOT compound predicate with no subpredicates; NOT needs exactly one")
        }
        self.compoundPredicateType = type
        self.subpredicates = subpredicates
    }

    /// Builds without the NOT check, for callers that already guarantee it.
    init(unchecked type: LogicalType, _ subpredicates: [Predicate]) {
        self.compoundPredicateType = type
        self.subpredicates = subpredicates
    }

    /// NSCompoundPredicate.LogicalType, with Apple's raw values.
    public enum LogicalType: Int, Hashable, Sendable {
        /// NOT
        case not = 0
        /// AND
        case and = 1
        /// OR
        case or = 2

        /// The keyword `predicateFormat` uses.
        public var symbol: String {
            switch self {
            case .not: return "NOT"
            case .and: return "AND"
            case .or: return "OR"
            }
        }
    }
}
