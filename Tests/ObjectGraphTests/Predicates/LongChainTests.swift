import Foundation
import ObjectGraph
import Testing

// Chains of AND inside AND (OR inside OR), as folding predicates one at a time in a loop builds
// them: one level deep in meaning however long, so they evaluate, print, substitute, compare
// and fetch at 100,000 terms, left-deep and right-deep, without recursion per link (each test
// runs on a 2 MB stack, where recursing per link would overflow long before).

private typealias Predicate = ObjectGraph.Predicate
private typealias Expression = ObjectGraph.Expression

private let length = 100_000

/// How the chain is folded.
enum ChainShape: String, CaseIterable, CustomTestStringConvertible {
    /// `((t1 AND t2) AND t3) AND t4`: `p = .and([p, term])`.
    case leftDeep
    /// `t1 AND (t2 AND (t3 AND t4))`: `p = .and([term, p])`.
    case rightDeep

    var testDescription: String { rawValue }
}

/// One chain under test: its type, its shape, its terms and what it must select among the books
/// ranked 1, 2 and 3.
private struct Chain: Sendable {
    let type: CompoundPredicate.LogicalType
    let shape: ChainShape

    static let cases: [(CompoundPredicate.LogicalType, ChainShape)] = [
        (.and, .leftDeep), (.and, .rightDeep), (.or, .leftDeep), (.or, .rightDeep),
    ]

    /// The term in the middle that decides: `salesRank >= <rank>` in an AND (the other terms
    /// hold for every book), `salesRank == <rank>` in an OR (the others hold for none).
    func decidingTerm(_ rank: Expression) -> Predicate {
        .comparison(ComparisonPredicate(.keyPath("salesRank"), type == .and ? .greaterThanOrEqualTo : .equalTo, rank))
    }

    /// Every tenth term binds a number in SQL (`salesRank != 1010`); the others compare with
    /// nil (`title != nil`), so the SQL stays within any SQLite's limit of 32,766 parameters.
    func term(_ i: Int, rank: Expression) -> Predicate {
        if i == length / 2 { return decidingTerm(rank) }
        let op: ComparisonPredicate.Operator = type == .and ? .notEqualTo : .equalTo
        if i % 10 == 0 { return .comparison(ComparisonPredicate(.keyPath("salesRank"), op, .constant(.int(1000 + i)))) }
        return .comparison(ComparisonPredicate(.keyPath("title"), op, .constant(.null)))
    }

    /// The term as `predicateFormat` prints it.
    func termText(_ i: Int) -> String {
        let op = type == .and ? "!=" : "=="
        if i == length / 2 { return type == .and ? "salesRank >= 2" : "salesRank == 2" }
        return i % 10 == 0 ? "salesRank \(op) \(1000 + i)" : "title \(op) nil"
    }

    /// The chain folded one term at a time, with the deciding term comparing with `rank`.
    func predicate(rank: Expression = .constant(.int(2))) -> Predicate {
        let type = self.type
        func link(_ pair: [Predicate]) -> Predicate { type == .and ? .and(pair) : .or(pair) }
        switch shape {
        case .leftDeep:
            var p = term(0, rank: rank)
            for i in 1..<length { p = link([p, term(i, rank: rank)]) }
            return p
        case .rightDeep:
            var p = term(length - 1, rank: rank)
            for i in (0..<(length - 1)).reversed() { p = link([term(i, rank: rank), p]) }
            return p
        }
    }

    /// What Apple's `predicateFormat` prints: each inner compound in parentheses.
    var expectedFormat: String {
        let symbol = " \(type.symbol) "
        var s = ""
        switch shape {
        case .leftDeep:
            s += String(repeating: "(", count: length - 2) + termText(0)
            for i in 1..<length { s += (i > 1 ? ")" : "") + symbol + termText(i) }
        case .rightDeep:
            for i in 0..<(length - 1) { s += termText(i) + symbol + (i < length - 2 ? "(" : "") }
            s += termText(length - 1) + String(repeating: ")", count: length - 2)
        }
        return s
    }

    /// The ranks of the books the chain selects.
    var expectedRanks: [Int] { type == .and ? [2, 3] : [2] }
}

private func chainCases() -> [(CompoundPredicate.LogicalType, ChainShape)] { Chain.cases }

@Suite("Long AND and OR chains")
struct LongChainTests {
    @Test(arguments: chainCases())
    func aLongChainIsOneLevelAndEvaluatesDictionaries(_ type: CompoundPredicate.LogicalType, _ shape: ChainShape) throws
    {
        let chain = Chain(type: type, shape: shape)
        let selected = try onSmallStack { () -> [Int] in
            let p = chain.predicate()
            return try (1...3).filter { try p.checkedEvaluate(with: ["salesRank": $0, "title": "T\($0)"]) }
        }
        #expect(selected == chain.expectedRanks)
    }

