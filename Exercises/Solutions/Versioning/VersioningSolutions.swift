// Reference solutions to the chapter 4 exercises. Try the exercises first!
import ObjectGraph

public enum VersioningSolutions {
    /// versioning-1. The metadata is read without adding the store; the versioned model
    /// compares its entity version hashes with each version's.
    public static func versionName(ofStoreAt url: URL, type: StoreType, versions: VersionedModel) throws -> String? {
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        return versions.versionName(forStoreMetadata: metadata)
    }

    /// versioning-2. Both options: migrate automatically, and infer the mapping model.
    public static func openMigrating(storeAt url: URL, type: StoreType, versions: VersionedModel) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(versionedModel: versions)
        try coordinator.addPersistentStore(type: type, at: url, options: [
            StoreOption.migratePersistentStoresAutomatically: true,
            StoreOption.inferMappingModelAutomatically: true,
        ])
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// versioning-3. BETWEEN includes both ends; a nil lastAlertDate matches neither bound.
    public static func todos(alertedInHourBefore now: Date, in context: ManagedObjectContext) throws -> [ManagedObject] {
        let request = FetchRequest(entityName: "ToDo")
        request.predicate = try Predicate(format: "lastAlertDate BETWEEN %@", [now.addingTimeInterval(-3_600), now])
        request.sortDescriptors = [SortDescriptor(key: "lastAlertDate", ascending: false)]
        return try context.fetch(request)
    }
}
