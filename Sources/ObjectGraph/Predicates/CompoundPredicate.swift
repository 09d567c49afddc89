/// AND, OR or NOT over subpredicates: NSCompoundPredicate, as a value type.
///
/// Apple: "An AND predicate with no subpredicates evaluates to true. An OR predicate with no
/// subpredicates evaluates to false. A compound predicate with one or more subpredicates
/// evaluates to the truth of its subpredicates." A NOT of several subpredicates looks only at
/// the first, as Foundation does, and prints them joined by `NOT`.
///
/// An AND directly inside an AND (an OR inside an OR) is one level in meaning: such a chain,
/// however long, counts as one level toward ``Predicate/maximumDepth`` and every walk over it
/// (evaluation, printing, substitution, SQL) goes through `CompoundPredicate.chainTerms`
/// without recursing per link. Releasing a tree of any depth does not recurse either
/// (`SubpredicateStorage`).
public struct CompoundPredicate: Hashable, Sendable {
    /// AND, OR or NOT.
    public internal(set) var compoundPredicateType: LogicalType
    /// Where the subpredicates live: a class, so that releasing a deep tree can be iterative.
    var storage: SubpredicateStorage

    /// The subpredicates, in order; evaluation goes left to right and stops early.
    ///
    /// Read-only, so a NOT can never be emptied after the initializer checked it.
    public internal(set) var subpredicates: [Predicate] {
        get { storage.predicates }
        set { storage = SubpredicateStorage(newValue) }
    }

    /// Creates a compound predicate.
    ///
    /// A NOT needs at least one subpredicate: an empty NOT is refused with an error, where
    /// Foundation raises an exception.
    public init(type: LogicalType, subpredicates: [Predicate]) throws {
        if type == .not && subpredicates.isEmpty {
            throw PredicateError(
                .invalidPredicate,
                "Tried to construct a NOT compound predicate with no subpredicates; NOT needs exactly one")
        }
        self.init(unchecked: type, subpredicates)
    }

    /// Builds without the NOT check, for callers that already guarantee it.
    init(unchecked type: LogicalType, _ subpredicates: [Predicate]) {
        self.compoundPredicateType = type
        self.storage = SubpredicateStorage(subpredicates)
    }

    /// Equal when of the same type with equal subpredicates (compared without recursion).
    public static func == (lhs: CompoundPredicate, rhs: CompoundPredicate) -> Bool {
        Predicate.compound(lhs) == Predicate.compound(rhs)
    }

    /// Hashes the type and the subpredicates without recursion.
    public func hash(into hasher: inout Hasher) {
        Predicate.compound(self).hash(into: &hasher)
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

/// The subpredicates of a compound predicate, in a class whose `deinit` takes a deep tree
/// apart with a worklist.
///
/// Swift releases nested values recursively, a few stack frames per level: a NOT chain or an
/// alternating AND/OR chain about 40,000 levels deep overflowed an 8 MB stack when its last
/// copy was dropped (measured in a debug build, on the main thread and on a Swift Testing
/// thread alike). Here a storage being freed moves the subpredicates of each compound child
/// that nobody else holds into its own worklist before that child is freed, so every storage
/// is freed empty, one at a time, at the same stack depth.
///
/// The array is only ever replaced in `deinit`, on storages no other value can reach (uniquely
/// referenced), so sharing it between threads is safe.
final class SubpredicateStorage: @unchecked Sendable {
    /// The subpredicates.
    private(set) var predicates: [Predicate]

    init(_ predicates: [Predicate]) { self.predicates = predicates }

    deinit {
        // The common case, comparisons only, needs no worklist.
        guard predicates.contains(where: { if case .compound = $0 { return true } else { return false } }) else {
            return
        }
        var pending = predicates
        predicates = []
        while var node = pending.popLast() {
            var child: SubpredicateStorage?
            if case .compound(let compound) = node { child = compound.storage }
            // Drop the popped value's reference, so `child` is the only one left if no other
            // predicate shares this subtree.
            node = .constant(true)
            guard isKnownUniquelyReferenced(&child), let storage = child else { continue }
            pending += storage.predicates
            storage.predicates = []
            // `child` (the last reference) goes at the end of this iteration: an empty storage.
        }
    }
}
