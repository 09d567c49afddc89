// fetching-2: Who earns more?
//
// Return the employees who earn more than the given amount, highest salary first.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// fetching-2. `%@` takes an object, so the amount goes in as an NSNumber (a Swift `Int`
/// passed for `%@` crashes on a Mac).
func employees(earningMoreThan amount: Int, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
    request.predicate = NSPredicate(format: "salary > %@", NSNumber(value: amount))
    request.sortDescriptors = [NSSortDescriptor(key: "salary", ascending: false)]
    return try context.fetch(request)
}
