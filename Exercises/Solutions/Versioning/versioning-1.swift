// versioning-1: Will it open?
//
// Return the name of the ToDo model version that wrote a store ("ToDo" or "ToDo 2"), or nil
// when none did, without opening the store for use.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData
import ObjectGraph

/// versioning-1. The metadata is read without adding the store; the versioned model
/// compares its entity version hashes with each version's.
func versionName(ofStoreAt url: URL, type: NSPersistentStore.StoreType, versions: VersionedModel) throws -> String? {
    let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
    return versions.versionName(forStoreMetadata: metadata)
}
