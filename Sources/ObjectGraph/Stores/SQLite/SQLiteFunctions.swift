import Foundation
import GRDB

/// Functions and collations the store registers on its connection so SQL gives the same
/// answers as the evaluator.
///
/// Every function calls the code the in-memory evaluator uses (``StringComparison``,
/// ``SortDescriptor/compareStrings(_:_:_:)``), so a predicate means the same in SQL and in
/// memory. The option bits are those of ``ComparisonPredicate/Options`` (`[c]` = 1,
/// `[d]` = 2, `[n]` = 4, `[l]` = 8). All functions are deterministic (`pure`), and the
/// boolean ones answer 0 rather than NULL when an argument is NULL, so conditions built on
/// them stay two-valued.
enum SQLiteFunctions {
    /// `OG_FOLD(text, options)`: the string folded for `[c]`/`[d]`
    /// (``StringComparison/fold(_:_:)``); anything that is not text comes back unchanged.
    static let fold = "OG_FOLD"
    /// `OG_BEGINSWITH(text, prefix, options)`: 1 or 0.
    static let beginsWith = "OG_BEGINSWITH"
    /// `OG_ENDSWITH(text, suffix, options)`: 1 or 0.
    static let endsWith = "OG_ENDSWITH"
    /// `OG_CONTAINS(text, needle, options)`: 1 or 0 (string CONTAINS, and IN with a string).
    static let contains = "OG_CONTAINS"
    /// `OG_LIKE(text, pattern, options)`: 1 or 0; fails on a pattern ending in a lone `\`.
    static let like = "OG_LIKE"
    /// `OG_MATCHES(text, regex, options)`: 1 or 0; fails on a regex that does not compile.
    static let matches = "OG_MATCHES"

    /// The collation for each comparator of ``SortDescriptor`` that is not plain scalar order.
    static func collation(for comparator: SortDescriptor.Comparator) -> String? {
        switch comparator {
        case .compare: return nil
        case .caseInsensitiveCompare: return "OG_CASEINSENSITIVE"
        case .localizedCompare: return "OG_LOCALIZED"
        case .localizedCaseInsensitiveCompare: return "OG_LOCALIZED_CI"
        case .localizedStandardCompare: return "OG_LOCALIZED_STANDARD"
        }
    }

    /// Registers every function and collation on a connection.
    static func register(on db: Database) {
        for function in functions { db.add(function: function) }
        for comparator in SortDescriptor.Comparator.allCases {
            guard let name = collation(for: comparator) else { continue }
            db.add(collation: DatabaseCollation(name) { SortDescriptor.compareStrings($0, $1, comparator) })
        }
    }

    private static let functions: [DatabaseFunction] = [
        DatabaseFunction(fold, argumentCount: 2, pure: true) { arguments in
            guard case .string(let s) = arguments[0].storage else { return arguments[0] }
            return foldFast(s, options(arguments[1]))
        },
        booleanFunction(beginsWith) { StringComparison.beginsWith($0, $1, $2) },
        booleanFunction(endsWith) { StringComparison.endsWith($0, $1, $2) },
        booleanFunction(contains) { StringComparison.contains($0, $1, $2) },
        booleanFunction(like) { try StringComparison.like($0, $1, $2) },
        booleanFunction(matches) { try StringComparison.matches($0, $1, $2) },
    ]

    /// A function of two strings and the option bits answering 1 or 0 (0 when either string
    /// is NULL, as the evaluator answers false for nil).
    private static func booleanFunction(
        _ name: String,
        _ body: @escaping @Sendable (String, String, ComparisonPredicate.Options) throws -> Bool
    ) -> DatabaseFunction {
        DatabaseFunction(name, argumentCount: 3, pure: true) { arguments in
            guard case .string(let s) = arguments[0].storage, case .string(let t) = arguments[1].storage else { return 0 }
            return try body(s, t, options(arguments[2])) ? 1 : 0
        }
    }

    private static func options(_ value: DatabaseValue) -> ComparisonPredicate.Options {
        guard case .int64(let bits) = value.storage, bits >= 0 else { return [] }
        return ComparisonPredicate.Options(rawValue: UInt(bits))
    }

    /// ``StringComparison/fold(_:_:)`` with a fast path for ASCII text, which Foundation's
    /// folding leaves alone except for lower-casing under `[c]` (checked by the tests over
    /// every ASCII character). The benchmark's `BEGINSWITH[c]` folds every row.
    static func foldFast(_ s: String, _ options: ComparisonPredicate.Options) -> String {
        if options.contains(.normalized) || options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive]) { return s }
        var hasUpper = false
        for byte in s.utf8 {
            if byte >= 0x80 { return StringComparison.fold(s, options) }
            if byte >= 0x41 && byte <= 0x5A { hasUpper = true }
        }
        guard hasUpper, options.contains(.caseInsensitive) else { return s }
        return String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
