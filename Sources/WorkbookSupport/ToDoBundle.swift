import Foundation
import ObjectGraph
// Every module that imports WorkbookSupport sees Zarra's ToDo model (defined once, in ZarraToDo).
@_exported import ZarraToDo

extension ToDoModels {
    /// The model file as Xcode would save it, `ToDo.xcdatamodeld`, shipped with the workbook:
    /// both versions, "ToDo 2" current. It describes the same models as ``version1()`` and
    /// ``version2()`` (a test compares their version hashes).
    public static var bundleURL: URL {
        Bundle.module.url(forResource: "ToDo", withExtension: "xcdatamodeld")!
    }

    /// The versions in ``bundleURL``, loaded.
    public static func bundle() throws -> ModelBundle {
        try ModelBundle(contentsOf: bundleURL)
    }

    /// Both versions, version 2 current, loaded from the shipped `ToDo.xcdatamodeld`, with the
    /// given mapping models.
    public static func versionedModel(mappingModels: [MappingModel] = []) throws -> VersionedModel {
        try VersionedModel(contentsOf: bundleURL, mappingModels: mappingModels)
    }
}
