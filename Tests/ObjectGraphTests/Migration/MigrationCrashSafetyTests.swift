import Testing
import Foundation
import TestSupport
import ObjectGraph
import ZarraToDo

// Apple, "Core Data Model Versioning and Data Migration" (the source store is left untouched
// until a migration succeeds), and beyond Core Data: a child process migrating a store is
// killed with SIGKILL at moments spread over the migration; the store must then open as
// untouched version 1 or as completely migrated version 2, never anything between, and a
// later automatic migration must finish the job.
@Suite struct MigrationCrashSafetyTests {
    static var childURL: URL? { BuiltExecutable.url(named: "objectgraph-migration-child") }

    static let todoCount = 2_500

    /// Runs the child on a copy of the pristine store; kills it after `delay` unless it ended.
    /// Returns whether it finished by itself.
    private func run(_ child: URL, store: URL, mode: String, killAfter delay: Double?) throws -> (finished: Bool, seconds: Double) {
        let process = Process()
        process.executableURL = child
        process.arguments = [store.path, mode]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = Date()
        try process.run()
        if let delay {
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return (process.terminationReason == .exit && process.terminationStatus == 0, Date().timeIntervalSince(start))
    }

    private func copyStore(_ from: URL, to: URL) throws {
        for suffix in ["", "-wal", "-shm", ".migrating"] { try? FileManager.default.removeItem(atPath: to.path + suffix) }
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: from.path + suffix) {
            try FileManager.default.copyItem(atPath: from.path + suffix, toPath: to.path + suffix)
        }
    }

    @Test(.enabled(if: childURL != nil, "the objectgraph-migration-child executable is built by `swift build --build-tests`"))
    func killedMigrationsLeaveVersion1OrVersion2() throws {
        let child = try #require(Self.childURL)
        let directory = try TemporaryDirectory()
        let pristine = directory.file("Pristine.sqlite")
        try ToDoModels.seed(pristine, count: Self.todoCount)
        let v1 = try ToDoModels.version1(), v2 = try ToDoModels.version2()
        var outcomes: [String: Int] = [:]
        let expectedAlerts = (0..<Self.todoCount).filter { ToDoModels.titles[$0 % ToDoModels.titles.count].lowercased().hasPrefix("a") }.count
        for mode in ["custom", "lightweight"] {
            // One undisturbed run measures how long a migration takes.
            let store = directory.file("\(mode).sqlite")
            try copyStore(pristine, to: store)
            let calibration = try run(child, store: store, mode: mode, killAfter: nil)
            #expect(calibration.finished, "\(mode): the child migrates when left alone")
            for trial in 0..<12 {
                try copyStore(pristine, to: store)
                // Kill moments spread over the child's whole life, fixed so each run is the same test.
                let delay = 0.01 + calibration.seconds * 1.6 * Double((trial * 7) % 12) / 11
                let finished = try run(child, store: store, mode: mode, killAfter: delay).finished
                let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: store)
                let isV1 = v1.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
                let isV2 = v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
                #expect(isV1 != isV2, "\(mode) trial \(trial): the store is version 1 or 2")
                outcomes["\(mode) \(isV2 ? "v2" : "v1")\(finished ? " finished" : "")", default: 0] += 1
                // Whichever it is, it opens with that model and holds every object.
                let coordinator = PersistentStoreCoordinator(managedObjectModel: isV2 ? v2 : v1)
                try coordinator.addPersistentStore(type: .sqlite, at: store)
                let context = ManagedObjectContext(coordinator: coordinator)
                #expect(try context.count(for: FetchRequest(entityName: "ToDo")) == Self.todoCount, "\(mode) trial \(trial)")
                let homeRequest = FetchRequest(entityName: "ToDo")
                homeRequest.predicate = try Predicate(format: "category.name == 'Home'")
                #expect(try context.count(for: homeRequest) == Self.todoCount / 2, "\(mode) trial \(trial)")
                if isV2 {
                    let alerts = FetchRequest(entityName: "ToDo")
                    alerts.predicate = try Predicate(format: "doNotAlert == YES")
                    #expect(try context.count(for: alerts) == (mode == "custom" ? expectedAlerts : 0), "\(mode) trial \(trial)")
                }
                #expect(!FileManager.default.fileExists(atPath: store.path + ".migrating") || !isV2, "\(mode) trial \(trial): no scratch file after success")
            }
            // A killed migration is finished by the next one.
            try copyStore(pristine, to: store)
            _ = try run(child, store: store, mode: mode, killAfter: calibration.seconds * 0.5)
            #expect(try run(child, store: store, mode: mode, killAfter: nil).finished)
            #expect(v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: store)))
        }
        // The kills landed both before and after the swap.
        print("migration crash outcomes: \(outcomes)")
        #expect(outcomes.keys.contains { $0.hasPrefix("custom v1") }, "\(outcomes)")
        #expect(outcomes.keys.contains { $0.hasPrefix("custom v2") }, "\(outcomes)")
    }
}
