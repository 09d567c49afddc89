import Foundation

/// How to order objects by the value at a key path: NSSortDescriptor, as a value type.
///
/// ```swift
/// let byTitle = SortDescriptor(key: "title", ascending: true, comparator: .caseInsensitiveCompare)
/// let sorted = try SortDescriptor.sort(books, by: [byTitle])
/// ```
///
/// The SQLite store runs the same orders in SQL (the comparators become registered
/// collations); atomic and in-memory stores sort with ``sort(_:by:)``.
/// nil sorts before every value when ascending, as in Core Data and SQLite.
public struct SortDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// The key path whose values are compared.
    public var key: String
    /// Whether smaller values come first.
    public var ascending: Bool
    /// How two strings compare; numbers and dates always compare by value.
    public var comparator: Comparator

    /// The string comparisons Core Data's SQLite store supports (Apple, "Persistent Store
    /// Types and Behaviors"): the selectors NSSortDescriptor takes.
    public enum Comparator: String, Hashable, Sendable, CaseIterable {
        /// `compare:`: by Unicode scalar, case-sensitive.
        case compare = "compare:"
        /// `caseInsensitiveCompare:`.
        case caseInsensitiveCompare = "caseInsensitiveCompare:"
        /// `localizedCompare:`: the current locale's collation.
        case localizedCompare = "localizedCompare:"
        /// `localizedCaseInsensitiveCompare:`.
        case localizedCaseInsensitiveCompare = "localizedCaseInsensitiveCompare:"
        /// `localizedStandardCompare:`: the Finder's order, numbers in strings by value.
        case localizedStandardCompare = "localizedStandardCompare:"
    }

    /// Creates a sort descriptor (NSSortDescriptor(key:ascending:selector:)).
    public init(key: String, ascending: Bool = true, comparator: Comparator = .compare) {
        self.key = key
        self.ascending = ascending
        self.comparator = comparator
    }

    /// The same key and comparator in the other direction.
    public var reversedSortDescriptor: SortDescriptor {
        SortDescriptor(key: key, ascending: !ascending, comparator: comparator)
    }

    /// Apple's description: `(title, ascending, compare:)`.
    public var description: String {
        "(\(key), \(ascending ? "ascending" : "descending"), \(comparator.rawValue))"
    }

    /// Compares two objects by the value at ``key``, honouring ``ascending``.
    ///
    /// Throws ``PredicateError`` when the key path cannot be read or the two values have no
    /// common order (a string against a number).
    public func compare(_ a: Any?, _ b: Any?) throws -> ComparisonResult {
        let x = try KeyPathResolver.value(of: a, keyPath: key)
        let y = try KeyPathResolver.value(of: b, keyPath: key)
        let order = try compareValues(x, y)
        guard !ascending else { return order }
        switch order {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    /// Compares two values with this descriptor's comparator, ascending.
    public func compareValues(_ a: Any?, _ b: Any?) throws -> ComparisonResult {
        let x = ValueComparison.normalize(a)
        let y = ValueComparison.normalize(b)
        switch (x, y) {
        case (nil, nil): return .orderedSame
        case (nil, _): return .orderedAscending
        case (_, nil): return .orderedDescending
        case (let s as String, let t as String): return Self.compareStrings(s, t, comparator)
        default:
            if let order = ValueComparison.order(x!, y!, []) { return order }
            throw PredicateError(
                .invalidOperand,
                "Can't sort by \(key): \(describeArgument(x)) and \(describeArgument(y)) have no common order")
        }
    }

    /// The string order of a comparator. Shared with the SQLite store's collations.
    public static func compareStrings(_ s: String, _ t: String, _ comparator: Comparator) -> ComparisonResult {
        switch comparator {
        case .compare:
            return StringComparison.compare(s, t, [])
        case .caseInsensitiveCompare:
            return StringComparison.compare(s, t, [.caseInsensitive])
        case .localizedCompare:
            return s.compare(t, options: [], range: nil, locale: .current)
        case .localizedCaseInsensitiveCompare:
            return s.compare(t, options: [.caseInsensitive], range: nil, locale: .current)
        case .localizedStandardCompare:
            return s.compare(
                t, options: [.caseInsensitive, .numeric, .widthInsensitive, .forcedOrdering], range: nil,
                locale: .current)
        }
    }

    /// Sorts objects by several descriptors, the first deciding and later ones breaking ties;
    /// the sort is stable, so objects equal under every descriptor keep their order.
    public static func sort<T>(_ objects: [T], by descriptors: [SortDescriptor]) throws -> [T] {
        guard !descriptors.isEmpty, objects.count > 1 else { return objects }
        // Read every key once, then sort indices: key paths can be costly and can throw.
        let keys = try objects.map { object in
            try descriptors.map { try KeyPathResolver.value(of: object, keyPath: $0.key) }
        }
        var failure: Error?
        let order = objects.indices.sorted { i, j in
            guard failure == nil else { return false }
            for (n, descriptor) in descriptors.enumerated() {
                do {
                    var result = try descriptor.compareValues(keys[i][n], keys[j][n])
                    if !descriptor.ascending {
                        result =
                            result == .orderedAscending
                            ? .orderedDescending : (result == .orderedDescending ? .orderedAscending : .orderedSame)
                    }
                    if result != .orderedSame { return result == .orderedAscending }
                } catch {
                    failure = error
                    return false
                }
            }
            return i < j
        }
        if let failure { throw failure }
        return order.map { objects[$0] }
    }
}
