// versioning-2: Migrate on open
//
// Open a store of any ToDo version with the current model, migrating it first when an older
// version wrote it, and return a context on it.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint versioning-2`.
//
// The model is Zarra's ToDo model (ToDoModels in WorkbookSupport): version "ToDo" has ToDo
// (title, dueDate, completed, category) and Category (name, todos); version "ToDo 2" adds
// ToDo.lastAlertDate and ToDo.doNotAlert.
import CoreData
import ObjectGraph
import WorkbookSupport

/// versioning-2: a context on the store at `url` with the current version of `versions`,
/// migrating the store first when an older version wrote it.
func openMigrating(storeAt url: URL, type: NSPersistentStore.StoreType, versions: VersionedModel) throws
    -> NSManagedObjectContext
{
    // TODO: a coordinator for the versioned model, and the two migration options.
    throw NotSolvedYet()
}
