// compounding-1: From any of these publishers
//
// Return the books whose publisher is any of the named publishers; with no names, no books.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import ObjectGraph

/// compounding-1. An OR of no subpredicates is FALSEPREDICATE, so no names finds no books.
func books(fromAnyOf publishers: [String], in context: ManagedObjectContext) throws -> [ManagedObject] {
    let request = FetchRequest(entityName: "Book")
    request.predicate = .or(try publishers.map { try Predicate(checkedFormat: "publisher.name == %@", $0) })
    return try context.fetch(request)
}
