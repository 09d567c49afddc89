// migration-policies-1: Done means quiet
//
// Write the policy of the ToDo mapping from version 1 to version 2 that sets doNotAlert for
// the to-dos already completed, and only those, keeping every to-do's attributes and category.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// migration-policies-1. Super makes the to-do from the attribute mappings and associates
/// it; the policy only adjusts doNotAlert.
final class DoNotAlertWhenCompletedPolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(
        forSource source: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        let todo = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source])[0]
        todo.setValue(source.value(forKey: "completed") as? Bool ?? false, forKey: "doNotAlert")
    }
}
