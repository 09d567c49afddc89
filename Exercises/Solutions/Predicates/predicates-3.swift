// predicates-3: Teenagers
//
// Return the people aged 13 to 19, both included, youngest first.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// predicates-3.
func teenagers(in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
    request.predicate = NSPredicate(format: "age BETWEEN {13, 19}")
    request.sortDescriptors = [NSSortDescriptor(key: "age", ascending: true)]
    return try context.fetch(request)
}
