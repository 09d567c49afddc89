import Foundation
import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#elseif canImport(SQLite3)
    import SQLite3
#endif

/// Functions and collations the store registers on its connection so SQL gives the same
/// answers as the evaluator.
///
/// Every function calls the code the in-memory evaluator uses (``StringComparison``,
/// ``SortDescriptor/compareStrings(_:_:_:)``), so a predicate means the same in SQL and in
/// memory. The option bits are those of ``ComparisonPredicate/Options`` (`[c]` = 1,
/// `[d]` = 2, `[n]` = 4, `[l]` = 8). All functions are deterministic (`pure`), and the
/// boolean ones answer 0 rather than NULL when an argument is NULL, so conditions built on
/// them stay two-valued.
///
/// The functions are registered with SQLite's C API when GRDB's SQLite module is visible:
/// they run once per row (`BEGINSWITH[c]` folds every title), and GRDB's convenience wrapper
/// (arrays of DatabaseValue, String copies) costs more than folding ASCII text.
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

    /// `OG_FSUM(x)`: an aggregate, the sum of the non-NULL values as Doubles rounded once
    /// (``ExactSum``), so that `@sum` and `@avg` do not depend on the order of the rows and
    /// agree with the evaluator; NULL for NaN (+inf plus -inf), as SQLite has no NaN.
    static let exactSum = "OG_FSUM"

    /// `OG_LOWERCASE(text)` and `OG_UPPERCASE(text)`: a derived attribute's `lowercase:` and
    /// `uppercase:` of any script (SQLite's `lower()` knows only ASCII).
    static let lowercase = "OG_LOWERCASE"
    static let uppercase = "OG_UPPERCASE"

    /// The functions Core Data's derived-attribute triggers call to tell Core Data which
    /// values they changed (in SampleModel2's store: `Z_DA_ZPAGE_Book_pagesCount_...`).
    /// Registered, doing nothing, so those triggers run here: the store is what keeps the
    /// values, and a later fetch reads them.
    static let derivedAttributeTriggerFunctions = [
        "NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue",
    ]

    /// The state of one `OG_FSUM` computation.
    struct ExactSumAggregate: DatabaseAggregate {
        private var sum = ExactSum()

        /// Adds one row's value; NULL adds nothing.
        mutating func step(_ values: [DatabaseValue]) {
            switch values[0].storage {
            case .int64(let i): sum.add(Double(i))
            case .double(let d): sum.add(d)
            default: break
            }
        }

        /// The total, or NULL when it is not a number.
        func finalize() -> (any DatabaseValueConvertible)? {
            let total = sum.total
            return total.isNaN ? nil : total
        }
    }

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
        if !registerNative(on: db) {
            for function in grdbFunctions { db.add(function: function) }
        }
        db.add(function: DatabaseFunction(exactSum, argumentCount: 1, pure: true, aggregate: ExactSumAggregate.self))
        db.add(
            function: DatabaseFunction(lowercase, argumentCount: 1, pure: true) { arguments in
                guard case .string(let s) = arguments[0].storage else { return arguments[0] }
                return s.lowercased()
            })
        db.add(
            function: DatabaseFunction(uppercase, argumentCount: 1, pure: true) { arguments in
                guard case .string(let s) = arguments[0].storage else { return arguments[0] }
                return s.uppercased()
            })
        if !registerNativeTriggerFunctions(on: db) {
            for name in derivedAttributeTriggerFunctions {
                db.add(function: DatabaseFunction(name, argumentCount: -1, pure: false) { _ in nil })
            }
        }
        for comparator in SortDescriptor.Comparator.allCases {
            guard let name = collation(for: comparator) else { continue }
            db.add(collation: DatabaseCollation(name) { SortDescriptor.compareStrings($0, $1, comparator) })
        }
    }

    /// The string operations behind the boolean functions.
    static func evaluate(_ name: String, _ s: String, _ t: String, _ options: ComparisonPredicate.Options) throws
        -> Bool
    {
        switch name {
        case beginsWith: return StringComparison.beginsWith(s, t, options)
        case endsWith: return StringComparison.endsWith(s, t, options)
        case contains: return StringComparison.contains(s, t, options)
        case like: return try StringComparison.like(s, t, options)
        default: return try StringComparison.matches(s, t, options)
        }
    }

    /// ``StringComparison/fold(_:_:)`` with a fast path for ASCII text, which Foundation's
    /// folding leaves alone except for lower-casing under `[c]` (checked by the tests over
    /// every ASCII character).
    static func foldFast(_ s: String, _ options: ComparisonPredicate.Options) -> String {
        if options.contains(.normalized) || options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive]) {
            return s
        }
        var hasUpper = false
        for byte in s.utf8 {
            if byte >= 0x80 { return StringComparison.fold(s, options) }
            if byte &- 0x41 < 26 { hasUpper = true }
        }
        guard hasUpper, options.contains(.caseInsensitive) else { return s }
        return String(decoding: s.utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    // MARK: GRDB registration (used when SQLite's C API is not visible)

    private static let grdbFunctions: [DatabaseFunction] =
        [
            DatabaseFunction(fold, argumentCount: 2, pure: true) { arguments in
                guard case .string(let s) = arguments[0].storage else { return arguments[0] }
                return foldFast(s, options(arguments[1]))
            }
        ]
        + [beginsWith, endsWith, contains, like, matches].map { name in
            DatabaseFunction(name, argumentCount: 3, pure: true) { arguments in
                guard case .string(let s) = arguments[0].storage, case .string(let t) = arguments[1].storage else {
                    return 0
                }
                return try evaluate(name, s, t, options(arguments[2])) ? 1 : 0
            }
        }

    private static func options(_ value: DatabaseValue) -> ComparisonPredicate.Options {
        guard case .int64(let bits) = value.storage, bits >= 0 else { return [] }
        return ComparisonPredicate.Options(rawValue: UInt(bits))
    }

    // MARK: Native registration

    #if canImport(GRDBSQLite) || canImport(SQLite3)
        private typealias NativeFunction =
            @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void

        private static func registerNative(on db: Database) -> Bool {
            guard let connection = db.sqliteConnection else { return false }
            let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
            let functions: [(String, Int32, NativeFunction)] = [
                (fold, 2, nativeFold),
                (beginsWith, 3, { SQLiteFunctions.nativeBoolean($0, $2, SQLiteFunctions.beginsWith) }),
                (endsWith, 3, { SQLiteFunctions.nativeBoolean($0, $2, SQLiteFunctions.endsWith) }),
                (contains, 3, { SQLiteFunctions.nativeBoolean($0, $2, SQLiteFunctions.contains) }),
                (like, 3, { SQLiteFunctions.nativeBoolean($0, $2, SQLiteFunctions.like) }),
                (matches, 3, { SQLiteFunctions.nativeBoolean($0, $2, SQLiteFunctions.matches) }),
            ]
            for (name, count, function) in functions {
                guard
                    sqlite3_create_function_v2(connection, name, count, flags, nil, function, nil, nil, nil)
                        == SQLITE_OK
                else { return false }
            }
            return true
        }

        /// Registers ``derivedAttributeTriggerFunctions`` as innocuous: with `trusted_schema = OFF`
        /// (``SQLiteConnection/defend(_:)``) a trigger in the file may call only such functions,
        /// and these do nothing. GRDB's registration cannot set SQLITE_INNOCUOUS.
        private static func registerNativeTriggerFunctions(on db: Database) -> Bool {
            guard let connection = db.sqliteConnection else { return false }
            let flags = SQLITE_UTF8 | SQLITE_INNOCUOUS
            let nothing: NativeFunction = { context, _, _ in sqlite3_result_null(context) }
            for name in derivedAttributeTriggerFunctions {
                guard sqlite3_create_function_v2(connection, name, -1, flags, nil, nothing, nil, nil, nil) == SQLITE_OK
                else {
                    return false
                }
            }
            return true
        }

        /// SQLite's SQLITE_TRANSIENT: the result is copied before the function returns.
        private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

        /// The text of an argument, nil when it is not text.
        private static func text(_ value: OpaquePointer?) -> UnsafeBufferPointer<UInt8>? {
            guard let value, sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else {
                return nil
            }
            return UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
        }

        private static func nativeBoolean(
            _ context: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>?, _ name: String
        ) {
            guard let argv, let s = text(argv[0]), let t = text(argv[1]), let optionsValue = argv[2] else {
                return sqlite3_result_int(context, 0)
            }
            let options = ComparisonPredicate.Options(rawValue: UInt(max(0, sqlite3_value_int64(optionsValue))))
            do {
                let holds = try evaluate(
                    name, String(decoding: s, as: UTF8.self), String(decoding: t, as: UTF8.self), options)
                sqlite3_result_int(context, holds ? 1 : 0)
            } catch {
                sqlite3_result_error(context, "\(error)", -1)
            }
        }

        private static let nativeFold: NativeFunction = { context, _, argv in
            guard let argv, let value = argv[0], let optionsValue = argv[1] else { return sqlite3_result_null(context) }
            guard sqlite3_value_type(value) == SQLITE_TEXT else { return sqlite3_result_value(context, value) }
            // Option bits: [c] = 1, [d] = 2, [n] = 4 (no folding at all).
            let bits = sqlite3_value_int64(optionsValue)
            if bits & 4 != 0 || bits & 3 == 0 { return sqlite3_result_value(context, value) }
            guard let text = sqlite3_value_text(value) else { return sqlite3_result_null(context) }
            let count = Int(sqlite3_value_bytes(value))
            var hasUpper = false
            var i = 0
            while i < count {
                let byte = text[i]
                if byte >= 0x80 { break }
                if byte &- 0x41 < 26 { hasUpper = true }
                i += 1
            }
            if i == count {
                // ASCII: Foundation's folding changes it only by lower-casing under [c].
                guard hasUpper, bits & 1 != 0 else { return sqlite3_result_value(context, value) }
                withUnsafeTemporaryAllocation(of: CChar.self, capacity: max(count, 1)) { buffer in
                    var j = 0
                    while j < count {
                        let byte = text[j]
                        buffer[j] = CChar(bitPattern: byte &- 0x41 < 26 ? byte | 0x20 : byte)
                        j += 1
                    }
                    sqlite3_result_text(context, buffer.baseAddress, Int32(count), SQLiteFunctions.transient)
                }
                return
            }
            let options = ComparisonPredicate.Options(rawValue: UInt(bits))
            let folded = StringComparison.fold(
                String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self), options)
            folded.withCString { chars in
                sqlite3_result_text(context, chars, Int32(folded.utf8.count), SQLiteFunctions.transient)
            }
        }
    #else
        private static func registerNative(on db: Database) -> Bool { false }
        private static func registerNativeTriggerFunctions(on db: Database) -> Bool { false }
    #endif
}
