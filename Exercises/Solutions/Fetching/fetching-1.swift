// fetching-1: Every book, by title
//
// Return every Book, sorted by title from A to Z without regard to case.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import ObjectGraph

/// fetching-1.
func booksSortedByTitle(in context: ManagedObjectContext) throws -> [ManagedObject] {
    let request = FetchRequest(entityName: "Book")
    request.sortDescriptors = [SortDescriptor(key: "title", ascending: true, comparator: .caseInsensitiveCompare)]
    return try context.fetch(request)
}
