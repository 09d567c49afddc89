import Foundation
import ObjectGraph
import Testing
import WorkbookSupport

/// The ToDo model declared in Swift and the `.xcdatamodeld` the workbook ships are one model.
@Suite struct ToDoModelTests {
    @Test func theBundleHoldsBothVersionsWithTheSameHashes() throws {
        let bundle = try ToDoModels.bundle()
        #expect(bundle.versionNames == ToDoModels.versionNames)
        #expect(bundle.currentVersionName == "ToDo 2")
        for (index, name) in ToDoModels.versionNames.enumerated() {
            let fromFile = try #require(bundle.model(named: name))
            #expect(
                fromFile.entityVersionHashesByName
                    == (try ToDoModels.model(version: index + 1).entityVersionHashesByName), "\(name)")
        }
        // Version 2 changed ToDo, not Category.
        let one = try ToDoModels.version1().entityVersionHashesByName
        let two = try ToDoModels.version2().entityVersionHashesByName
        #expect(one["ToDo"] != two["ToDo"])
        #expect(one["Category"] == two["Category"])
    }

    // Writing the Swift models out gives the shipped files, byte for byte: the file is not
    // edited by hand.
    @Test func theShippedFilesAreWhatTheWriterWrites() throws {
        let bundle = try ModelBundle(
            versions: [("ToDo", ToDoModels.version1()), ("ToDo 2", ToDoModels.version2())], currentVersionName: "ToDo 2"
        )
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("todo-model-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = directory.appendingPathComponent("ToDo.xcdatamodeld")
        try bundle.write(to: written)
        for file in [".xccurrentversion", "ToDo.xcdatamodel/contents", "ToDo 2.xcdatamodel/contents"] {
            let shipped = try Data(contentsOf: ToDoModels.bundleURL.appendingPathComponent(file))
            #expect(try Data(contentsOf: written.appendingPathComponent(file)) == shipped, "\(file)")
        }
    }
}
