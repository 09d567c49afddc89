// conflicts-1: Import without duplicates
//
// Insert one Book per row (its code and title) on a background context and save it, so that
// a code the store already holds updates that book's title instead of failing the save.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// conflicts-1. The uniqueness constraint finds the stored codes; the merge policy makes each
/// duplicate an update of the stored book, its values the import's.
func importBooks(_ rows: [(code: String, title: String)], into container: NSPersistentContainer) throws {
    let context = container.newBackgroundContext()
    try context.performAndWait {
        context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        for (code, title) in rows {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue(code, forKey: "code")
            book.setValue(title, forKey: "title")
        }
        try context.save()
    }
}
