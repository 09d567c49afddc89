// fetching-3: The lowest salary
//
// Return the lowest salary of all saved employees, computed by the store, or nil when there
// are none.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// fetching-3.
func lowestSalary(in context: NSManagedObjectContext) throws -> Decimal? {
    let request = NSFetchRequest<NSDictionary>(entityName: "Employee")
    request.resultType = .dictionaryResultType
    request.propertiesToFetch = [
        .expression(
            NSExpressionDescription(
                name: "lowest", expression: NSExpression(format: "min:(salary)"), resultType: .decimalAttributeType))
    ]
    return try context.fetch(request).first?["lowest"] as? Decimal
}
