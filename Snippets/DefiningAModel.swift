// A model with a to-many relationship, an abstract parent entity, a subclass with typed
// properties, and the errors a wrong model or a missing value give.
//
// The model is declared with this package's builders under Apple's class names: Apple's Swift
// API sets a description's properties one by one, which does not compile here (descriptions
// are values; see the book's "What differs on Linux"), and @NSManaged is @Managed.
import CoreData

// snippet.subclass
final class Book: NSManagedObject {
    @Managed("title") var title: String?
    @Managed("salesRank") var salesRank: Int?
}
// snippet.end

// snippet.model
let model = try NSManagedObjectModel {
    NSEntityDescription("Publisher") {
        NSAttributeDescription("name", .string, optional: false)
        NSRelationshipDescription("books", toMany: "Book", inverse: "publisher", deleteRule: .cascade)
    }
    NSEntityDescription("Book", class: Book.self) {
        NSAttributeDescription("title", .string, optional: false, maxValue: 200)
        NSAttributeDescription("salesRank", .integer32, defaultValue: 0, indexed: true)
        NSRelationshipDescription("publisher", toOne: "Publisher", inverse: "books")
    }
    // An abstract entity has no objects of its own; a fetch of Item returns the Tapes.
    NSEntityDescription("Item", abstract: true) {
        NSAttributeDescription("price", .decimal)
    }
    NSEntityDescription("Tape", parent: "Item") {
        NSAttributeDescription("minutes", .integer16)
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
    _ = try NSManagedObjectModel {
        NSEntityDescription("Book") {
            NSRelationshipDescription("publisher", toOne: "Publisher", inverse: "books")
        }
        NSEntityDescription("Publisher") {
            NSAttributeDescription("name", .string)
        }
    }
} catch {
    print(error)
    // Core Data exception NSInvalidArgumentException: Relationship Book.publisher names the
    // inverse Publisher.books, which does not exist; declare it, pointing back to Book
}
// snippet.end

// snippet.objects
let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType) // used on the main thread
context.persistentStoreCoordinator = coordinator

let publisher = NSEntityDescription.insertNewObject(forEntityName: "Publisher", into: context)
publisher.setValue("Apress", forKey: "name")
let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context) as! Book
book.title = "Core Data on Linux"
book.setValue(publisher, forKey: "publisher") // the inverse, books, follows
print(publisher.mutableSetValue(forKey: "books").count) // 1

let untitled = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
do {
    try context.save()
} catch let error where (error as NSError).code == NSValidationMissingMandatoryPropertyError {
    print(error) // Core Data error 1570: Book.title of x-coredata:///Book/t3: is a required value
    context.delete(untitled)
}
try context.save()
// snippet.end
