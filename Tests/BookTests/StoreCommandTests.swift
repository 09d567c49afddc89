import ArgumentParser
import Foundation
import ObjectGraph
import Testing
import WorkbookSupport

@testable import workbook

// `workbook store inspect --model`: whether the model opens the store, entity by entity.
@Suite struct StoreCommandTests {
    /// The ToDo model the workbook ships: the same versions as ToDoModels.version1() and version2().
    static var bundle: URL { ToDoModels.bundleURL }

    @Test func comparesAStoreWithTheBundleVersionThatWroteIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "workbook-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("ToDo.sqlite")
        try PersistentStoreCoordinator(managedObjectModel: try ToDoModels.version1()).addPersistentStore(
            type: .sqlite, at: url)
        let inspection = try StoreInspection(at: url)
        let report = StoreCommand.report(inspection, name: "ToDo.sqlite")
        #expect(
            report.contains(
                "Model version hashes (base64):\n  Category  \(try ToDoModels.version1().entityVersionHashesByName["Category"]!.base64EncodedString())"
            ))
        #expect(report.contains("NSStoreModelVersionIdentifiers = [\"1\"]"))

        // Without --version, the version whose hashes the store has.
        let found = try StoreCommand.comparison(inspection, modelURL: Self.bundle, version: nil)
        #expect(found.hasPrefix("Compared with ToDo.xcdatamodeld, version ToDo:\n  The store matches the model"))
        #expect(found.contains("  ToDo      Core Data's hash of the model's entity"))

        let current = try StoreCommand.comparison(inspection, modelURL: Self.bundle, version: "ToDo 2")
        let v2 = try ToDoModels.version2().entityVersionHashesByName["ToDo"]!.base64EncodedString()
        #expect(
            current == """
                Compared with ToDo.xcdatamodeld, version ToDo 2 (current):
                  The store does not match the model: opening it needs a migration (without one, Core Data refuses it with error 134100).
                  Category  Core Data's hash of the model's entity
                  ToDo      differs: the model's is \(v2)
                """)
        let wrongVersion = #expect(throws: WorkbookError.self) {
            try StoreCommand.comparison(inspection, modelURL: Self.bundle, version: "ToDo 9")
        }
        #expect(wrongVersion?.description == "ToDo.xcdatamodeld has no version ToDo 9; its versions are ToDo, ToDo 2")
    }
}
