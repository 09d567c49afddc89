// Chapter 5 exercises. Replace each `throw NotSolvedYet()` with your code, then run
// `swift run workbook exercises check migration-policies-1` (and -2, -3). `swift run workbook
// exercises hint migration-policies-1` gives a hint.
//
// The models are Zarra's ToDo versions: version 1 (ToDo: title, dueDate, completed, category;
// Category: name, todos), version 2 (adds lastAlertDate and doNotAlert, default NO) and the
// chapter's version 3 (completed gives way to completedDate, an optional date).
import ObjectGraph
import WorkbookSupport

public enum MigrationPoliciesExercises {
    /// migration-policies-1: the policy of the ToDo mapping from version 1 to version 2 that
    /// sets doNotAlert for the to-dos that are already completed, and only for those. Each new
    /// to-do keeps its title, dueDate and completed, and its category.
    public final class DoNotAlertWhenCompletedPolicy: EntityMigrationPolicy {
        public required init() {}

        public override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
                                                        manager: MigrationManager) throws {
            // TODO: make the version 2 to-do (or let super make it), set doNotAlert, and make
            // sure the second pass can find it again.
            throw NotSolvedYet()
        }
    }

    /// migration-policies-2: the value expression, in the format language, of version 2's
    /// doNotAlert: YES for a to-do that is completed or has no due date, NO for the others.
    /// The checker puts it in Xcode's default mapping model and migrates a store with it.
    public static func doNotAlertValueExpression() throws -> String {
        // TODO: return #"..."# (see the chapter's value expressions).
        throw NotSolvedYet()
    }

    /// migration-policies-3: the mapping model from version 2 to version 3. A completed to-do
    /// gets its dueDate as its completedDate, and doNotAlert YES (nothing done needs an
    /// alert); a to-do not completed gets no completedDate and keeps its doNotAlert. Every
    /// to-do keeps its title, dueDate, lastAlertDate and category.
    public static func completedDateMappingModel(from version2: ManagedObjectModel, to version3: ManagedObjectModel) throws -> MappingModel {
        // TODO: start from MappingModel.defaultMappingModel(forSourceModel:destinationModel:).
        throw NotSolvedYet()
    }
}
