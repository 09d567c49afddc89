import Foundation
import ObjectGraph

// The XML and binary stores (Stores/Atomic): a store file is read by
// `PersistentStoreCoordinator.metadataForPersistentStore(type:at:)`, by `StoreInspection(at:)`
// (`workbook store inspect`) and by `addPersistentStore(type:at:options:)`; then every object
// of every entity is fetched and each property read, which turns the file's text into values
// (transformable ones through their ValueTransformer). A store that opens is then written:
// every object changed, one of each entity inserted, saved.

extension FuzzedReaders {
    /// The model the atomic store fuzzers open their input with: every attribute type, a
    /// sub-entity, to-one, to-many and ordered to-many relationships. The seeds are stores of it.
    package static let storeModel: ManagedObjectModel = {
        do {
            return try ManagedObjectModel {
                EntityDescription("Item") {
                    AttributeDescription("name", .string)
                    AttributeDescription("small", .integer16)
                    AttributeDescription("count", .integer32)
                    AttributeDescription("big", .integer64)
                    AttributeDescription("price", .decimal)
                    AttributeDescription("ratio", .double)
                    AttributeDescription("weight", .float)
                    AttributeDescription("done", .boolean)
                    AttributeDescription("when", .date)
                    AttributeDescription("blob", .binaryData)
                    AttributeDescription("identifier", .uuid)
                    AttributeDescription("link", .uri)
                    AttributeDescription("settings", .transformable)
                    RelationshipDescription("tags", toMany: "Tag", inverse: "items")
                    RelationshipDescription("steps", toMany: "Tag", inverse: "step", ordered: true)
                    RelationshipDescription("owner", toOne: "Tag", inverse: "owned")
                }
                EntityDescription("Special", parent: "Item") {
                    AttributeDescription("note", .string)
                }
                EntityDescription("Tag") {
                    AttributeDescription("label", .string)
                    RelationshipDescription("items", toMany: "Item", inverse: "tags")
                    RelationshipDescription("step", toOne: "Item", inverse: "steps")
                    RelationshipDescription("owned", toMany: "Item", inverse: "owner")
                }
            }
        } catch {
            fatalError("the atomic store fuzzers' model does not build: \(error)")
        }
    }()

    /// The XML store.
    static let xmlStoreReader = FuzzedReader(
        name: "xmlstore",
        summary:
            "XML store files: metadataForPersistentStore(type:at:), StoreInspection(at:), addPersistentStore(type: .xml) and a fetch of everything"
    ) { data, scratch in checkAtomicStore(data, type: .xml, file: scratch.file("Fuzz.xml"), in: scratch) }

    /// The binary store.
    static let binaryStoreReader = FuzzedReader(
        name: "binarystore",
        summary:
            "binary store files (a binary property list): metadataForPersistentStore(type:at:), StoreInspection(at:), addPersistentStore(type: .binary) and a fetch of everything"
    ) { data, scratch in checkAtomicStore(data, type: .binary, file: scratch.file("Fuzz.binary"), in: scratch) }
}

/// Reads a store file every way ObjectGraph reads one.
private func checkAtomicStore(_ data: Data, type: StoreType, file: URL, in scratch: FuzzScratch) -> String? {
    scratch.write(data, to: file)
    do { _ = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: file) } catch {
        if let finding = fileReaderFinding(error, naming: file, in: scratch) {
            return "metadataForPersistentStore: \(finding)"
        }
    }
    do { _ = try StoreInspection(at: file) } catch {
        if let finding = fileReaderFinding(error, naming: file, in: scratch) { return "StoreInspection: \(finding)" }
    }
    let model = FuzzedReaders.storeModel
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    let store: PersistentStore
    do {
        store = try coordinator.addPersistentStore(type: type, at: file, options: [StoreOption.readOnly: true])
    } catch {
        if let finding = fileReaderFinding(error, naming: file, in: scratch) { return "addPersistentStore: \(finding)" }
        return nil
    }
    defer { try? coordinator.remove(store) }
    let context = ManagedObjectContext(coordinator: coordinator)
    for entity in model.entities {
        do {
            for object in try context.fetch(FetchRequest<ManagedObject>(entityName: entity.name)) {
                for name in object.entity.propertyNames {
                    _ = try object.checkedValue(forKey: name)
                }
            }
        } catch is CoreDataError {
            // A value the file holds that does not fit (data that does not unarchive): refused.
        } catch {
            return "fetching \(entity.name) threw \(Swift.type(of: error)) (\(error)), not a CoreDataError"
        }
    }
    return checkWriting(type: type, file: file, in: scratch)
}

/// A store that opens is written next, as an application would: every object changed, one
/// of each entity inserted, saved. Keys and versions count on from what the file holds, so
/// what the reader let in must not trap here.
private func checkWriting(type: StoreType, file: URL, in scratch: FuzzScratch) -> String? {
    let copy = scratch.file("Written." + file.pathExtension)
    try? FileManager.default.removeItem(at: copy)
    defer { try? FileManager.default.removeItem(at: copy) }
    do { try FileManager.default.copyItem(at: file, to: copy) } catch {
        fatalError("fuzz scratch: cannot copy \(file.path): \(error)")
    }
    let model = FuzzedReaders.storeModel
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    do {
        let store = try coordinator.addPersistentStore(type: type, at: copy)
        defer { try? coordinator.remove(store) }
        let context = ManagedObjectContext(coordinator: coordinator)
        for entity in model.entities {
            for object in try context.fetch(FetchRequest<ManagedObject>(entityName: entity.name)) {
                try object.checkedSetValue("changed", forKey: entity.name == "Tag" ? "label" : "name")
            }
            try context.insertNewObject(forEntityName: entity.name).checkedSetValue(
                "new", forKey: entity.name == "Tag" ? "label" : "name")
        }
        try context.save()
    } catch is CoreDataError {
        // Refused (a value that does not validate, say): fine.
    } catch {
        return "writing the store after reading it threw \(Swift.type(of: error)) (\(error)), not a CoreDataError"
    }
    return nil
}
