// fetching-1: Every book, by title
//
// Return every Book, sorted by title from A to Z without regard to case.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// fetching-1.
func booksSortedByTitle(in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
    request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true, comparator: .caseInsensitiveCompare)]
    return try context.fetch(request)
}
