import Foundation
import Testing

@testable import ObjectGraph

// The association tables of NSMigrationManager (associateSourceInstance:withDestinationInstance:
// forEntityMapping:, destinationInstancesForEntityMappingNamed:sourceInstances: and
// sourceInstancesForEntityMappingNamed:destinationInstances:), stored as runs of consecutive
// keys: every lookup answers what a table of one row per pair answers.

private typealias Pair = AssociationTable.Pair

/// What a table of one row per pair answers, computed from the pairs themselves.
private struct Reference {
    var pairs: [Pair] = []

    func bySource(_ mapping: Int, _ key: Int64) -> [Pair] {
        pairs.filter { $0.mapping == mapping && $0.source == key }.sorted { $0.destination < $1.destination }
    }

    func byDestination(_ mapping: Int, _ key: Int64) -> [Pair] {
        pairs.filter { $0.mapping == mapping && $0.destination == key }.sorted { $0.source < $1.source }
    }

    /// Each destination of a mapping once, with its smallest source, in key order.
    func destinations(_ mapping: Int) -> [Pair] {
        var first: [Int64: Pair] = [:]
        for p in pairs where p.mapping == mapping {
            if let q = first[p.destination], q.source <= p.source { continue }
            first[p.destination] = p
        }
        return first.values.sorted { $0.destination < $1.destination }
    }
}

/// Pairs by destination, then source.
private func byDestination(_ pairs: [Pair]) -> [Pair] {
    pairs.sorted { (a: Pair, b: Pair) -> Bool in
        a.destination != b.destination ? a.destination < b.destination : a.source < b.source
    }
}

/// Source keys `sources` of a mapping with destination keys `offset` further.
private func span(_ mapping: Int, _ sources: ClosedRange<Int64>, offset: Int64, sourceEntity: Int = 1) -> [Pair] {
    sources.map { (s: Int64) -> Pair in pair(mapping, s, s + offset, sourceEntity: sourceEntity) }
}

private func pair(
    _ mapping: Int, _ source: Int64, _ destination: Int64, sourceEntity: Int = 1, destinationEntity: Int = 2
) -> Pair {
    Pair(
        mapping: mapping, source: source, sourceEntity: sourceEntity, destination: destination,
        destinationEntity: destinationEntity)
}

/// Every answer of the table agrees with the reference, for every key and every batch size.
private func expectAgreement(
    _ table: AssociationTable, _ reference: Reference, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let mappings = Set(reference.pairs.map(\.mapping)).sorted()
    let sources = Set(reference.pairs.map(\.source)).union([0, 999_999])
    let destinations = Set(reference.pairs.map(\.destination)).union([0, 999_999])
    for m in mappings {
        for key in sources.sorted() {
            let found = byDestination(try table.pairs(mappings: [m], sources: [key]))
            #expect(
                found == reference.bySource(m, key),
                "mapping \(m), source \(key)", sourceLocation: sourceLocation)
        }
        for key in destinations.sorted() {
            let found = try table.pairs(mapping: m, destinations: [key])
            #expect(
                found.sorted { $0.source < $1.source } == reference.byDestination(m, key),
                "mapping \(m), destination \(key)", sourceLocation: sourceLocation)
        }
        let all = byDestination(reference.pairs.filter { $0.mapping == m })
        #expect(
            try table.pairs(mapping: m, destinations: nil) == all, "mapping \(m), every destination",
            sourceLocation: sourceLocation)
        #expect(
            try table.pairs(mappings: [m], sources: nil) == all, "mapping \(m), every source",
            sourceLocation: sourceLocation)
        for limit in [1, 2, 3, 7, 1000] {
            var batches: [Pair] = []
            var after: Int64 = 0
            while true {
                let batch = try table.destinationBatch(mapping: m, after: after, limit: limit)
                #expect(batch.count <= limit, sourceLocation: sourceLocation)
                batches += batch
                guard let last = batch.last, batch.count == limit else { break }
                after = last.destination
            }
            #expect(
                batches == reference.destinations(m), "mapping \(m), batches of \(limit)",
                sourceLocation: sourceLocation)
        }
        #expect(
            table.countByMapping[m] == reference.pairs.filter { $0.mapping == m }.count, sourceLocation: sourceLocation)
    }
}

