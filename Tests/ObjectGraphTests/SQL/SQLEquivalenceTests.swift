import Foundation
import GRDB
import Testing

@testable import ObjectGraph

/// Generated equivalence: random predicates and sort descriptors run through SQL and through
/// the in-memory evaluator over the same rows must select (and order) the same objects.
///
/// Apple, "Predicate Programming Guide" (Using Predicates; String Comparisons; Using Null
/// Values; Aggregate Operations) and "Core Data Programming Guide" (Fetching Managed
/// Objects): a predicate means the same whether a store evaluates it in SQL or Foundation
/// evaluates it in memory; the SQL store only refuses what it cannot express.
@Suite struct SQLEquivalenceTests {
    /// How the two sides came out over a run.
    struct Tally: CustomStringConvertible {
        var agreed = 0
        var bothThrew = 0
        /// The translator (or SQLite) refused operands the evaluator never reached.
        var sqlStricter = 0
        var nonEmpty = 0
        /// Predicates not compared, by reason (PostgreSQL's known differences).
        var excluded: [String: Int] = [:]
        var total: Int { agreed + bothThrew + sqlStricter + excluded.values.reduce(0, +) }
        var description: String {
            "agreed \(agreed) (\(nonEmpty) with matches), both threw \(bothThrew), SQL stricter \(sqlStricter)"
                + (excluded.isEmpty
                    ? ""
                    : ", excluded "
                        + excluded.sorted { $0.key < $1.key }.map { "\($0.value) (\($0.key))" }.joined(separator: ", "))
        }
    }

