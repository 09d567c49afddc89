// Reference solutions to the chapter 2 exercises. Try the exercises first!
import ObjectGraph

public enum PredicatesSolutions {
    /// predicates-1.
    public static func people(named name: String, in context: ManagedObjectContext) throws -> [ManagedObject] {
        let request = FetchRequest(entityName: "Person")
        request.predicate = try ObjectGraph.Predicate(format: "name ==[c] %@", name)
        return try context.fetch(request)
    }

    /// predicates-2.
    public static func predicate(key: String, equals value: Any) throws -> ObjectGraph.Predicate {
        try ObjectGraph.Predicate(format: "%K == %@", key, value)
    }

    /// predicates-3.
    public static func teenagers(in context: ManagedObjectContext) throws -> [ManagedObject] {
        let request = FetchRequest(entityName: "Person")
        request.predicate = try ObjectGraph.Predicate(format: "age BETWEEN {13, 19}")
        request.sortDescriptors = [SortDescriptor(key: "age", ascending: true)]
        return try context.fetch(request)
    }

    /// predicates-4.
    public static func person(named name: String, in context: ManagedObjectContext) throws -> ManagedObject? {
        try FetchUtilities.object(forEntityNamed: "Person", matchingKey: "name", value: name, in: context)
    }
}
