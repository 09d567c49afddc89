import Foundation
import Testing

@testable import ObjectGraph

final class Shelf: ManagedObject {
    @Managed("label") var label: String?
    @Managed("volumes") var volumes: Set<Volume>
}

final class Volume: ManagedObject {
    @Managed("title") var title: String?
    @Managed("pages") var pages: Int?
    @Managed("shelf") var shelf: Shelf?
}

// Apple, Core Data Programming Guide, "Creating and Saving Managed Objects" (custom
// NSManagedObject subclasses with @NSManaged properties) and "Fetching Managed Objects",
// "Fetching and Entity Inheritance".
@Suite struct TypedSubclassAndInheritanceTests {
    static let storeTypes: [StoreType] = [.inMemory, .sqlite, .postgres]

    @Test(arguments: storeTypes)
    func typedPropertiesReadAndWriteThroughTheContext(_ type: StoreType) throws {
        let model = try ManagedObjectModel {
            EntityDescription("Shelf", class: Shelf.self) {
                AttributeDescription("label", .string)
                RelationshipDescription("volumes", toMany: "Volume", inverse: "shelf")
            }
            EntityDescription("Volume", class: Volume.self) {
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer32)
                RelationshipDescription("shelf", toOne: "Shelf", inverse: "volumes")
            }
        }
        guard let fixture = try StackFixture.ifAvailable(type, model: model) else { return }
        let shelf = try #require(try fixture.context.insertNewObject(forEntityName: "Shelf") as? Shelf)
        shelf.label = "Fiction"
        let volume = try #require(try fixture.context.insertNewObject(forEntityName: "Volume") as? Volume)
        volume.title = "Dune"
        volume.pages = 412
        volume.shelf = shelf
        #expect(shelf.volumes == [volume])
        try fixture.context.save()

        let other = fixture.secondContext()
        let fetched = try #require(try other.fetch(FetchRequest(entityName: "Volume")).first as? Volume)
        #expect(fetched.title == "Dune")
        #expect(fetched.pages == 412)
        #expect(fetched.shelf?.label == "Fiction")
        #expect(try fetched.checkedValue(forKeyPath: "shelf.label") as? String == "Fiction")
    }

    func inheritanceModel() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Person", abstract: true) {
                AttributeDescription("name", .string)
                RelationshipDescription("employer", toOne: "Company", inverse: "people")
            }
            EntityDescription("Employee", parent: "Person") {
                AttributeDescription("salary", .double)
                RelationshipDescription("bossOf", toMany: "Company", inverse: "boss")
            }
            EntityDescription("Contractor", parent: "Person") { AttributeDescription("rate", .double) }
            EntityDescription("Company") {
                AttributeDescription("name", .string)
                RelationshipDescription("people", toMany: "Person", inverse: "employer")
                RelationshipDescription("boss", toOne: "Employee", inverse: "bossOf")
            }
            EntityDescription("Manager", parent: "Employee")
        }
    }

    // "If you fetch an abstract entity, you get instances of its concrete sub-entities";
    // includesSubentities defaults to true.
    @Test(arguments: storeTypes)
    func fetchingAnAbstractEntityReturnsItsSubentities(_ type: StoreType) throws {
        guard let fixture = try StackFixture.ifAvailable(type, model: try inheritanceModel()) else { return }
        let context = fixture.context
        #expect(throws: CoreDataError.self) { try context.insertNewObject(forEntityName: "Person") }
        let company = try context.insertNewObject(forEntityName: "Company")
        try company.checkedSetValue("Acme", forKey: "name")
        for (entity, name) in [("Employee", "Ann"), ("Contractor", "Cid"), ("Manager", "Mo")] {
            let p = try context.insertNewObject(forEntityName: entity)
            try p.checkedSetValue(name, forKey: "name")
            try p.checkedSetValue(company, forKey: "employer")
        }
        try context.save()
        let other = fixture.secondContext()
        let people = FetchRequest(entityName: "Person")
        people.sortDescriptors = [SortDescriptor(key: "name")]
        #expect(try other.fetch(people).map(\.entity.name) == ["Employee", "Contractor", "Manager"])
        let employees = FetchRequest(entityName: "Employee")
        #expect(try other.count(for: employees) == 2)
        employees.includesSubentities = false
        #expect(try other.count(for: employees) == 1)
        let acme = try #require(try other.fetch(FetchRequest(entityName: "Company")).first)
        #expect((try acme.checkedValue(forKey: "people") as? Set<ManagedObject>)?.count == 3)
    }

    // All entities of a hierarchy share their root's table; a to-one whose destination has
    // sub-entities also stores the destination's Z_ENT (coredata.md 4.3 and 4.5).
    @Test func subentitiesShareTheRootTable() throws {
        let schema = RelationalSchema(model: try inheritanceModel())
        #expect(schema.tables.map(\.name) == ["ZCOMPANY", "ZPERSON"])
        let person = try #require(schema.tables.first { $0.name == "ZPERSON" })
        // In Core Data's order: keys, then numbers (the sub-entities' in name order), then strings.
        #expect(person.columns.map(\.name) == ["ZEMPLOYER", "ZRATE", "ZSALARY", "ZNAME"])
        let company = try #require(schema.tables.first { $0.name == "ZCOMPANY" })
        #expect(company.columns.map(\.name) == ["ZBOSS", "Z4_BOSS", "ZNAME"])

        let fixture = try StackFixture(.sqlite, model: try inheritanceModel())
        let boss = try fixture.context.insertNewObject(forEntityName: "Manager")
        let acme = try fixture.context.insertNewObject(forEntityName: "Company")
        try acme.checkedSetValue(boss, forKey: "boss")
        try fixture.context.save()
        let other = fixture.secondContext()
        let fetched = try #require(try other.fetch(FetchRequest(entityName: "Company")).first)
        #expect((try fetched.checkedValue(forKey: "boss") as? ManagedObject)?.entity.name == "Manager")
    }
}
