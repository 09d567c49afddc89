// versioning-2: Migrate on open
//
// Open a store of any ToDo version with the current model, migrating it first when an older
// version wrote it, and return a context on it.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData
import ObjectGraph

/// versioning-2. Both options: migrate automatically, and infer the mapping model.
func openMigrating(storeAt url: URL, type: NSPersistentStore.StoreType, versions: VersionedModel) throws
    -> NSManagedObjectContext
{
    let coordinator = NSPersistentStoreCoordinator(versionedModel: versions)
    try coordinator.addPersistentStore(
        type: type, at: url,
        options: [
            NSMigratePersistentStoresAutomaticallyOption: true,
            NSInferMappingModelAutomaticallyOption: true,
        ])
    let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    return context
}
