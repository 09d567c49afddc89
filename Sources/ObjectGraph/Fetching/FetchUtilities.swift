/// Convenience fetches in the manner of the utility class of LaMarche's "Fetch, Clarus,
/// Fetch" (MTCDUtilities), throwing errors where the Objective-C original raised exceptions.
public enum FetchUtilities {
    /// Every object of an entity (MTCDUtilities `objectsForEntityNamed:inContext:`).
    ///
    /// Throws for an entity the model does not have, naming the entities it does.
    public static func objects(forEntityNamed entityName: String, in context: ManagedObjectContext) throws -> [ManagedObject] {
        try context.fetch(FetchRequest(entityName: entityName))
    }
}