    static func check(fixture: SQLFixture, entity: String, seed: UInt64, count: Int, compound: Bool = true) -> Tally {
        var generator = PredicateGenerator(seed: seed, entity: entity)
        var tally = Tally()
        for _ in 0..<count {
            let predicate = compound ? generator.predicate() : generator.comparison()
            if fixture.dialect == .postgres, let reason = postgresExclusion(predicate) {
                tally.excluded[reason, default: 0] += 1
                continue
            }
            let memory = Result { try fixture.memoryMatches(predicate, entity: entity) }
            let sql = Result { try fixture.sqlMatches(predicate, entity: entity) }
            switch (memory, sql) {
            case (.success(let expected), .success(let got)):
                #expect(
                    got.keys == expected,
                    "\(entity): \(predicate.predicateFormat)\nSQL: \(got.joins) \(got.sql.sql) \(got.sql.arguments)")
                // Values are bound, never spliced into the SQL.
                #expect(!got.sql.sql.contains("'"), "\(got.sql.sql)")
                tally.agreed += 1
                if !expected.isEmpty { tally.nonEmpty += 1 }
            case (.failure(let error), .success(let got)):
                Issue.record(
                    "\(entity): the evaluator threw \(error) but SQL answered \(got.keys) for \(predicate.predicateFormat)\nSQL: \(got.sql.sql)"
                )
            case (.failure, .failure):
                tally.bothThrew += 1
            case (.success, .failure(let error)):
                // Refusing a shape the generator makes is a bug; refusing operands that the
                // evaluator would reject too, had it reached them, is allowed.
                if let coreDataError = error as? CoreDataError {
                    Issue.record("\(entity): SQL refused \(predicate.predicateFormat): \(coreDataError.message)")
                } else if !Self.leaves(of: predicate).contains(where: { leaf in
                    (try? fixture.memoryMatches(leaf, entity: entity)) == nil
                }) {
                    // Only short-circuiting may keep the evaluator from an error: one of the
                    // comparisons must fail in memory on its own.
                    Issue.record(
                        "\(entity): SQL threw \(error) for \(predicate.predicateFormat), which no comparison in it explains"
                    )
                }
                tally.sqlStricter += 1
                if ProcessInfo.processInfo.environment["SQL_EQ_VERBOSE"] != nil {
                    print("STRICTER \(predicate.predicateFormat) :: \(error)")
                }
            }
        }
        return tally
    }

    /// Why PostgreSQL may answer a predicate differently, or nil: what the store cannot do
    /// exactly as the evaluator does (PostgresFunctions), never a bug let through.
    static func postgresExclusion(_ predicate: ObjectGraph.Predicate) -> String? {
        let format = predicate.predicateFormat
        // ICU's \w and character classes take combining marks (a decomposed "á" is a word),
        // PostgreSQL's regular expressions do not.
        if format.contains("MATCHES"), format.contains("\\w") || format.contains("[:") {
            return "MATCHES with \\w or a class"
        }
        // A pattern read from a column is data written for ICU's syntax, which PostgreSQL's
        // regular expressions read otherwise where the two differ.
        if containsComparison(predicate, where: { $0.operatorType == .matches && !Self.isConstant($0.rightExpression) })
        {
            return "MATCHES with a pattern from a column"
        }
        return nil
    }

    /// Whether the predicate has a comparison (at any depth, SUBQUERY bodies included) for which `test` holds.
    static func containsComparison(_ predicate: ObjectGraph.Predicate, where test: (ComparisonPredicate) -> Bool)
        -> Bool
    {
        switch predicate {
        case .compound(let c): return c.subpredicates.contains { containsComparison($0, where: test) }
        case .comparison(let c):
            if test(c) { return true }
            for expression in [c.leftExpression, c.rightExpression] {
                if case .member(.subquery(_, _, let body), _) = expression, containsComparison(body, where: test) {
                    return true
                }
            }
            return false
        default: return false
        }
    }

    static func isConstant(_ expression: ObjectGraph.Expression) -> Bool {
        if case .constant = expression { return true }
        return false
    }

    /// The comparisons of a compound predicate, and for a SUBQUERY count each comparison of
    /// its predicate in a SUBQUERY of its own; ANY and ALL both ways.
    static func leaves(of predicate: ObjectGraph.Predicate) -> [ObjectGraph.Predicate] {
        switch predicate {
        case .compound(let c):
            return c.subpredicates.flatMap(leaves)
        case .comparison(let c) where c.modifier != .direct:
            // ANY stops at the first match and ALL at the first miss: try both.
            var other = c
            other.modifier = c.modifier == .any ? .all : .any
            return [predicate, .comparison(other)]
        case .comparison(var c):
            guard case .member(.subquery(let collection, let variable, let body), let key) = c.leftExpression else {
                return [predicate]
            }
            return [predicate]
                + leaves(of: body).map { inner in
                    c.leftExpression = .member(
                        .subquery(collection: collection, variable: variable, predicate: inner), key)
                    return .comparison(c)
                }
        default:
            return [predicate]
        }
    }

    // Apple, Predicate Programming Guide ("Using Predicates", "String Comparisons", "Using
    // Null Values", "Aggregate Operations"; NSCompoundPredicate reference for AND/OR/NOT):
    // compound predicates of up to three levels mean the same in SQL and in memory. SQL may
    // refuse operands the evaluator only skipped by short-circuiting.
    @Test(
        arguments: StoreKind.allCases,
        [
            ("Book", UInt64(11), 2000), ("Novel", UInt64(12), 400), ("Publisher", UInt64(13), 700),
            ("Author", UInt64(14), 700),
        ])
    func generatedPredicatesAgreeWithTheEvaluator(kind: StoreKind, run: (entity: String, seed: UInt64, count: Int))
        throws
    {
        let (entity, seed) = (run.entity, run.seed)
        // OBJECTGRAPH_LONG=1 (README, "For contributors"): 10,000 predicates per entity.
        let count = StoreEquivalenceTests.predicateCount > 1_000 ? 10_000 : run.count
        guard let fixture = try SQLFixture.make(kind, seed: seed &* 7) else { return }
        let tally = Self.check(fixture: fixture, entity: entity, seed: seed, count: count)
        print("SQL equivalence, \(kind), \(entity), \(count) predicates: \(tally)")
        #expect(tally.total == count)
        // Most predicates are answered, and many select something.
        #expect(tally.agreed > count * 3 / 4)
        #expect(tally.nonEmpty > count / 4)
        #expect(tally.sqlStricter < count / 10)
    }

    // The same documents, comparison by comparison: without short-circuiting, SQL refuses
    // exactly what the evaluator refuses (reference/predicates.md 2.3-2.13).
    @Test(
        arguments: StoreKind.allCases,
        [("Book", UInt64(21)), ("Novel", UInt64(22)), ("Publisher", UInt64(23)), ("Author", UInt64(24))])
    func generatedComparisonsAgreeWithTheEvaluator(kind: StoreKind, run: (entity: String, seed: UInt64)) throws {
        let (entity, seed) = (run.entity, run.seed)
        guard let fixture = try SQLFixture.make(kind, seed: seed &* 7) else { return }
        let tally = Self.check(fixture: fixture, entity: entity, seed: seed, count: 500, compound: false)
        print("SQL equivalence, single comparisons, \(kind), \(entity): \(tally)")
        #expect(tally.sqlStricter == 0)
    }

    // Apple, NSSortDescriptor reference and Core Data Programming Guide, "Persistent Store
    // Types and Behaviors" (the SQLite store's sort selectors): ORDER BY gives
    // SortDescriptor.sort's order, nil first ascending, ties kept in key order.
    @Test(arguments: StoreKind.allCases)
    func generatedSortsAgreeWithSortDescriptor(kind: StoreKind) throws {
        guard let fixture = try SQLFixture.make(kind, seed: 99) else { return }
        let stringKeys = Set(
            fixture.model.entities.flatMap(\.attributes).filter { $0.attributeType == .string }.map(\.name))
        // PostgreSQL orders the localized comparators on strings with ICU's root collation,
        // close to Foundation's compare(_:options:range:locale:) but not the same: those
        // sorts are compared and their differences counted, not failed.
        var localized = (compared: 0, differed: 0)
        defer {
            if kind == .postgres {
                print(
                    "SQL equivalence, sorts, postgres: a localized comparator on a string in \(localized.compared) of 450, differing in \(localized.differed)"
                )
            }
        }
        for entity in ["Book", "Publisher", "Author"] {
            var generator = PredicateGenerator(seed: 5, entity: entity)
            let objects = fixture.objects[entity]!
            for _ in 0..<150 {
                let descriptors = generator.sortDescriptors()
                let expected = try ObjectGraph.SortDescriptor.sort(objects, by: descriptors).map(\.id.primaryKey)
                let got = try fixture.sqlOrder(descriptors, entity: entity)
                // Numbers and dates ignore the comparator.
                if kind == .postgres,
                    descriptors.contains(where: {
                        ![.compare, .caseInsensitiveCompare].contains($0.comparator)
                            && stringKeys.contains(String($0.key.split(separator: ".").last ?? ""))
                    })
                {
                    localized.compared += 1
                    if got != expected { localized.differed += 1 }
                    continue
                }
                #expect(got == expected, "\(entity): \(descriptors)")
            }
        }
    }
    // Apple, NSCompoundPredicate reference: an OR of many subpredicates, the shape a predicate
    // folded one term at a time takes. SQLite refuses an expression more than 1,000 deep, so
    // the translator flattens nested ORs and groups them; the answer is the evaluator's.
    @Test(arguments: StoreKind.allCases, [10, 2_000])
    func longChainsOfOrAgreeWithTheEvaluator(kind: StoreKind, terms: Int) throws {
        guard let fixture = try SQLFixture.make(kind, seed: 31) else { return }
        var chain = try ObjectGraph.Predicate(checkedFormat: "salesRank == %@", -100)
        for i in 0..<terms {
            let term = try ObjectGraph.Predicate(checkedFormat: "salesRank == %@ AND title != nil", i % 7 - 2)
            chain = ObjectGraph.Predicate.or([chain, term])
        }
        let sql = try fixture.sqlMatches(chain, entity: "Book")
        #expect(sql.keys == (try fixture.memoryMatches(chain, entity: "Book")))
        #expect(!sql.keys.isEmpty)
    }
}
