import Foundation
import GRDB
import Testing

@testable import ObjectGraph

/// The functions and collations registered on the store's connection give the answers of
/// the code the evaluator and SortDescriptor use.
@Suite struct SQLiteFunctionsTests {
    func database() throws -> DatabaseQueue {
        var config = Configuration()
        config.prepareDatabase { SQLiteFunctions.register(on: $0) }
        return try DatabaseQueue(configuration: config)
    }

    /// One value a query selects.
    func select<T: DatabaseValueConvertible>(_ db: DatabaseQueue, _ sql: String, _ arguments: StatementArguments = [])
        throws -> T?
    {
        try db.read { try T.fetchOne($0, sql: sql, arguments: arguments) }
    }

    static let optionSets: [ComparisonPredicate.Options] = [
        [], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive],
        [.normalized], [.caseInsensitive, .normalized], [.localeSensitive], [.caseInsensitive, .localeSensitive],
    ]

    // Apple, Predicate Programming Guide, "String Comparisons": [c] and [d]; the SQL fold
    // must equal the evaluator's (StringComparison.fold), including its ASCII shortcut.
    @Test func foldAgreesWithTheEvaluator() throws {
        // Every ASCII character but NUL, which SQLite text cannot hold.
        let ascii = (1..<128).map { String(UnicodeScalar(UInt8($0))) }
        let samples = ascii + [ascii.joined(), "Hello World", "ABC", "x%Y_z"] + SQLFixture.strings.compactMap { $0 }
        let db = try database()
        for options in Self.optionSets {
            for s in samples {
                let expected = StringComparison.fold(s, options)
                #expect(SQLiteFunctions.foldFast(s, options) == expected, "\(s.debugDescription) \(options)")
                // Bound and read as bytes: GRDB's text stops at a NUL.
                let sql: Data? = try select(
                    db, "SELECT CAST(OG_FOLD(CAST(? AS TEXT), \(options.rawValue)) AS BLOB)", [Data(s.utf8)])
                #expect(sql.map { String(decoding: $0, as: UTF8.self) } == expected, "\(s.debugDescription) \(options)")
            }
        }
        // Anything but text passes through.
        let five: Int? = try select(db, "SELECT OG_FOLD(5, 1)")
        #expect(five == 5)
        let null: DatabaseValue? = try select(db, "SELECT OG_FOLD(NULL, 1)")
        #expect(null == .null)
    }

    // reference/predicates.md 2.6-2.8: the boolean functions answer as StringComparison,
    // 0 for NULL (never NULL), and fail where the evaluator throws.
    @Test func booleanFunctionsAgreeWithTheEvaluator() throws {
        let db = try database()
        let strings = SQLFixture.strings.compactMap { $0 }
        let patterns = PredicateGenerator.likePatterns.filter { !$0.hasSuffix("\\") || $0.hasSuffix("\\\\") }
        for options in Self.optionSets {
            for s in strings {
                // One query per string: the three substring functions for every needle.
                let needles = ["a", "", "é", "A", "bc", "x%", "ｈ", "ss"]
                // Strings bound as bytes made TEXT by CAST: GRDB's text stops at a NUL.
                let sql = needles.map { _ in
                    "OG_BEGINSWITH(CAST(?1 AS TEXT), CAST(? AS TEXT), \(options.rawValue)) || OG_ENDSWITH(CAST(?1 AS TEXT), CAST(? AS TEXT), \(options.rawValue)) || OG_CONTAINS(CAST(?1 AS TEXT), CAST(? AS TEXT), \(options.rawValue))"
                }
                .joined(separator: " || ")
                var arguments: [DatabaseValueConvertible] = [Data(s.utf8)]
                for t in needles { arguments += [Data(t.utf8), Data(t.utf8), Data(t.utf8)] }
                let got: String? = try select(db, "SELECT \(sql)", StatementArguments(arguments))
                let expected = needles.map { t in
                    [
                        StringComparison.beginsWith(s, t, options), StringComparison.endsWith(s, t, options),
                        StringComparison.contains(s, t, options),
                    ]
                    .map { $0 ? "1" : "0" }.joined()
                }.joined()
                #expect(got == expected, "\(s.debugDescription) \(options)")
                let likes: String? = try select(
                    db,
                    "SELECT "
                        + patterns.map { _ in "OG_LIKE(CAST(?1 AS TEXT), CAST(? AS TEXT), \(options.rawValue))" }
                        .joined(separator: " || "),
                    StatementArguments(([s] + patterns).map { Data($0.utf8) }))
                let expectedLikes = try patterns.map { try StringComparison.like(s, $0, options) ? "1" : "0" }.joined()
                #expect(likes == expectedLikes, "\(s.debugDescription) LIKE \(patterns) \(options)")
            }
        }
        let nullText: Int? = try select(db, "SELECT OG_BEGINSWITH(NULL, 'a', 0)")
        #expect(nullText == 0)
        let nullPattern: Int? = try select(db, "SELECT OG_MATCHES('abc', NULL, 0)")
        #expect(nullPattern == 0)
        let matches: Bool? = try select(db, "SELECT OG_MATCHES('ABC', 'a.c', 1)")
        #expect(matches == true)
        #expect(throws: DatabaseError.self) { let _: Int? = try select(db, "SELECT OG_MATCHES('abc', '(', 0)") }
        #expect(throws: DatabaseError.self) { let _: Int? = try select(db, "SELECT OG_LIKE('abc', 'abc\\', 0)") }
    }

    // SQLite, "Deterministic SQL Functions": pure functions let SQLite optimise (and use them
    // in indexes); the brief asks for them, and PRAGMA function_list shows the flag (0x800).
    @Test func functionsAreDeterministic() throws {
        let db = try database()
        let rows = try db.read { try Row.fetchAll($0, sql: "PRAGMA function_list") }
        let ours = rows.filter { ($0["name"] as String?)?.hasPrefix("og_") == true }
        #expect(
            Set(ours.compactMap { $0["name"] as String? }) == [
                "og_fold", "og_beginswith", "og_endswith", "og_contains", "og_like", "og_matches", "og_fsum",
                "og_lowercase", "og_uppercase",
            ])
        for row in ours {
            let flags: Int = row["flags"]
            #expect(flags & 0x800 != 0, "\(row)")
        }
    }

    // Apple, NSSortDescriptor reference and "Persistent Store Types and Behaviors": the
    // collations order as SortDescriptor.compareStrings does.
    @Test func collationsAgreeWithSortDescriptor() throws {
        let db = try database()
        let strings = SQLFixture.strings.compactMap { $0 } + ["item 10", "item 9", "Item 1"]
        try db.write { db in
            try db.execute(sql: "CREATE TABLE t (i INTEGER PRIMARY KEY, s TEXT)")
            for (i, s) in strings.enumerated() {
                try db.execute(sql: "INSERT INTO t VALUES (?, CAST(? AS TEXT))", arguments: [i, Data(s.utf8)])
            }
        }
        for comparator in ObjectGraph.SortDescriptor.Comparator.allCases {
            let collation = SQLiteFunctions.collation(for: comparator).map { " COLLATE \($0)" } ?? ""
            let sql = try db.read {
                try Data.fetchAll($0, sql: "SELECT CAST(s AS BLOB) FROM t ORDER BY s\(collation), i")
            }.map { String(decoding: $0, as: UTF8.self) }
            let memory = strings.enumerated().sorted { a, b in
                let order = ObjectGraph.SortDescriptor.compareStrings(a.element, b.element, comparator)
                return order == .orderedSame ? a.offset < b.offset : order == .orderedAscending
            }.map(\.element)
            #expect(sql == memory, "\(comparator)")
        }
    }
}
