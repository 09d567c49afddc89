// contexts-1: Import in the background
//
// Insert one Book per title on a new background context of the container, save it, and
// return the books' object IDs in the order of the titles.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// contexts-1. The IDs are taken after the save, when they are permanent: a temporary ID means
/// nothing to another context.
func importBooks(titled titles: [String], into container: NSPersistentContainer) throws -> [NSManagedObjectID] {
    let context = container.newBackgroundContext()
    return try context.performAndWait {
        let books = titles.map { title in
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue(title, forKey: "title")
            return book
        }
        try context.save()
        return books.map(\.objectID)
    }
}
