import CoreData
import Testing

/// Models read from Xcode's files, as an application loads its model.
@Suite struct ModelFileTests {
    // https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/init(contentsof:)
    @Test("NSManagedObjectModel(contentsOf:) loads a model bundle's current version, and is nil for a missing file")
    func contentsOf() throws {
        let model = try #require(NSManagedObjectModel(contentsOf: Stack.toDoModel))
        #expect(model.entitiesByName["ToDo"]?.attribute(named: "doNotAlert") != nil)
        #expect(NSManagedObjectModel(contentsOf: Stack.toDoModel.appendingPathComponent("Missing.xcdatamodel")) == nil)
    }

    // https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/mergedmodel(from:)
    @Test("mergedModel(from:) finds the model files among a bundle's resources")
    func mergedModelFromBundle() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Stack.toDoModel, to: folder.appendingPathComponent("ToDo.xcdatamodeld"))
        let bundle = try #require(Bundle(path: folder.path))
        let model = try #require(NSManagedObjectModel.mergedModel(from: [bundle]))
        #expect(Set(model.entitiesByName.keys) == ["Category", "ToDo"])
        let empty = try #require(Bundle(path: try Stack.folder().path))
        #expect(NSManagedObjectModel.mergedModel(from: [empty]) == nil)
    }

    // https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/init(bymerging:)
    @Test("init(byMerging:) joins models, and is nil when two declare one entity")
    func byMerging() throws {
        let toDo = try #require(NSManagedObjectModel(contentsOf: Stack.toDoModel))
        let library = try Stack.model()
        let merged = try #require(NSManagedObjectModel(byMerging: [toDo, library]))
        #expect(merged.entities.count == toDo.entities.count + library.entities.count)
        #expect(NSManagedObjectModel(byMerging: [library, library]) == nil)
    }
}
