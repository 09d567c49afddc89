// compounding-1: From any of these publishers
//
// Return the books whose publisher is any of the named publishers; with no names, no books.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// compounding-1. An OR of no subpredicates is FALSEPREDICATE, so no names finds no books.
func books(fromAnyOf publishers: [String], in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
    request.predicate = NSCompoundPredicate(
        orPredicateWithSubpredicates: publishers.map {
            NSPredicate(format: "publisher.name == %@", $0)
        })
    return try context.fetch(request)
}
