// fetching-2: Who earns more?
//
// Return the employees who earn more than the given amount, highest salary first.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import ObjectGraph

/// fetching-2.
func employees(earningMoreThan amount: Int, in context: ManagedObjectContext) throws -> [ManagedObject] {
    let request = FetchRequest(entityName: "Employee")
    request.predicate = try Predicate(checkedFormat: "salary > %@", amount)
    request.sortDescriptors = [SortDescriptor(key: "salary", ascending: false)]
    return try context.fetch(request)
}
