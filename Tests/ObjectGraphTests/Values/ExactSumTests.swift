import Foundation
import GRDB
import Testing

@testable import ObjectGraph

// `@sum` and `@avg` of Doubles over a to-many relationship, which has no order: the answer
// must not depend on the order of the elements, in memory or in SQL (the long equivalence
// run once found `books.@sum.price > 9007199254740994` true in SQL and false in memory, the
// same three prices added in two orders).
@Suite struct ExactSumTests {
    static func sum(_ values: [Double]) -> Double {
        var s = ExactSum()
        for v in values { s.add(v) }
        return s.total
    }

    @Test func theTotalIsRoundedOnceWhateverTheOrder() {
        let values = [9007199254740992.0, 1.0, 1.0, 0.5, -3.5, 19.99, 1.25]
        let exact = Self.sum(values)
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 { #expect(Self.sum(values.shuffled(using: &rng)) == exact) }
        // Naive left-to-right sums of these differ by order; the exact one is the rounding of
        // the true total 9007199254741012.24: 9007199254741012.
        #expect(exact == 9007199254741012.0)
        #expect(Self.sum([1e100, 1.0, -1e100]) == 1.0)
        #expect(Self.sum([0.1, 0.2, 0.3]) == 0.6)
    }

    @Test func infinitiesAndEmptySums() {
        #expect(Self.sum([]) == 0)
        #expect(Self.sum([1, .infinity, 2]) == .infinity)
        #expect(Self.sum([-.infinity, 5]) == -.infinity)
        #expect(Self.sum([.infinity, -.infinity]).isNaN)
        #expect(Self.sum([.greatestFiniteMagnitude, .greatestFiniteMagnitude]) == .infinity)
    }

    @Test func sqlAndMemoryAgreeInEveryRowOrder() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            SQLiteFunctions.register(on: db)
            try db.execute(sql: "CREATE TABLE t (x REAL)")
            for x in [1.0, 9007199254740992.0, 1.0, 0.5] {
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [x])
            }
        }
        let memory = try #require(try Aggregates.sum([1.0, 9007199254740992.0, 1.0, 0.5], operator: "@sum") as? Double)
        for order in ["x", "-x", "rowid DESC"] {
            let sql = try queue.read { db in
                try Double.fetchOne(db, sql: "SELECT OG_FSUM(x) FROM (SELECT x FROM t ORDER BY \(order))")
            }
            #expect(sql == memory, "ORDER BY \(order)")
        }
        #expect(memory == 9007199254740994.0)
    }
}
