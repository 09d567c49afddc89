// predicates-3: Teenagers
//
// Return the people aged 13 to 19, both included, youngest first.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import ObjectGraph

/// predicates-3.
func teenagers(in context: ManagedObjectContext) throws -> [ManagedObject] {
    let request = FetchRequest(entityName: "Person")
    request.predicate = try Predicate(checkedFormat: "age BETWEEN {13, 19}")
    request.sortDescriptors = [SortDescriptor(key: "age", ascending: true)]
    return try context.fetch(request)
}
