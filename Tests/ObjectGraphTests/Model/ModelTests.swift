import Testing

@testable import ObjectGraph

// Apple, NSEntityDescription and NSRelationshipDescription reference: entities, properties,
// inverses; Core Data Programming Guide, "Creating a Managed Object Model".
@Suite struct ModelTests {
    @Test func inheritedPropertiesAndEntityNumbers() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Person", abstract: true) { AttributeDescription("name", .string) }
            EntityDescription("Employee", parent: "Person") { AttributeDescription("salary", .double) }
            EntityDescription("Manager", parent: "Employee") { AttributeDescription("reports", .integer16) }
            EntityDescription("Account") { AttributeDescription("number", .string) }
        }
        let manager = try model.entity(named: "Manager")
        #expect(manager.attributes.map(\.name) == ["name", "salary", "reports"])
        #expect(manager.rootEntityName == "Person")
        // Roots in name order, each followed by its sub-entities (coredata.md 4.4).
        #expect(
            model.entities.map { "\($0.name)=\($0.entityNumber)" }.sorted() == [
                "Account=1", "Employee=3", "Manager=4", "Person=2",
            ])
        #expect(model.entityAndSubentities(of: "Person").map(\.name) == ["Person", "Employee", "Manager"])
        #expect(model.isEntity("Manager", kindOf: "Person"))
        #expect(!model.isEntity("Person", kindOf: "Manager"))
    }

    @Test(arguments: [
        ("unknown destination", "points to the entity Nowhere"),
        ("missing inverse", "names the inverse Publisher.titles, which does not exist"),
        ("duplicate property", "has two properties named title"),
        ("unknown parent", "names the parent entity Ghost"),
    ])
    func invalidModelsAreRefused(_ kind: String, _ expected: String) throws {
        let error = #expect(throws: CoreDataError.self) {
            switch kind {
            case "unknown destination":
                _ = try ManagedObjectModel {
                    EntityDescription("Book") {
                        RelationshipDescription("publisher", toOne: "Nowhere", inverse: "books")
                    }
                }
            case "missing inverse":
                _ = try ManagedObjectModel {
                    EntityDescription("Book") {
                        RelationshipDescription("publisher", toOne: "Publisher", inverse: "titles")
                    }
                    EntityDescription("Publisher") { AttributeDescription("name", .string) }
                }
            case "duplicate property":
                _ = try ManagedObjectModel {
                    EntityDescription("Book") {
                        AttributeDescription("title", .string)
                        AttributeDescription("title", .string)
                    }
                }
            default:
                _ = try ManagedObjectModel { EntityDescription("Book", parent: "Ghost") }
            }
        }
        #expect(error?.exceptionName == .invalidArgument)
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
    }

    @Test func mismatchedInverseIsRefused() throws {
        let error = #expect(throws: CoreDataError.self) {
            _ = try ManagedObjectModel {
                EntityDescription("Book") {
                    RelationshipDescription("publisher", toOne: "Publisher", inverse: "books")
                    RelationshipDescription("editor", toOne: "Publisher", inverse: "books")
                }
                EntityDescription("Publisher") {
                    RelationshipDescription("books", toMany: "Book", inverse: "publisher")
                }
            }
        }
        #expect(error?.message.contains("do not match") == true)
    }

    // Core Data Model Versioning guide: the hash changes with the type, not with a default value.
    @Test func versionHashesFollowStorageNotDefaults() throws {
        func model(_ type: AttributeType, default value: Any?) throws -> ManagedObjectModel {
            try ManagedObjectModel {
                EntityDescription("Item") { AttributeDescription("n", type, defaultValue: value) }
            }
        }
        let base = try model(.integer32, default: nil).entityVersionHashesByName["Item"]
        #expect(base?.count == 32)
        #expect(try model(.integer32, default: 5).entityVersionHashesByName["Item"] == base)
        #expect(try model(.integer64, default: nil).entityVersionHashesByName["Item"] != base)
    }

    // coredata.md 4.3-4.5: tables per root, Z columns, join tables, FK indexes.
    @Test func sqliteLayoutFollowsCoreData() throws {
        let schema = RelationalSchema(model: try booksModel())
        #expect(schema.tables.map(\.name) == ["ZAUTHOR", "ZBOOK", "ZPUBLISHER"])
        let book = schema.entities["Book"]!
        #expect(book.attributeColumns == ["title": "ZTITLE", "salesRank": "ZSALESRANK", "isbn": "ZISBN"])
        #expect(book.toOneColumns == ["publisher": "ZPUBLISHER"])
        let join = schema.joinTables["Author.books"]!
        #expect(join.name == "Z_1BOOKS")
        #expect(join.ownerColumn == "Z_1AUTHORS" && join.destinationColumn == "Z_2BOOKS")
        #expect(schema.creationStatements.contains("CREATE INDEX ZBOOK_ZPUBLISHER_INDEX ON ZBOOK (ZPUBLISHER)"))
    }
}
