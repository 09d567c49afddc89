import Foundation
import ObjectGraph
import Testing

// Predicates built through the API, not the parser, of any depth: printing, evaluating,
// substituting, comparing and fetching never overflow the stack. Up to Predicate.maximumDepth
// they work (on a 2 MB thread stack, a quarter of a Linux thread's default, in a debug build);
// beyond it they are refused with PredicateError.nestedTooDeeply (134020 from a
// SQLite fetch) and print a marked truncation.

private typealias Predicate = ObjectGraph.Predicate
private typealias PredicateError = ObjectGraph.PredicateError
private typealias Expression = ObjectGraph.Expression

private let deep = 100_000
private let marker = "<nested deeper than \(Predicate.maximumDepth) levels: not printed>"

/// `salesRank >= 0`: two levels (the comparison and its expressions).
let deepLeaf = Predicate.comparison(ComparisonPredicate(.keyPath("salesRank"), .greaterThanOrEqualTo, .constant(.int(0))))

/// The shapes of deep trees, each `levels` deep as TreeDepth counts.
enum DeepShape: String, CaseIterable, CustomTestStringConvertible {
    case andChain, notChain, functions, aggregates, subqueries

    var testDescription: String { rawValue }

    fileprivate func predicate(levels: Int) -> Predicate {
        switch self {
        case .andChain:
            var p = deepLeaf
            for _ in 0..<(levels - 2) { p = .and([deepLeaf, p]) }
            return p
        case .notChain:
            // An even number of NOTs keeps the deepLeaf's truth.
            var p = Predicate.not(.not(deepLeaf))
            for _ in 0..<(levels - 4) { p = .not(p) }
            return levels % 2 == 0 ? p : .not(.not(p))
        case .functions:
            // ((salesRank + 1) + 1) ... >= 0
            var e = Expression.keyPath("salesRank")
            for _ in 0..<(levels - 2) { e = e + .constant(.int(1)) }
            return .comparison(ComparisonPredicate(e, .greaterThanOrEqualTo, .constant(.int(0))))
        case .aggregates:
            // salesRank IN {{{...{salesRank}...}}}
            var e = Expression.keyPath("salesRank")
            for _ in 0..<(levels - 2) { e = .aggregate([e]) }
            return .comparison(ComparisonPredicate(.keyPath("salesRank"), .in, e))
        case .subqueries:
            // SUBQUERY(authors, $a, SUBQUERY(authors, $a, ...).@count >= 0).@count >= 0
            var p = deepLeaf
            var levelsLeft = levels - 2
            while levelsLeft >= 3 {
                let s = Expression.subquery(collection: .keyPath("authors"), variable: "a", predicate: p)
                p = .comparison(ComparisonPredicate(.member(s, "@count"), .greaterThanOrEqualTo, .constant(.int(0))))
                levelsLeft -= 3
            }
            return p
        }
    }
}

/// Releases a deep tree one node at a time, leaving `root` a deepLeaf. Swift releases an enum's
/// payload recursively, so dropping a predicate 100,000 levels deep in one go overflows the
/// stack in the runtime's release, whatever this library does; a test that builds one takes
/// it apart itself, holding each node's children before the node is released.
private enum Dismantled { case p(Predicate), e(Expression) }

private func dismantle(_ root: inout Predicate) {
    let node = Dismantled.p(root)
    root = .truePredicate
    dismantle(node)
}

private func dismantle(_ root: inout Expression) {
    let node = Dismantled.e(root)
    root = .evaluatedObject
    dismantle(node)
}

private func dismantle(_ root: consuming Dismantled) {
    var pending: [Dismantled] = [root]
    while let node = pending.popLast() {
        switch node {
        case .p(.compound(let c)): pending += c.subpredicates.map { .p($0) }
        case .p(.comparison(let c)): pending += [.e(c.leftExpression), .e(c.rightExpression)]
        case .p: break
        case .e(.function(_, let a)), .e(.aggregate(let a)): pending += a.map { .e($0) }
        case .e(.member(let base, _)): pending.append(.e(base))
        case .e(.subquery(let collection, _, let p)): pending += [.e(collection), .p(p)]
        case .e: break
        }
    }
}

/// Releases nested Swift arrays one level at a time, for the same reason.
private func dismantle(_ array: inout [Any]) {
    var pending: [Any] = [array]
    array = []
    while let next = pending.popLast() {
        if let inner = next as? [Any] { pending += inner }
    }
}

/// What a thread's body returned or threw, handed back after the thread signalled.
private final class Outcome<T>: @unchecked Sendable { var result: Result<T, Error>? }

