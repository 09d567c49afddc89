/// Convenience fetches in the manner of the utility class of LaMarche's "Fetch, Clarus,
/// Fetch" (MTCDUtilities), throwing errors where the Objective-C original raised exceptions.
///
/// ```swift
/// let all = try FetchUtilities.objects(forEntityNamed: "Book", in: context)
/// let book = try FetchUtilities.object(forEntityNamed: "Book", matchingKey: "id", value: 192, in: context)
/// let either = try FetchUtilities.objects(forEntityNamed: "Book",
///     matchingKeysAndValues: ["publisher": "BookCo", "salesRank": 482769], usingOR: true, in: context)
/// ```
public enum FetchUtilities {
    /// The article's MTTooManyEntitiesReturnedException: a fetch for one object found several.
    public struct TooManyEntitiesReturned: Error, CustomStringConvertible {
        /// The entity fetched.
        public let entityName: String
        /// The predicate that matched too many.
        public let predicateFormat: String
        /// How many objects matched.
        public let count: Int

        /// Says what matched and what to do.
        public var description: String {
            "Too many entities returned: \(count) \(entityName) objects match \(predicateFormat), where one was expected. Use objects(forEntityNamed:matchingKey:value:in:) to get them all, or match on a key whose values are unique."
        }
    }

    /// Every object of an entity (MTCDUtilities `objectsForEntityNamed:inContext:`).
    ///
    /// Throws for an entity the model does not have, naming the entities it does.
    public static func objects(forEntityNamed entityName: String, in context: ManagedObjectContext) throws
        -> [ManagedObject]
    {
        try context.fetch(FetchRequest(entityName: entityName))
    }

    /// The objects whose value for a key equals `value` (`objectsForEntityNamed:matchingKey:
    /// andValue:inContext:`), built as `%K == %@` so the key and value are quoted for you.
    public static func objects(
        forEntityNamed entityName: String, matchingKey key: String, value: Any?, in context: ManagedObjectContext
    ) throws -> [ManagedObject] {
        let request = FetchRequest(entityName: entityName)
        request.predicate = try Predicate(checkedFormat: "%K == %@", key, value)
        return try context.fetch(request)
    }

    /// The one object whose value for a key equals `value` (`objectForEntityNamed:matchingKey:
    /// andValue:inContext:`): nil when none matches, and ``TooManyEntitiesReturned`` when
    /// several do.
    public static func object(
        forEntityNamed entityName: String, matchingKey key: String, value: Any?, in context: ManagedObjectContext
    ) throws -> ManagedObject? {
        let request = FetchRequest(entityName: entityName)
        request.predicate = try Predicate(checkedFormat: "%K == %@", key, value)
        let objects = try context.fetch(request)
        guard objects.count <= 1 else {
            throw TooManyEntitiesReturned(
                entityName: entityName, predicateFormat: request.predicate!.predicateFormat, count: objects.count)
        }
        return objects.first
    }

    /// The objects matching every key and value (AND), or any of them (OR)
    /// (`objectsForEntityNamed:matchingKeysAndValues:usingOR:inContext:`), as a compound of
    /// `%K == %@` predicates in the order given.
    public static func objects(
        forEntityNamed entityName: String, matchingKeysAndValues pairs: KeyValuePairs<String, Any?>, usingOR: Bool,
        in context: ManagedObjectContext
    ) throws -> [ManagedObject] {
        let request = FetchRequest(entityName: entityName)
        request.predicate = try predicate(matchingKeysAndValues: pairs, usingOR: usingOR)
        return try context.fetch(request)
    }

    /// The compound predicate `objects(forEntityNamed:matchingKeysAndValues:usingOR:in:)`
    /// fetches with.
    public static func predicate(matchingKeysAndValues pairs: KeyValuePairs<String, Any?>, usingOR: Bool) throws
        -> Predicate
    {
        let subpredicates = try pairs.map { try Predicate(checkedFormat: "%K == %@", $0.key, $0.value) }
        return usingOR ? .or(subpredicates) : .and(subpredicates)
    }
}
