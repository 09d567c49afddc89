// compounding-4: None of the above
//
// Return the books that match none of the given predicates; with no predicates, every book.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// compounding-4. A NOT looks only at its first subpredicate, so OR them first.
func books(matchingNoneOf predicates: [NSPredicate], in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
    request.predicate = NSCompoundPredicate(
        notPredicateWithSubpredicate:
            NSCompoundPredicate(orPredicateWithSubpredicates: predicates))
    return try context.fetch(request)
}
