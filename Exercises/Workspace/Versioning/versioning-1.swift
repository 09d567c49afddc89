// versioning-1: Will it open?
//
// Return the name of the ToDo model version that wrote a store ("ToDo" or "ToDo 2"), or nil
// when none did, without opening the store for use.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint versioning-1`.
//
// The model is Zarra's ToDo model (ToDoModels in WorkbookSupport): version "ToDo" has ToDo
// (title, dueDate, completed, category) and Category (name, todos); version "ToDo 2" adds
// ToDo.lastAlertDate and ToDo.doNotAlert.
import CoreData
import ObjectGraph
import WorkbookSupport

/// versioning-1: the name of the version of `versions` that wrote the store at `url`
/// ("ToDo" or "ToDo 2"), or nil when none of them did. Don't open the store for use:
/// read its metadata.
func versionName(ofStoreAt url: URL, type: NSPersistentStore.StoreType, versions: VersionedModel) throws -> String? {
    // TODO: read the store's metadata, then ask the versioned model which version it fits.
    throw NotSolvedYet()
}
