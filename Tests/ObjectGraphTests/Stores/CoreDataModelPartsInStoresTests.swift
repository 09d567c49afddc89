import Foundation
import ObjectGraph
import Testing

// What models Core Data loads can hold, and what the stores here do with it: an inverse
// declared on a sub-entity works, a to-one without an inverse is stored, transient Undefined
// attributes hold anything; transformable values in atomic store files and to-many
// relationships without an inverse, which the stores cannot write yet, are refused with a
// clear error, never lost.
@Suite struct CoreDataModelPartsInStoresTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Library") {
                AttributeDescription("name", .string)
                AttributeDescription("scratch", .undefined, transient: true)
                AttributeDescription(
                    "settings", .transformable, valueTransformerName: "NSSecureUnarchiveFromDataTransformer")
                RelationshipDescription("loans", toMany: "Item", inverse: "lender", inverseEntity: "Book")
                RelationshipDescription("featured", toOne: "Item", inverse: nil)
            }
            EntityDescription("Item", abstract: true) { AttributeDescription("title", .string) }
            EntityDescription("Book", parent: "Item") {
                RelationshipDescription("lender", toOne: "Library", inverse: "loans")
            }
        }
    }

    @Test(arguments: [StoreType.sqlite, .xml])
    func anInverseOnASubEntityAndAToOneWithoutInverseAreStored(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Library.store")
        let model = try Self.model()
        do {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(type: type, at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            let library = try context.insertNewObject(forEntityName: "Library")
            try library.checkedSetValue("City", forKey: "name")
            try library.checkedSetValue(["any": 1], forKey: "scratch") // transient Undefined: anything, never stored
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.checkedSetValue("Dune", forKey: "title")
            // Setting the sub-entity's side keeps the inverse, declared on the sub-entity, in step.
            try book.checkedSetValue(library, forKey: "lender")
            #expect(try library.mutableSetValue(forKey: "loans").objects() == [book])
            try library.checkedSetValue(book, forKey: "featured")
            try context.save()
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let library = try #require(try context.fetch(FetchRequest(entityName: "Library")).first)
        let loans = try library.mutableSetValue(forKey: "loans").objects()
        #expect(try loans.map { try $0.checkedValue(forKey: "title") as? String } == ["Dune"])
        #expect(
            try (library.checkedValue(forKey: "featured") as? ManagedObject)?.checkedValue(forKey: "title") as? String
                == "Dune")
        #expect(try library.checkedValue(forKey: "scratch") == nil)
    }

    // The SQLite store keeps transformable values (TransformableValueTests); the atomic store
    // files do not yet, and refuse them rather than lose them.
    @Test(arguments: [StoreType.xml, .binary])
    func aTransformableValueIsRefusedAtSaveAndNilSaves(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(type: type, at: directory.file("Library.store"))
        let context = ManagedObjectContext(coordinator: coordinator)
        let library = try context.insertNewObject(forEntityName: "Library")
        try context.save()
        try library.checkedSetValue(["theme": "dark"], forKey: "settings")
        let error = #expect(throws: CoreDataError.self) { try context.save() }
        #expect(error?.code == .persistentStoreSave)
        #expect(error?.key == "settings")
        #expect(error?.message.contains("Library.settings of x-coredata://") == true, "\(error?.message ?? "")")
        #expect(
            error?.message.contains("Transformable attribute (value transformer NSSecureUnarchiveFromDataTransformer)")
                == true)
    }

    @Test func aToManyWithoutInverseIsRefusedWhenTheStoreIsAdded() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Shelf") { RelationshipDescription("books", toMany: "Book", inverse: nil) }
            EntityDescription("Book") { AttributeDescription("title", .string) }
        }
        let directory = try TemporaryDirectory()
        for type in [StoreType.sqlite, .xml, .inMemory] {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            let error = #expect(throws: CoreDataError.self) {
                try coordinator.addPersistentStore(
                    type: type, at: type == .inMemory ? nil : directory.file("Shelf.\(type.rawValue)"))
            }
            #expect(error?.code == .persistentStoreIncompatibleSchema)
            #expect(
                error?.message.contains("to-many relationship Shelf.books has no inverse") == true,
                "\(error?.message ?? "")")
            #expect(coordinator.persistentStores.isEmpty)
        }
    }
}
