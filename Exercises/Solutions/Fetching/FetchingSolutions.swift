// Reference solutions to the chapter 1 exercises. Try the exercises first!
import ObjectGraph

public enum FetchingSolutions {
    /// fetching-1.
    public static func booksSortedByTitle(in context: ManagedObjectContext) throws -> [ManagedObject] {
        let request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [SortDescriptor(key: "title", ascending: true, comparator: .caseInsensitiveCompare)]
        return try context.fetch(request)
    }

    /// fetching-2.
    public static func employees(earningMoreThan amount: Int, in context: ManagedObjectContext) throws -> [ManagedObject] {
        let request = FetchRequest(entityName: "Employee")
        request.predicate = try Predicate(format: "salary > %@", amount)
        request.sortDescriptors = [SortDescriptor(key: "salary", ascending: false)]
        return try context.fetch(request)
    }

    /// fetching-3.
    public static func lowestSalary(in context: ManagedObjectContext) throws -> Decimal? {
        let request = FetchRequest(entityName: "Employee")
        request.resultType = .dictionary
        request.propertiesToFetch = [.expression(ExpressionDescription(
            name: "lowest", expression: try Expression(format: "min:(salary)"), resultType: .decimal))]
        return try context.fetchDictionaries(request).first?["lowest"] as? Decimal
    }
}
