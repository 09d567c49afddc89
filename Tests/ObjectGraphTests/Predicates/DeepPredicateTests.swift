import Foundation
import ObjectGraph
import Testing

// Predicates built through the API, not the parser, of any depth: printing, evaluating,
// substituting, comparing, fetching and releasing never overflow the stack. Up to
// Predicate.maximumDepth they work (on a 2 MB thread stack, a quarter of a Linux thread's
// default, in a debug build); beyond it they are refused with PredicateError.nestedTooDeeply
// (NSInvalidArgumentException from a SQLite fetch) and print a marked truncation. (Chains of AND inside AND, which
// are one level deep in meaning, are in LongChainTests.)

private typealias Predicate = ObjectGraph.Predicate
private typealias PredicateError = ObjectGraph.PredicateError
private typealias Expression = ObjectGraph.Expression

private let deep = 100_000
private let marker = "<nested deeper than \(Predicate.maximumDepth) levels: not printed>"

/// `salesRank >= 0`: two levels (the comparison and its expressions).
let deepLeaf = Predicate.comparison(
    ComparisonPredicate(.keyPath("salesRank"), .greaterThanOrEqualTo, .constant(.int(0))))

/// The shapes of deep trees, each `levels` deep as TreeDepth counts.
enum DeepShape: String, CaseIterable, CustomTestStringConvertible {
    case alternatingChain, notChain, functions, aggregates, subqueries

    var testDescription: String { rawValue }

