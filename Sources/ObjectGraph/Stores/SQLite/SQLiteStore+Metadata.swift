import Foundation
import GRDB

/// An application's own metadata in Z_METADATA (setMetadata(_:for:)): kept until the next save,
/// then written in that save's transaction, as Apple's Core Data writes it.
extension SQLiteStore {
    func setMetadata(_ metadata: [String: Any]) throws {
        if isReadOnly { throw readOnlyError("set the metadata of") }
        var merged = metadata
        // The store's type and the model's version keys are the store's own, as Apple adds them
        // again; the UUID lives in Z_UUID.
        for (key, value) in self.metadata
        where Self.ownMetadataKeys.contains(key) || key.hasPrefix("NSStoreModelVersion") {
            merged[key] = value
        }
        merged = model.metadata(replacingVersionKeysOf: merged)
        merged["NSStoreUUID"] = identifier
        _ = try PropertyListSerialization.data(fromPropertyList: Self.withoutUUID(merged), format: .binary, options: 0)
        pendingMetadata.withLock { $0 = merged }
        self.metadata = merged
    }

    /// Writes the metadata into Z_METADATA, inside the save's transaction.
    func writeMetadata(_ metadata: [String: Any], db: Database) throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: Self.withoutUUID(metadata), format: .binary, options: 0)
        let sql = "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1"
        log.statement(sql: sql, arguments: [data.databaseValue])
        try db.execute(sql: sql, arguments: [data])
        pendingMetadata.withLock { $0 = nil }
    }

    /// Keys the store keeps whatever an application sets.
    static let ownMetadataKeys: Set<String> = ["NSStoreType", "_NSAutoVacuumLevel", "NSPersistenceFrameworkVersion"]

    private static func withoutUUID(_ metadata: [String: Any]) -> [String: Any] {
        var plist = metadata
        plist["NSStoreUUID"] = nil
        return plist
    }
}
