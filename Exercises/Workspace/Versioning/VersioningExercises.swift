// Chapter 4 exercises. Replace each `throw NotSolvedYet()` with your code, then run
// `swift run workbook exercises check versioning-1` (and -2, -3). `swift run workbook
// exercises hint versioning-1` gives a hint.
//
// The model is Zarra's ToDo model (ToDoModels in WorkbookSupport): version "ToDo" has ToDo
// (title, dueDate, completed, category) and Category (name, todos); version "ToDo 2" adds
// ToDo.lastAlertDate and ToDo.doNotAlert.
import ObjectGraph
import WorkbookSupport

public enum VersioningExercises {
    /// versioning-1: the name of the version of `versions` that wrote the store at `url`
    /// ("ToDo" or "ToDo 2"), or nil when none of them did. Don't open the store for use:
    /// read its metadata.
    public static func versionName(ofStoreAt url: URL, type: StoreType, versions: VersionedModel) throws -> String? {
        // TODO: read the store's metadata, then ask the versioned model which version it fits.
        throw NotSolvedYet()
    }

    /// versioning-2: a context on the store at `url` with the current version of `versions`,
    /// migrating the store first when an older version wrote it.
    public static func openMigrating(storeAt url: URL, type: StoreType, versions: VersionedModel) throws -> ManagedObjectContext {
        // TODO: a coordinator for the versioned model, and the two migration options.
        throw NotSolvedYet()
    }

    /// versioning-3: the to-dos alerted in the hour up to `now` (lastAlertDate from one hour
    /// before `now` to `now`, both included), most recently alerted first.
    public static func todos(alertedInHourBefore now: Date, in context: ManagedObjectContext) throws -> [ManagedObject] {
        // TODO: a predicate on lastAlertDate with two dates, and a sort descriptor.
        throw NotSolvedYet()
    }
}