    fileprivate func predicate(levels: Int) -> Predicate {
        switch self {
        case .alternatingChain:
            // deepLeaf AND (deepLeaf OR (deepLeaf AND ...)): an AND inside an OR is real
            // nesting, one level each.
            var p = deepLeaf
            for i in 0..<(levels - 2) { p = i % 2 == 0 ? .and([deepLeaf, p]) : .or([deepLeaf, p]) }
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

    /// Whether the depth lies in expressions: Expression is a plain indirect enum, which Swift
    /// releases recursively, so such a tree about 30,000 levels deep overflows the stack when it
    /// is dropped (compound predicates are released with a worklist, at any depth).
    var nestsExpressions: Bool { self == .functions || self == .aggregates || self == .subqueries }
}

/// Releases a tree that nests deep in expressions one node at a time, leaving `root`
/// TRUEPREDICATE, holding each node's children before the node is released. (Trees nested in
/// compound predicates need no help.)
private enum Dismantled {
    case p(Predicate)
    case e(Expression)
}

private func dismantle(_ root: inout Predicate) {
    let node = Dismantled.p(root)
    root = .truePredicate
    dismantle(node)
}

/// Dismantles the tree if its depth is in expressions; drops it as it is otherwise.
private func release(_ root: inout Predicate, _ shape: DeepShape) {
    if shape.nestsExpressions { dismantle(&root) } else { root = .truePredicate }
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

/// Releases nested Swift arrays one level at a time: Swift releases them recursively.
private func dismantle(_ array: inout [Any]) {
    var pending: [Any] = [array]
    array = []
    while let next = pending.popLast() {
        if let inner = next as? [Any] { pending += inner }
    }
}

/// What a thread's body returned or threw, handed back after the thread signalled.
final class Outcome<T>: @unchecked Sendable { var result: Result<T, Error>? }

/// Runs `body` on a thread with a 2 MB stack (a quarter of a Linux thread's default) and returns what it returned or
/// threw.
func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
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
    do {
        try body()
        return nil
    } catch let error as PredicateError { return error } catch { return nil }
}

@Suite("Deep predicates built through the API")
struct DeepPredicateTests {
    @Test(arguments: DeepShape.allCases)
    func depthIsMeasuredAsDocumented(_ shape: DeepShape) throws {
        let p = shape.predicate(levels: Predicate.maximumDepth)
        // At the limit: evaluates (or fails for its operands, never for its depth).
        let atLimit = predicateError { _ = try p.checkedEvaluate(with: ["salesRank": 1, "authors": [] as [Any]]) }
        #expect(atLimit?.code != .nestedTooDeeply)
        // One level more is refused.
        let over =
            shape == .subqueries
            ? shape.predicate(levels: Predicate.maximumDepth + 3) : shape.predicate(levels: Predicate.maximumDepth + 1)
        #expect(predicateError { _ = try over.checkedEvaluate(with: ["salesRank": 1]) }?.code == .nestedTooDeeply)
    }

    @Test(arguments: DeepShape.allCases)
    func aTreeAtTheLimitWorksOnA2MBStack(_ shape: DeepShape) throws {
        let (format, equal, evaluated) = try onSmallStack { () -> (String, Bool, Bool?) in
            let p = shape.predicate(levels: Predicate.maximumDepth)
            let q = shape.predicate(levels: Predicate.maximumDepth)
            let evaluated = try? p.checkedEvaluate(with: ["salesRank": 1, "authors": [] as [Any]])
            return (p.predicateFormat, p == q && p.hashValue == q.hashValue, evaluated)
        }
        #expect(!format.contains(marker))
        #expect(equal)
        if shape == .alternatingChain || shape == .notChain || shape == .functions { #expect(evaluated == true) }
    }

    // The translator recurses once per level and handles the limit on a 2 MB stack. SQLite's
    // own parser has a fixed stack of its own: it refuses SQL nested more than about 25
    // alternations of AND and OR (45 NOTs) deep with "parser stack overflow", a clear error
    // (134180), never a crash. (A chain of AND inside AND, however long, is flat SQL:
    // LongChainTests.)
    @Test(arguments: [DeepShape.alternatingChain, .notChain])
    func aTreeAtTheLimitIsTranslatedOnA2MBStack(_ shape: DeepShape) throws {
        let fixture = try StackFixture.threeRankedBooks(.sqlite)
        let context = fixture.context
        let (shallow, atLimit) = try onSmallStack { () -> (Int, Result<Int, Error>) in
            let request = FetchRequest(entityName: "Book")
            request.predicate = shape.predicate(levels: 20)
            let shallow = try context.count(for: request)
            request.predicate = shape.predicate(levels: Predicate.maximumDepth)
            return (shallow, Result { try context.fetch(request).count })
        }
        #expect(shallow == 3)
        switch atLimit {
        case .success(let count):
            #expect(count == 3)
        case .failure(let error):
            let coreDataError = try #require(error as? CoreDataError)
            #expect(coreDataError.code == .sqlite)
            #expect(coreDataError.message.contains("parser stack overflow"))
        }
    }

    @Test(arguments: DeepShape.allCases)
    func aDeepTreePrintsATruncation(_ shape: DeepShape) throws {
        var p = shape.predicate(levels: deep)
        defer { release(&p, shape) }
        let format = p.predicateFormat
        // The levels below the limit are replaced by the marker (once for each branch cut).
        #expect(format.contains(marker))
        #expect(format.utf8.count < 100 * Predicate.maximumDepth)
        #expect(p.description == format)
    }

    @Test(arguments: DeepShape.allCases)
    func aDeepTreeIsRefusedByEvaluationAndSubstitution(_ shape: DeepShape) throws {
        var p = shape.predicate(levels: deep)
        defer { release(&p, shape) }
        let error = try #require(predicateError { _ = try p.checkedEvaluate(with: ["salesRank": 1]) })
        #expect(error.code == .nestedTooDeeply)
        #expect(error.message.contains("\(Predicate.maximumDepth) levels"))
        #expect(error.message.contains("nests \(TreeDepthProbe.levels(shape, deep)) levels deep"))
        #expect(
            predicateError { _ = try p.checkedEvaluate(with: nil, substitutionVariables: [:]) }?.code
                == .nestedTooDeeply)
        #expect(predicateError { _ = try p.checkedWithSubstitutionVariables(["x": 1]) }?.code == .nestedTooDeeply)
    }

    @Test(arguments: DeepShape.allCases)
    func deepTreesCompareAndHash(_ shape: DeepShape) throws {
        var p = shape.predicate(levels: deep)
        var q = shape.predicate(levels: deep)
        var shorter = shape.predicate(levels: deep - 3)
        defer {
            release(&p, shape)
            release(&q, shape)
            release(&shorter, shape)
        }
        #expect(p == q)
        #expect(p.hashValue == q.hashValue)
        #expect(p != shorter)
        #expect(Set([p, q]).count == 1)
    }

    // Dropping the last copy of a compound tree frees it with a worklist; on a 2 MB stack, a
    // recursive release would overflow about 10,000 levels down.
    @Test(arguments: [DeepShape.alternatingChain, .notChain])
    func aDeepCompoundTreeIsReleasedOnA2MBStack(_ shape: DeepShape) throws {
        let refused = try onSmallStack { () -> PredicateError.Code? in
            var p = shape.predicate(levels: 10 * deep)
            let code = predicateError { _ = try p.checkedEvaluate(with: ["salesRank": 1]) }?.code
            p = .truePredicate
            return code
        }
        #expect(refused == .nestedTooDeeply)
    }

    // A subtree that two trees share is freed with the second: releasing the first must leave
    // it whole.
    @Test func aSharedSubtreeOutlivesTheTreeReleasedFirst() throws {
        let shared = DeepShape.notChain.predicate(levels: deep)
        let (first, second) = try onSmallStack { () -> (Bool, String) in
            let a = Predicate.and([deepLeaf, .or([deepLeaf, shared])])
            let b = Predicate.or([shared, .not(deepLeaf)])
            let before = TreeDepthShape(b)
            _ = consume a
            let after = TreeDepthShape(b)
            return (before == after, String(b.predicateFormat.prefix(40)))
        }
        #expect(first)
        #expect(second == "(" + String(repeating: "NOT (", count: 7) + "NOT ")
        // And again, in the other order, with the shared tree dropped last.
        var c = Predicate.and([shared, deepLeaf])
        #expect(predicateError { _ = try c.checkedEvaluate(with: ["salesRank": 1]) }?.code == .nestedTooDeeply)
        c = .truePredicate
        #expect(shared == DeepShape.notChain.predicate(levels: deep))
    }

    @Test func aDeepExpressionIsRefusedByExpressionValue() throws {
        var e = Expression.constant(.int(1))
        for _ in 0..<deep { e = .function("abs:", [e]) }
        defer { dismantle(&e) }
        #expect(predicateError { _ = try e.expressionValue(with: nil) }?.code == .nestedTooDeeply)
        let printed = e.description
        #expect(
            printed == String(repeating: "abs:(", count: Predicate.maximumDepth) + marker
                + String(repeating: ")", count: Predicate.maximumDepth))
    }

    @Test(arguments: [StoreType.sqlite, .postgres, .inMemory, .xml])
    func aDeepTreeIsRefusedByFetchAndCount(_ type: StoreType) throws {
        guard let fixture = try StackFixture.ifAvailable(type) else { return }
        try fixture.seedBooks(["A", "B", "C"])
        for shape in [DeepShape.alternatingChain, .notChain, .functions] {
            let request = FetchRequest(entityName: "Book")
            request.predicate = shape.predicate(levels: deep)
            defer {
                if var p = request.predicate {
                    request.predicate = nil
                    release(&p, shape)
                }
            }
            for attempt in [
                { _ = try fixture.context.fetch(request) }, { _ = try fixture.context.count(for: request) },
            ] {
                do {
                    try attempt()
                    Issue.record("a predicate \(deep) levels deep was accepted")
                } catch let error as CoreDataError {
                    // The SQL stores refuse it as a predicate they cannot translate, as any other.
                    #expect(type == .sqlite || type == .postgres)
                    #expect(error.exceptionName == .invalidArgument)
                    #expect(error.message.contains("more than the \(Predicate.maximumDepth) levels"))
                } catch let error as PredicateError {
                    // Evaluated in memory: the evaluation's error.
                    #expect(type != .sqlite && type != .postgres)
                    #expect(error.code == .nestedTooDeeply)
                }
            }
        }
    }

    @Test func nestedArgumentArraysAreRefusedBeforeConversion() throws {
        var nested: [Any] = [1]
        for _ in 0..<deep { nested = [nested] }
        defer { dismantle(&nested) }
        let parsed = predicateError { _ = try Predicate(checkedFormat: "salesRank IN %@", nested) }
        #expect(parsed?.code == .nestedTooDeeply)
        #expect(parsed?.message.contains("argument 1 nests collections \(deep + 2) levels deep") == true)
        #expect(
            predicateError { _ = try Predicate(checkedFormat: "salesRank IN %@", argumentArray: [nested]) }?.code
                == .nestedTooDeeply)
        #expect(predicateError { _ = try Expression(checkedFormat: "%@", nested) }?.code == .nestedTooDeeply)
        #expect(predicateError { _ = try Expression.constant(value: nested) }?.code == .nestedTooDeeply)
        let withVariable = try Predicate(checkedFormat: "salesRank IN $ranks")
        let substituted = predicateError { _ = try withVariable.checkedWithSubstitutionVariables(["ranks": nested]) }
        #expect(substituted?.code == .nestedTooDeeply)
        #expect(substituted?.message.contains("$ranks") == true)
        // Dictionaries and sets count too.
        var dictionary: [String: Any] = ["k": 1]
        for _ in 0..<200 { dictionary = ["k": dictionary] }
        #expect(
            predicateError { _ = try Predicate(checkedFormat: "salesRank IN %@", dictionary) }?.code == .nestedTooDeeply
        )
    }

    @Test func shallowArgumentsStillWork() throws {
        let p = try Predicate(checkedFormat: "salesRank IN %@", [[1, 2], [3]] as [Any])
        #expect(p.predicateFormat == "salesRank IN {{1, 2}, {3}}")
        let flat = try Predicate(checkedFormat: "salesRank IN %@", Array(0..<100_000))
        #expect(try flat.checkedEvaluate(with: ["salesRank": 99_999]))
        let substituted = try Predicate(checkedFormat: "salesRank IN $r").checkedWithSubstitutionVariables([
            "r": [1, 2]
        ])
        #expect(substituted.predicateFormat == "salesRank IN {1, 2}")
    }
}

/// A tree's depth (as the error for it reports) and hash, to see that it is unchanged.
private struct TreeDepthShape: Equatable {
    let error: String?
    let hash: Int
    init(_ p: Predicate) {
        error = predicateError { _ = try p.checkedEvaluate(with: ["salesRank": 1]) }?.message
        hash = p.hashValue
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
