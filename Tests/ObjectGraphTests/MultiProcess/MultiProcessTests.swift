import Foundation
import ObjectGraph
import TestSupport
import Testing

// Several processes writing one store at once, each with its own coordinator: every write a
// process was told succeeded is in the store afterwards, exactly once. The suite runs one
// trial of three processes with twenty writes each per store type; the full run is a hundred
// trials per store type (PostgreSQL's store a schema of its own on the test server):
//
//     OBJECTGRAPH_LONG=1 swift test --skip-build --filter MultiProcess
@Suite struct MultiProcessTests {
    /// The built child program, next to the test bundle.
    static var childURL: URL? { BuiltExecutable.url(named: "objectgraph-writer-child") }

    /// Trials per store type: one in the suite, a hundred with OBJECTGRAPH_LONG=1.
    static var trials: Int { ProcessInfo.processInfo.environment["OBJECTGRAPH_LONG"] == "1" ? 100 : 1 }
    static let processes = 3
    static let operations = 20

    /// What one child printed and how it ended.
    struct ChildResult {
        var status: Int32
        var lines: [String]
        var errors: String
    }

    /// Starts every child at once, then waits for all of them.
    static func run(_ argumentLists: [[String]]) throws -> [ChildResult] {
        let child = try #require(childURL)
        var running: [(Process, Pipe, Pipe)] = []
        for arguments in argumentLists {
            let process = Process()
            process.executableURL = child
            process.arguments = arguments
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            running.append((process, output, errors))
        }
        return running.map { process, output, errors in
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            let failed = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return ChildResult(
                status: process.terminationStatus,
                lines: String(decoding: printed, as: UTF8.self).split(separator: "\n").map(String.init),
                errors: String(decoding: failed, as: UTF8.self))
        }
    }

    @Test(
        .enabled(if: childURL != nil, "objectgraph-writer-child is built by `swift build --build-tests`"),
        arguments: [StoreType.xml, .binary, .sqlite, .postgres])
    func concurrentIncrementsOfOneCounterLoseNone(_ type: StoreType) throws {
        for trial in 1...Self.trials {
            let directory = try TemporaryDirectory()
            guard let url = try writerStoreURL(type, in: directory, name: "Counter") else { return }
            let seed = try writerContext(type, url)
            try seed.insertNewObject(forEntityName: "Counter").checkedSetValue(0, forKey: "value")
            try seed.save()

            let results = try Self.run(
                (0..<Self.processes).map { _ in
                    [writerTypeName(type), writerLocation(type, url), "increment", "\(Self.operations)"]
                })
            for result in results { #expect(result.status == 0, "\(type) trial \(trial): \(result.errors)") }
            // Every confirmed increment saw a value no other did: none was lost, none doubled.
            // "increment <value>" lines; "conflict 133020" lines are the refused saves retried.
            let confirmed = results.flatMap(\.lines).filter { $0.hasPrefix("increment ") }.compactMap {
                Int($0.split(separator: " ").last ?? "")
            }
            let total = Self.processes * Self.operations
            #expect(confirmed.sorted() == Array(1...total), "\(type) trial \(trial)")
            let counter = try #require(try writerContext(type, url).fetch(FetchRequest(entityName: "Counter")).first)
            #expect(try counter.checkedValue(forKey: "value") as? Int == total, "\(type) trial \(trial)")
        }
    }

    // Processes that start together on a store that does not exist yet agree on one store
    // (ten `todo add` on a new machine): none fails, none's object is lost with another's file.
    @Test(
        .enabled(if: childURL != nil, "objectgraph-writer-child is built by `swift build --build-tests`"),
        arguments: [StoreType.xml, .binary, .sqlite, .postgres])
    func processesCreatingOneStoreTogetherAgreeOnIt(_ type: StoreType) throws {
        for trial in 1...Self.trials {
            let directory = try TemporaryDirectory()
            guard let url = try writerStoreURL(type, in: directory, name: "New") else { return }
            let results = try Self.run(
                (0..<Self.processes).map { n in
                    [writerTypeName(type), writerLocation(type, url), "insert", "1", "w\(n)"]
                })
            for result in results { #expect(result.status == 0, "\(type) trial \(trial): \(result.errors)") }
            let writers = try writerContext(type, url).fetch(FetchRequest(entityName: "Record")).map {
                try $0.checkedValue(forKey: "writer") as? String
            }
            #expect(
                writers.compactMap { $0 }.sorted() == (0..<Self.processes).map { "w\($0)" }, "\(type) trial \(trial)")
        }
    }

    @Test(
        .enabled(if: childURL != nil, "objectgraph-writer-child is built by `swift build --build-tests`"),
        arguments: [StoreType.xml, .binary, .sqlite, .postgres])
    func concurrentInsertsAllSurviveWithTheirOwnKeys(_ type: StoreType) throws {
        for trial in 1...Self.trials {
            let directory = try TemporaryDirectory()
            guard let url = try writerStoreURL(type, in: directory, name: "Records") else { return }
            try writerContext(type, url).save()
            let results = try Self.run(
                (0..<Self.processes).map { n in
                    [writerTypeName(type), writerLocation(type, url), "insert", "\(Self.operations)", "w\(n)"]
                })
            for result in results { #expect(result.status == 0, "\(type) trial \(trial): \(result.errors)") }
            let confirmed = results.flatMap(\.lines).map { $0.split(separator: " ").map(String.init) }
            #expect(confirmed.count == Self.processes * Self.operations, "\(type) trial \(trial)")
            #expect(
                Set(confirmed.map { $0.last ?? "" }).count == confirmed.count,
                "\(type) trial \(trial): a key was handed out twice")

            var found: [String: Int] = [:]
            for record in try writerContext(type, url).fetch(FetchRequest(entityName: "Record")) {
                let writer = try #require(try record.checkedValue(forKey: "writer") as? String)
                let index = try #require(try record.checkedValue(forKey: "index") as? Int)
                found["\(writer) \(index)", default: 0] += 1
            }
            let expected = (0..<Self.processes).flatMap { n in (1...Self.operations).map { "w\(n) \($0)" } }
            #expect(
                found.keys.sorted() == expected.sorted(),
                "\(type) trial \(trial): lost \(Set(expected).subtracting(found.keys).sorted())")
            #expect(
                found.values.allSatisfy { $0 == 1 },
                "\(type) trial \(trial): written twice \(found.filter { $0.value > 1 })")
        }
    }
}