/// Runs `body` on a thread with a 2 MB stack (a quarter of a Linux thread's default) and returns what it returned or threw.
private func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
    let outcome = Outcome<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        outcome.result = Result(catching: body)
        done.signal()
    }
    thread.stackSize = 2 * 1024 * 1024
    thread.start()
    done.wait()
    return try outcome.result!.get()
}

private func predicateError(_ body: () throws -> Void) -> PredicateError? {
    do { try body(); return nil } catch let error as PredicateError { return error } catch { return nil }
}

/// A store with three books ranked 1, 2 and 3.
private func bookStore(_ type: StoreType) throws -> StackFixture {
    let fixture = try StackFixture(type)
    try fixture.seedBooks(["A", "B", "C"])
    return fixture
}

@Suite("Deep predicates built through the API")
struct DeepPredicateTests {
    @Test(arguments: DeepShape.allCases)
    func depthIsMeasuredAsDocumented(_ shape: DeepShape) throws {
        let p = shape.predicate(levels: Predicate.maximumDepth)
        // At the limit: evaluates (or fails for its operands, never for its depth).
        let atLimit = predicateError { _ = try p.evaluate(with: ["salesRank": 1, "authors": [] as [Any]]) }
        #expect(atLimit?.code != .nestedTooDeeply)
        // One level more is refused.
        let over = shape == .subqueries ? shape.predicate(levels: Predicate.maximumDepth + 3) : shape.predicate(levels: Predicate.maximumDepth + 1)
        #expect(predicateError { _ = try over.evaluate(with: ["salesRank": 1]) }?.code == .nestedTooDeeply)
    }

