// compounding-2: Bestsellers from anyone else
//
// Return the books ranked better than the given rank (salesRank < rank) that the given
// publisher did not publish; books with no publisher count as not published by it.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// compounding-2. `NOT publisher.name == %@` is true when the book has no publisher.
func bestsellers(rankedBetterThan rank: Int, notFrom publisher: String, in context: NSManagedObjectContext) throws
    -> [NSManagedObject]
{
    let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
    request.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
        NSPredicate(format: "salesRank < %@", NSNumber(value: rank)),
        NSCompoundPredicate(notPredicateWithSubpredicate: NSPredicate(format: "publisher.name == %@", publisher)),
    ])
    return try context.fetch(request)
}
