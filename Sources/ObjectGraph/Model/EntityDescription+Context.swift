import Foundation

/// Apple's class methods of NSEntityDescription that reach a context: finding an entity
/// through a context's model, and inserting an object by entity name.
extension EntityDescription {
    /// The entity of a name in the model of a context's coordinator, or nil
    /// (entity(forEntityName:in:)).
    public static func entity(forEntityName name: String, in context: ManagedObjectContext) -> EntityDescription? {
        context.model.entitiesByName[name]
    }

    /// Inserts a new object of an entity into a context (insertNewObject(forEntityName:into:)).
    ///
    /// An entity the model lacks, an abstract entity or a coordinator with no store stops the
    /// program, as Apple's raises; ``ManagedObjectContext/insertNewObject(forEntityName:)``
    /// throws the same error instead.
    @discardableResult
    public static func insertNewObject(forEntityName name: String, into context: ManagedObjectContext) -> ManagedObject
    {
        do { return try context.insertNewObject(forEntityName: name) } catch { ManagedObject.raise(error) }
    }
}