@Suite("Association tables as runs (NSMigrationManager association tables)")
struct AssociationTableTests {
    @Test("Batches of consecutive keys, across two inserts, answer as pairs do")
    func consecutiveBatches() throws {
        let directory = try TemporaryDirectory()
        let table = try AssociationTable(directory: directory.url)
        defer { table.destroy() }
        var reference = Reference()
        for batch in [span(0, 1...5, offset: 10), span(0, 6...12, offset: 10)] {
            try table.insert(batch)
            reference.pairs += batch
        }
        try expectAgreement(table, reference)
    }

    @Test("A source with two destinations, and a destination with two sources, answer as pairs do")
    func manyToOneAndOneToMany() throws {
        let directory = try TemporaryDirectory()
        let table = try AssociationTable(directory: directory.url)
        defer { table.destroy() }
        var reference = Reference()
        // Two destinations per source: pairs alternate, no run forms.
        var split: [Pair] = []
        for s in Int64(1)...6 { split += [pair(0, s, 2 * s - 1), pair(0, s, 2 * s)] }
        // A run, then its destinations associated again with other sources (some smaller).
        let run = span(1, 101...108, offset: -100)
        let again = [pair(1, 50, 3), pair(1, 200, 5), pair(1, 60, 8), pair(1, 61, 9)]
        for batch in [split, run, again] {
            try table.insert(batch)
            reference.pairs += batch
        }
        try expectAgreement(table, reference)
    }

    @Test("A run overlapping an earlier run, in sources or destinations, answers as pairs do")
    func overlappingRuns() throws {
        let directory = try TemporaryDirectory()
        let table = try AssociationTable(directory: directory.url)
        defer { table.destroy() }
        var reference = Reference()
        let batches: [[Pair]] = [
            span(0, 1...10, offset: 0),
            span(0, 5...14, offset: 100), // the same sources again
            span(0, 20...25, offset: -15), // destinations 5...10 again
            span(0, 30...33, offset: 0, sourceEntity: 3), // another source entity
            span(2, 1...4, offset: 0), // another mapping, same keys
        ]
        for batch in batches {
            try table.insert(batch)
            reference.pairs += batch
        }
        try expectAgreement(table, reference)
    }

    @Test("Keys in any order answer as pairs do")
    func scrambledKeys() throws {
        let directory = try TemporaryDirectory()
        let table = try AssociationTable(directory: directory.url)
        defer { table.destroy() }
        var reference = Reference()
        var generator = SeededGenerator(seed: 17)
        for _ in 0..<4 {
            var batch: [Pair] = []
            var source = Int64.random(in: 1...60, using: &generator)
            var destination = Int64.random(in: 1...60, using: &generator)
            for _ in 0..<25 {
                // Mostly consecutive, with jumps that break and overlap runs.
                if Int.random(in: 0..<5, using: &generator) == 0 {
                    source = Int64.random(in: 1...60, using: &generator)
                    destination = Int64.random(in: 1...60, using: &generator)
                }
                batch.append(pair(Int.random(in: 0...1, using: &generator), source, destination))
                source += 1
                destination += 1
            }
            try table.insert(batch)
            reference.pairs += batch
        }
        try expectAgreement(table, reference)
    }

    @Test("Consecutive pairs take one row per run")
    func runsTakeOneRow() throws {
        let directory = try TemporaryDirectory()
        let table = try AssociationTable(directory: directory.url)
        defer { table.destroy() }
        try table.insert(span(0, 1...5000, offset: 7))
        try table.insert([pair(0, 6000, 1), pair(0, 6000, 2)])
        #expect(try table.rowCount() == 3)
    }
}
