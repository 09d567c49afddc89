// fetching-3: The lowest salary
//
// Return the lowest salary of all saved employees, computed by the store, or nil when there
// are none.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import ObjectGraph

/// fetching-3.
func lowestSalary(in context: ManagedObjectContext) throws -> Decimal? {
    let request = FetchRequest(entityName: "Employee")
    request.resultType = .dictionary
    request.propertiesToFetch = [.expression(ExpressionDescription(
        name: "lowest", expression: try Expression(checkedFormat: "min:(salary)"), resultType: .decimal))]
    return try context.fetchDictionaries(request).first?["lowest"] as? Decimal
}