    @Test(arguments: chainCases())
    func aLongChainEvaluatesManagedObjects(_ type: CompoundPredicate.LogicalType, _ shape: ChainShape) throws {
        let fixture = try StackFixture.threeRankedBooks(.inMemory)
        let context = fixture.context
        let chain = Chain(type: type, shape: shape)
        let selected = try onSmallStack { () -> [Int] in
            let books = try context.fetch(FetchRequest(entityName: "Book"))
            let p = chain.predicate()
            return try books.filter { try p.checkedEvaluate(with: $0) }.compactMap {
                try $0.checkedValue(forKey: "salesRank") as? Int
            }.sorted()
        }
        #expect(selected == chain.expectedRanks)
    }

    @Test(arguments: chainCases())
    func aLongChainPrintsAsApplePrintsIt(_ type: CompoundPredicate.LogicalType, _ shape: ChainShape) throws {
        let chain = Chain(type: type, shape: shape)
        let printed = try onSmallStack { chain.predicate().predicateFormat }
        #expect(printed == chain.expectedFormat)
    }

    @Test(arguments: chainCases())
    func aLongChainSubstitutesKeepingItsShape(_ type: CompoundPredicate.LogicalType, _ shape: ChainShape) throws {
        let chain = Chain(type: type, shape: shape)
        let (same, selected) = try onSmallStack { () -> (Bool, [Int]) in
            let withVariable = chain.predicate(rank: .variable("rank"))
            let substituted = try withVariable.checkedWithSubstitutionVariables(["rank": 2])
            let selected = try (1...3).filter {
                try withVariable.checkedEvaluate(
                    with: ["salesRank": $0, "title": "T"], substitutionVariables: ["rank": 2])
            }
            return (substituted == chain.predicate(), selected)
        }
        #expect(same)
        #expect(selected == chain.expectedRanks)
    }

    @Test(arguments: chainCases())
    func aLongChainComparesAndHashes(_ type: CompoundPredicate.LogicalType, _ shape: ChainShape) throws {
        let chain = Chain(type: type, shape: shape)
        let (equal, sameHash, differs) = try onSmallStack { () -> (Bool, Bool, Bool) in
            let p = chain.predicate()
            let q = chain.predicate()
            let other = chain.predicate(rank: .constant(.int(3)))
            return (p == q, p.hashValue == q.hashValue, p != other)
        }
        #expect(equal)
        #expect(sameHash)
        #expect(differs)
    }

    @Test(arguments: chainCases())
    func aLongChainFetchesTheSameFromSQLiteAndMemory(_ type: CompoundPredicate.LogicalType, _ shape: ChainShape) throws
    {
        let chain = Chain(type: type, shape: shape)
        for storeType in [StoreType.sqlite, .inMemory] {
            let context = try StackFixture.threeRankedBooks(storeType).context
            let (ranks, count) = try onSmallStack { () -> ([Int], Int) in
                let request = FetchRequest(entityName: "Book")
                request.predicate = chain.predicate()
                let ranks = try context.fetch(request).compactMap { try $0.checkedValue(forKey: "salesRank") as? Int }
                    .sorted()
                return (ranks, try context.count(for: request))
            }
            #expect(ranks == chain.expectedRanks, "\(storeType)")
            #expect(count == chain.expectedRanks.count, "\(storeType)")
        }
    }

    // Folding adds no level, but a NOT or an OR inside an AND still does: the chain inside a
    // NOT is two levels below the NOT's parent, as deep as its deepest term allows.
    @Test func chainsCountOneLevelAndOtherNestingCounts() throws {
        let flat = Chain(type: .and, shape: .leftDeep).predicate()
        var p = Predicate.not(flat)
        for i in 0..<(Predicate.maximumDepth - 4) { p = i % 2 == 0 ? .or([deepLeaf, p]) : .and([deepLeaf, p]) }
        // NOT, the chain, its comparisons and their expressions: 4 levels, plus 496 alternations.
        #expect(throws: Never.self) { try p.checkedEvaluate(with: ["salesRank": 2, "title": "B"]) }
        // An AND around p (whose top is an AND) joins its chain and adds no level; the OR does.
        #expect(throws: Never.self) {
            try Predicate.and([deepLeaf, p]).checkedEvaluate(with: ["salesRank": 2, "title": "B"])
        }
        let over = Predicate.or([deepLeaf, .and([deepLeaf, p])])
        #expect(throws: ObjectGraph.PredicateError.self) {
            try over.checkedEvaluate(with: ["salesRank": 2, "title": "B"])
        }
    }
}
