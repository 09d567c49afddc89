import Foundation

/// Core Data's `Z_METADATA.Z_PLIST`, read the same way by every SQL engine's store.
enum RelationalMetadata {
    /// The store's metadata from the bytes of its `Z_PLIST` column; `place` names the store
    /// in the error (its path, or its URL without the password).
    static func propertyList(from data: Data, storeAt place: String) throws -> [String: Any] {
        // Checked first: Foundation's reader crashes on a set or a key that is not a string,
        // and runs out of memory on shared containers (BinaryPropertyList.checkSharing).
        do {
            try BinaryPropertyList.checkSharing(data, asPropertyList: true)
        } catch {
            throw CoreDataError(
                .persistentStoreOpen,
                "The metadata (Z_METADATA.Z_PLIST) of the store at \(place) is damaged: \(error)")
        }
        guard
            let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                as? [String: Any]
        else {
            throw CoreDataError(
                .persistentStoreOpen,
                "The metadata (Z_METADATA.Z_PLIST) of the store at \(place) is not a property list")
        }
        return plist
    }
}