    @Test(arguments: DeepShape.allCases)
    func aTreeAtTheLimitWorksOnA2MBStack(_ shape: DeepShape) throws {
        let (format, equal, evaluated) = try onSmallStack { () -> (String, Bool, Bool?) in
            let p = shape.predicate(levels: Predicate.maximumDepth)
            let q = shape.predicate(levels: Predicate.maximumDepth)
            let evaluated = try? p.evaluate(with: ["salesRank": 1, "authors": [] as [Any]])
            return (p.predicateFormat, p == q && p.hashValue == q.hashValue, evaluated)
        }
        #expect(!format.contains(marker))
        #expect(equal)
        if shape == .andChain || shape == .notChain || shape == .functions { #expect(evaluated == true) }
    }

    // An AND chain is what folding predicates one at a time builds. (A NOT chain that deep
    // passes the translator but not SQLite's own parser, which reports "parser stack
    // overflow": an error, 134180.)
    @Test(arguments: [DeepShape.andChain])
    func aTreeAtTheLimitFetchesFromSQLiteOnA2MBStack(_ shape: DeepShape) throws {
        let fixture = try bookStore(.sqlite)
        let context = fixture.context
        let (fetched, counted) = try onSmallStack { () -> (Int, Int) in
            let request = FetchRequest(entityName: "Book")
            request.predicate = shape.predicate(levels: Predicate.maximumDepth)
            return (try context.fetch(request).count, try context.count(for: request))
        }
        #expect(fetched == 3)
        #expect(counted == 3)
    }

    @Test(arguments: DeepShape.allCases)
    func aDeepTreePrintsATruncation(_ shape: DeepShape) throws {
        var p = shape.predicate(levels: deep)
        defer { dismantle(&p) }
        let format = p.predicateFormat
        // The levels below the limit are replaced by the marker (once for each branch cut).
        #expect(format.contains(marker))
        #expect(format.utf8.count < 100 * Predicate.maximumDepth)
        #expect(p.description == format)
    }

    @Test(arguments: DeepShape.allCases)
    func aDeepTreeIsRefusedByEvaluationAndSubstitution(_ shape: DeepShape) throws {
        var p = shape.predicate(levels: deep)
        defer { dismantle(&p) }
        let error = try #require(predicateError { _ = try p.evaluate(with: ["salesRank": 1]) })
        #expect(error.code == .nestedTooDeeply)
        #expect(error.message.contains("\(Predicate.maximumDepth) levels"))
        #expect(error.message.contains("nests \(TreeDepthProbe.levels(shape, deep)) levels deep"))
        #expect(predicateError { _ = try p.evaluate(with: nil, substitutionVariables: [:]) }?.code == .nestedTooDeeply)
        #expect(predicateError { _ = try p.withSubstitutionVariables(["x": 1]) }?.code == .nestedTooDeeply)
    }

    @Test(arguments: DeepShape.allCases)
    func deepTreesCompareAndHash(_ shape: DeepShape) throws {
        var p = shape.predicate(levels: deep), q = shape.predicate(levels: deep)
        var shorter = shape.predicate(levels: deep - 3)
        defer { dismantle(&p); dismantle(&q); dismantle(&shorter) }
        #expect(p == q)
        #expect(p.hashValue == q.hashValue)
        #expect(p != shorter)
        #expect(Set([p, q]).count == 1)
    }

    @Test func aDeepExpressionIsRefusedByExpressionValue() throws {
        var e = Expression.constant(.int(1))
        for _ in 0..<deep { e = .function("abs:", [e]) }
        defer { dismantle(&e) }
        #expect(predicateError { _ = try e.expressionValue(with: nil) }?.code == .nestedTooDeeply)
        let printed = e.description
        #expect(printed == String(repeating: "abs:(", count: Predicate.maximumDepth) + marker + String(repeating: ")", count: Predicate.maximumDepth))
    }

    @Test(arguments: [StoreType.sqlite, .inMemory, .xml])
    func aDeepTreeIsRefusedByFetchAndCount(_ type: StoreType) throws {
        let fixture = try bookStore(type)
        for shape in [DeepShape.andChain, .notChain, .functions] {
            let request = FetchRequest(entityName: "Book")
            request.predicate = shape.predicate(levels: deep)
            defer { if var p = request.predicate { request.predicate = nil; dismantle(&p) } }
            for attempt in [{ _ = try fixture.context.fetch(request) }, { _ = try fixture.context.count(for: request) }] {
                do {
                    try attempt()
                    Issue.record("a predicate \(deep) levels deep was accepted")
                } catch let error as CoreDataError {
                    // SQLite refuses it as a predicate it cannot translate, as for any other.
                    #expect(type == .sqlite)
                    #expect(error.code == .unsupportedOperation)
                    #expect(error.message.contains("more than the \(Predicate.maximumDepth) levels"))
                } catch let error as PredicateError {
                    // Evaluated in memory: the evaluation's error.
                    #expect(type != .sqlite)
                    #expect(error.code == .nestedTooDeeply)
                }
            }
        }
    }

    @Test func nestedArgumentArraysAreRefusedBeforeConversion() throws {
        var nested: [Any] = [1]
        for _ in 0..<deep { nested = [nested] }
        defer { dismantle(&nested) }
        let parsed = predicateError { _ = try Predicate(format: "salesRank IN %@", nested) }
        #expect(parsed?.code == .nestedTooDeeply)
        #expect(parsed?.message.contains("argument 1 nests collections \(deep + 2) levels deep") == true)
        #expect(predicateError { _ = try Predicate(format: "salesRank IN %@", argumentArray: [nested]) }?.code == .nestedTooDeeply)
        #expect(predicateError { _ = try Expression(format: "%@", nested) }?.code == .nestedTooDeeply)
        #expect(predicateError { _ = try Expression.constant(value: nested) }?.code == .nestedTooDeeply)
        let withVariable = try Predicate(format: "salesRank IN $ranks")
        let substituted = predicateError { _ = try withVariable.withSubstitutionVariables(["ranks": nested]) }
        #expect(substituted?.code == .nestedTooDeeply)
        #expect(substituted?.message.contains("$ranks") == true)
        // Dictionaries and sets count too.
        var dictionary: [String: Any] = ["k": 1]
        for _ in 0..<200 { dictionary = ["k": dictionary] }
        #expect(predicateError { _ = try Predicate(format: "salesRank IN %@", dictionary) }?.code == .nestedTooDeeply)
    }

    @Test func shallowArgumentsStillWork() throws {
        let p = try Predicate(format: "salesRank IN %@", [[1, 2], [3]] as [Any])
        #expect(p.predicateFormat == "salesRank IN {{1, 2}, {3}}")
        let flat = try Predicate(format: "salesRank IN %@", Array(0..<100_000))
        #expect(try flat.evaluate(with: ["salesRank": 99_999]))
        let substituted = try Predicate(format: "salesRank IN $r").withSubstitutionVariables(["r": [1, 2]])
        #expect(substituted.predicateFormat == "salesRank IN {1, 2}")
    }
}

/// How many levels TreeDepth counts for a shape built `levels` deep (the subquery shape grows
/// three levels at a time).
private enum TreeDepthProbe {
    static func levels(_ shape: DeepShape, _ levels: Int) -> Int {
        guard shape == .subqueries else { return levels }
        return 2 + (levels - 2) / 3 * 3
    }
}
