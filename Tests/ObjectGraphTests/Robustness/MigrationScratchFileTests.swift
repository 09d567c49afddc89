import Foundation
import ObjectGraph
import Testing
import ZarraToDo

// Scratch files of interrupted migrations (association tables, named with their process's
// id) are removed the next time a store in their directory is opened or migrated; those of
// a process still running never are.

private let prefix = ".objectgraph-migration-"

private func scratchFiles(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(prefix) }.sorted()
}

/// The id of a process that has ended.
private func deadProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}

@Suite("Scratch files of interrupted migrations")
struct MigrationScratchFileTests {
    @Test func openingAStoreRemovesOnlyAbandonedScratchFiles() throws {
        let directory = try TemporaryDirectory()
        let live = "\(prefix)pid\(getpid())-\(UUID().uuidString).associations"
        let dead = "\(prefix)pid\(try deadProcessID())-\(UUID().uuidString).associations"
        let oldUnattributed = "\(prefix)\(UUID().uuidString).associations"
        let recentUnattributed = "\(prefix)\(UUID().uuidString).associations"
        for name in [live, dead, oldUnattributed, recentUnattributed] {
            #expect(FileManager.default.createFile(atPath: directory.file(name).path, contents: Data("scratch".utf8)))
        }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: directory.file(oldUnattributed).path)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file("Store.sqlite"))
        #expect(try scratchFiles(in: directory.url) == [live, recentUnattributed].sorted())
    }

    @Test(
        .enabled(
            if: MigrationCrashSafetyTests.childURL != nil,
            "the objectgraph-migration-child executable is built by `swift build --build-tests`"))
    func aKilledMigrationsAssociationTableGoesAtTheNextOpen() throws {
        let child = try #require(MigrationCrashSafetyTests.childURL)
        let directory = try TemporaryDirectory()
        let pristine = directory.file("Pristine.sqlite")
        try ToDoModels.seed(pristine, count: 2_500)
        let store = directory.file("Store.sqlite")
        func copyPristine() throws {
            for suffix in ["", "-wal", "-shm", ".migrating"] {
                try? FileManager.default.removeItem(atPath: store.path + suffix)
            }
            try FileManager.default.copyItem(at: pristine, to: store)
        }
        func run(killAfter delay: Double?) throws -> Double {
            let process = Process()
            process.executableURL = child
            process.arguments = [store.path, "custom"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let start = Date()
            try process.run()
            if let delay {
                Thread.sleep(forTimeInterval: delay)
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            return Date().timeIntervalSince(start)
        }
        try copyPristine()
        let seconds = try run(killAfter: nil)
        #expect(try scratchFiles(in: directory.url).isEmpty, "a migration left alone removes its own table")
        // Kills spread over the middle of a migration, until one leaves its table behind.
        var left: [String] = []
        for trial in 0..<10 where left.isEmpty {
            try copyPristine()
            _ = try run(killAfter: seconds * (0.2 + 0.07 * Double(trial)))
            left = try scratchFiles(in: directory.url)
        }
        try #require(!left.isEmpty, "no kill landed while the association table existed")
        #expect(left.allSatisfy { $0.hasPrefix(prefix + "pid") })
        // The next open, with either version of the model, removes it.
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: store)
        let v1 = try ToDoModels.version1()
        let v2 = try ToDoModels.version2()
        let model = v1.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) ? v1 : v2
        try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .sqlite, at: store)
        #expect(try scratchFiles(in: directory.url).isEmpty)
    }
}
