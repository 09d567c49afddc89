// Reference solutions to the chapter 3 exercises. Try the exercises first!
import ObjectGraph

public enum CompoundingSolutions {
    /// compounding-1. An OR of no subpredicates is FALSEPREDICATE, so no names finds no books.
    public static func books(fromAnyOf publishers: [String], in context: ManagedObjectContext) throws -> [ManagedObject] {
        let request = FetchRequest(entityName: "Book")
        request.predicate = .or(try publishers.map { try Predicate(format: "publisher.name == %@", $0) })
        return try context.fetch(request)
    }

    /// compounding-2. `NOT publisher.name == %@` is true when the book has no publisher.
    public static func bestsellers(rankedBetterThan rank: Int, notFrom publisher: String, in context: ManagedObjectContext) throws -> [ManagedObject] {
        let request = FetchRequest(entityName: "Book")
        request.predicate = .and([
            try Predicate(format: "salesRank < %@", rank),
            .not(try Predicate(format: "publisher.name == %@", publisher)),
        ])
        return try context.fetch(request)
    }

    /// compounding-3. Without the parentheses AND would bind first.
    public static func predicate(publishedBy first: String, or second: String, rankedBetterThan rank: Int) throws -> ObjectGraph.Predicate {
        try Predicate(format: "(publisher.name == %@ OR publisher.name == %@) AND salesRank < %@", first, second, rank)
    }

    /// compounding-4. A NOT looks only at its first subpredicate, so OR them first.
    public static func books(matchingNoneOf predicates: [ObjectGraph.Predicate], in context: ManagedObjectContext) throws -> [ManagedObject] {
        let request = FetchRequest(entityName: "Book")
        request.predicate = .not(.or(predicates))
        return try context.fetch(request)
    }
}
