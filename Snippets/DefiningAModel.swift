// A model with a to-many relationship, an abstract parent entity, a subclass with typed
// properties, and the errors a wrong model or a missing value give.
import ObjectGraph

// snippet.subclass
final class Book: ManagedObject {
    @Managed("title") var title: String?
    @Managed("salesRank") var salesRank: Int?
}
// snippet.end

// snippet.model
let model = try ManagedObjectModel {
    EntityDescription("Publisher") {
        AttributeDescription("name", .string, optional: false)
        RelationshipDescription("books", toMany: "Book", inverse: "publisher", deleteRule: .cascade)
    }
    EntityDescription("Book", class: Book.self) {
        AttributeDescription("title", .string, optional: false, maxValue: 200)
        AttributeDescription("salesRank", .integer32, defaultValue: 0, indexed: true)
        RelationshipDescription("publisher", toOne: "Publisher", inverse: "books")
    }
    // An abstract entity has no objects of its own; a fetch of Item returns the Tapes.
    EntityDescription("Item", abstract: true) {
        AttributeDescription("price", .decimal)
    }
    EntityDescription("Tape", parent: "Item") {
        AttributeDescription("minutes", .integer16)
    }
}
print(model)
// Book(title: String, salesRank: Integer 32, publisher -> Publisher)
// Item(price: Decimal)
// Publisher(name: String, books -> [Book])
// Tape(price: Decimal, minutes: Integer 16)
// snippet.end

// snippet.invalid
do {
    _ = try ManagedObjectModel {
        EntityDescription("Book") {
            RelationshipDescription("publisher", toOne: "Publisher", inverse: "books")
        }
        EntityDescription("Publisher") {
            AttributeDescription("name", .string)
        }
    }
} catch let error as CoreDataError {
    print(error.kind)   // exception NSInvalidArgumentException (Core Data has no code for it)
    print(error.message)
    // Relationship Book.publisher names the inverse Publisher.books, which does not exist;
    // declare it, pointing back to Book
}
// snippet.end

// snippet.objects
let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
try coordinator.addPersistentStore(type: .inMemory)
let context = ManagedObjectContext(coordinator: coordinator)

let publisher = try context.insertNewObject(forEntityName: "Publisher")
try publisher.checkedSetValue("Apress", forKey: "name")
let book = try context.insertNewObject(forEntityName: "Book") as! Book
book.title = "Core Data on Linux"
try book.checkedSetValue(publisher, forKey: "publisher")       // the inverse, books, follows
print(publisher.mutableSetValue(forKey: "books").count)   // 1

let untitled = try context.insertNewObject(forEntityName: "Book")
do {
    try context.save()
} catch let error as CoreDataError where error.code == .missingMandatoryProperty {
    print(error)        // Core Data error 1570: Book.title of x-coredata:///Book/t3: is a required value
    try context.checkedDelete(untitled)
}
try context.save()
// snippet.end
