import CoreData

/// Zarra's custom migration policy (his Listing 12), in Swift: version 1 to version 2 of the
/// ToDo model, where to-dos whose title begins with "a" must never alert.
///
/// The versioning chapters show it; `todo migrate --policy doNotAlertForA`, ObjectGraph's
/// migration tests, the migration crash child and the benchmark run it. It is open so that a
/// chapter can watch it work.
open class DoNotAlertForAPolicy: NSEntityMigrationPolicy {
    /// Creates the policy; the migration manager makes one per entity mapping.
    public required init() {}

    // ANCHOR: listing-12
    /// Makes the version 2 to-do for a version 1 to-do: the attributes copied, `doNotAlert`
    /// set for titles that begin with "a", and the pair associated so that the second pass can
    /// give the new to-do its category.
    open override func createDestinationInstances(
        forSource source: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        let todo = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: manager.destinationContext)
        for key in ["title", "dueDate", "completed"] {
            todo.setValue(source.value(forKey: key), forKey: key)
        }
        let title = (source.value(forKey: "title") as? String ?? "").lowercased()
        todo.setValue(title.hasPrefix("a"), forKey: "doNotAlert")
        manager.associate(sourceInstance: source, withDestinationInstance: todo, for: mapping)
    }
    // ANCHOR_END: listing-12
}

extension ToDoModels {
    /// The mapping model of the article: Xcode's default mapping from version 1 to version 2,
    /// with the ToDo mapping made custom and given ``DoNotAlertForAPolicy``.
    public static func doNotAlertMappingModel(policy: DoNotAlertForAPolicy.Type = DoNotAlertForAPolicy.self) throws
        -> NSMappingModel
    {
        // ANCHOR: custom-mapping
        let mapping = NSMappingModel.defaultMappingModel(
            forSourceModel: try version1(), destinationModel: try version2())
        guard let todos = mapping.entityMappingsByName["ToDoToToDo"] else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSMigrationMissingMappingModelError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "the default mapping from version 1 to 2 has no ToDoToToDo entity mapping"
                ])
        }
        todos.mappingType = .customEntityMappingType
        todos.entityMigrationPolicyType = policy
        // ANCHOR_END: custom-mapping
        return mapping
    }
}
