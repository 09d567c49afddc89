import Foundation
import GRDB
import ObjectGraph
import TestSupport
import Testing

// Apple, NSManagedObjectContext save(): a save is all or nothing. A child process saves
// batches of 50 objects in a loop and is killed with SIGKILL at varied moments; after each
// kill the store must open, and every batch must be either complete or absent.
@Suite struct CrashSafetyTests {
    /// The built child program, next to the test bundle (as swift-argument-parser's example
    /// tests find their executables).
    static var childURL: URL? { BuiltExecutable.url(named: "objectgraph-crash-child") }

    @Test(
        .enabled(if: childURL != nil, "the objectgraph-crash-child executable is built by `swift build --build-tests`"))
    func killedSavesLeaveWholeBatchesOrNothing() throws {
        let child = try #require(Self.childURL)
        let directory = try TemporaryDirectory()
        let store = directory.file("Crash.sqlite")
        // Kill delays spread over the child's life, fixed so every run is the same test.
        let delays = (0..<20).map { 0.05 + Double(($0 * 37) % 20) * 0.02 }
        var confirmed = 0
        for (trial, delay) in delays.enumerated() {
            let process = Process()
            process.executableURL = child
            process.arguments = [store.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let lastConfirmed = printed.split(separator: "\n").compactMap { Int($0.split(separator: " ").last ?? "") }
                .max()
            if let lastConfirmed { confirmed = max(confirmed, lastConfirmed) }

            // The store opens with Core Data's API, and every batch is whole.
            let model = try ManagedObjectModel {
                EntityDescription("Record") {
                    AttributeDescription("batch", .integer64, optional: false)
                    AttributeDescription("index", .integer64, optional: false)
                    AttributeDescription("payload", .string, optional: false)
                }
            }
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(type: .sqlite, at: store)
            let context = ManagedObjectContext(coordinator: coordinator)
            let records = try context.fetch(FetchRequest(entityName: "Record"))
            var sizes: [Int: Int] = [:]
            for record in records {
                let batch = try #require(try record.checkedValue(forKey: "batch") as? Int)
                let index = try #require(try record.checkedValue(forKey: "index") as? Int)
                #expect(
                    try record.checkedValue(forKey: "payload") as? String
                        == String(repeating: "\(batch)-\(index);", count: 20), "trial \(trial)")
                sizes[batch, default: 0] += 1
            }
            #expect(
                sizes.values.allSatisfy { $0 == 50 },
                "trial \(trial): partial batches \(sizes.filter { $0.value != 50 })")
            // What the child reported saved is in the store.
            #expect((sizes.keys.max() ?? 0) >= confirmed, "trial \(trial)")
        }
        // The kills did land while the child was saving.
        #expect(confirmed > 0)
    }
}
