// versioning-2: Migrate on open
//
// Open a store of any ToDo version with the current model, migrating it first when an older
// version wrote it, and return a context on it.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import ObjectGraph

/// versioning-2. Both options: migrate automatically, and infer the mapping model.
func openMigrating(storeAt url: URL, type: StoreType, versions: VersionedModel) throws -> ManagedObjectContext {
    let coordinator = PersistentStoreCoordinator(versionedModel: versions)
    try coordinator.addPersistentStore(type: type, at: url, options: [
        StoreOption.migratePersistentStoresAutomatically: true,
        StoreOption.inferMappingModelAutomatically: true,
    ])
    return ManagedObjectContext(coordinator: coordinator)
}
