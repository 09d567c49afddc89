import Foundation
import Testing

@testable import ObjectGraph

/// Models built in code as Apple's documentation builds them: reference-type descriptions, a
/// model frozen by its first use, invalid models refused with an error, copies independent.
@Suite struct ModelFreezingTests {
    /// A Book entity with a title and an Author it points to, as separate objects.
    func parts() -> (book: EntityDescription, title: AttributeDescription, author: EntityDescription) {
        let title = AttributeDescription()
        title.name = "title"
        title.attributeType = .string
        let book = EntityDescription()
        book.name = "Book"
        book.properties = [title]
        let author = EntityDescription()
        author.name = "Author"
        return (book, title, author)
    }

    // https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel
    // ("the model is editable until it is used by a persistent store coordinator")
    @Test("A model built in code is frozen by the coordinator that uses it, not before")
    func freezesOnFirstUse() throws {
        let (book, title, author) = parts()
        let model = ManagedObjectModel()
        model.entities = [book, author]
        #expect(!model.isFrozen && !book.isFrozen && !title.isFrozen)
        title.isOptional = false
        #expect(book.attributesByName["title"]?.isOptional == false)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        #expect(model.isFrozen && book.isFrozen && title.isFrozen)
        #expect(model.entities.map(\.name) == ["Author", "Book"])
        #expect(book.attributes.first === title && book.entityNumber > 0 && book.versionHash.count == 32)
        _ = try coordinator.addPersistentStore(type: .inMemory)
    }

    // https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel
    @Test("Changing a frozen model's entity stops the program, as Apple's raises")
    func mutatingAFrozenModelStops() async {
        await #expect(processExitsWith: .failure) {
            let model = try ManagedObjectModel { EntityDescription("Book") { AttributeDescription("title", .string) } }
            model.entities[0].attributes[0].name = "heading"
        }
    }

    // https://developer.apple.com/documentation/coredata/nspersistentstorecoordinator/addpersistentstore(type:configuration:at:options:)
    @Test("An invalid model built in code throws from its first throwing use, naming the culprit, and can be corrected")
    func invalidModelThrows() throws {
        let (book, _, author) = parts()
        let again = AttributeDescription("title", .string)
        book.properties.append(again)
        let model = ManagedObjectModel()
        model.entities = [book, author]
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let error = #expect(throws: CoreDataError.self) { try coordinator.addPersistentStore(type: .inMemory) }
        #expect(error?.message == "Entity Book has two properties named title: Book declares it twice")
        #expect(!model.isFrozen)
        // The getters do not trap on it: they give the entities without derived data.
        #expect(model.entitiesByName.keys.sorted() == ["Author", "Book"])
        book.properties.removeLast()
        _ = try coordinator.addPersistentStore(type: .inMemory)
        #expect(model.isFrozen)
    }

    // https://developer.apple.com/documentation/coredata/nsrelationshipdescription/destinationentity
    @Test("A relationship to an entity the model lacks is refused by name, never a trap")
    func danglingDestinationThrows() throws {
        let (book, _, author) = parts()
        let writer = RelationshipDescription()
        writer.name = "writer"
        writer.destinationEntity = author
        writer.maxCount = 1
        book.properties.append(writer)
        let model = ManagedObjectModel()
        model.entities = [book]
        let error = #expect(throws: CoreDataError.self) { try model.checkValidity() }
        #expect(
            error?.message
                == "Relationship Book.writer points to the entity Author, which the model does not declare")
    }

    // https://developer.apple.com/documentation/coredata/nsentitydescription (NSCopying)
    @Test("A copy of a frozen model's description changes without changing the model")
    func copiesAreIndependent() throws {
        let model = try booksModel()
        let original = try #require(model.entitiesByName["Book"])
        let hash = original.versionHash
        let copy = original.copy()
        #expect(!copy.isFrozen && copy == original && copy !== original)
        copy.versionHashModifier = "2"
        let title = try #require(copy.properties.first as? AttributeDescription)
        title.isOptional.toggle()
        #expect(original.versionHashModifier == nil && original.properties.first?.isOptional != title.isOptional)
        let variant = try ManagedObjectModel(entities: model.entities.filter { $0.name != "Book" } + [copy])
        #expect(variant.entitiesByName["Book"] === copy && variant.entitiesByName["Book"]?.versionHash != hash)
        #expect(variant.entitiesByName["Publisher"] !== model.entitiesByName["Publisher"])
        #expect(model.entitiesByName["Book"]?.versionHash == hash)
    }

    // https://developer.apple.com/documentation/coredata/nsentitydescription/managedobjectmodel
    @Test("An entity given to a second model, or a property to a second entity, is copied into it")
    func sharedDescriptionsAreCopied() throws {
        let title = AttributeDescription("title", .string)
        let book = EntityDescription("Book") { title }
        let film = EntityDescription("Film") { title }
        #expect(book.properties[0] === title && film.properties[0] !== title)
        let first = try ManagedObjectModel(entities: [book, film])
        let second = try ManagedObjectModel(entities: [book])
        #expect(first.entitiesByName["Book"] === book && book.managedObjectModel === first)
        #expect(second.entitiesByName["Book"] !== book && second.entitiesByName["Book"] == book)
    }
}
