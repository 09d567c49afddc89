// predicates-1: Bob in any case
//
// Return the people whose name equals the given name when case is ignored, but not accents.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// predicates-1.
func people(named name: String, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
    request.predicate = NSPredicate(format: "name ==[c] %@", name)
    return try context.fetch(request)
}
