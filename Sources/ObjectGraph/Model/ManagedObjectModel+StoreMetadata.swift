import Foundation

extension ManagedObjectModel {
    /// The `NSPersistenceFrameworkVersion` stores record: the Core Data build that wrote them.
    /// 1344 is the most recent build among the stores Apple's Core Data wrote in
    /// the tests read (CoreDataPlus's SampleModel2 store, 2024; Tests/ObjectGraphTests/AppleFixtures); stores written
    /// here
    /// claim the same, since their metadata has every key that build writes.
    static let persistenceFrameworkVersion = 1344

    /// The keys of a store's metadata that describe the model, as Core Data writes them
    /// (<doc:OpeningStoresThatCoreDataWrote>): `NSStoreModelVersionHashes` (entity name to 32-byte hash),
    /// `NSStoreModelVersionHashesVersion` (3), `NSStoreModelVersionHashesDigest` (base64 of
    /// SHA-512 over names and hashes), `NSStoreModelVersionChecksumKey` (``versionChecksum``),
    /// `NSStoreModelVersionIdentifiers` and `NSPersistenceFrameworkVersion`.
    var storeMetadataVersionKeys: [String: Any] {
        [
            "NSStoreModelVersionHashes": entityVersionHashesByName,
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionHashesDigest": VersionHash.hashesDigest(entityVersionHashesByName),
            "NSStoreModelVersionChecksumKey": versionChecksum,
            "NSStoreModelVersionIdentifiers": Array(versionIdentifiers).sorted(),
            "NSPersistenceFrameworkVersion": Self.persistenceFrameworkVersion,
        ]
    }

    /// A store's metadata with this model's version keys in place of the ones it had; every
    /// other key (the store's type and UUID, an application's own keys) is kept.
    func metadata(replacingVersionKeysOf metadata: [String: Any]) -> [String: Any] {
        metadata.merging(storeMetadataVersionKeys) { _, new in new }
    }

    /// The note a store's log gets when its metadata had the hashes ObjectGraph computed before
    /// it computed Core Data's, and now has Core Data's.
    static func legacyHashesNote(_ url: URL) -> String {
        "the store \(url.lastPathComponent) had the version hashes ObjectGraph wrote before it computed Core Data's; its metadata now has Core Data's hashes of the same model (the data is unchanged)"
    }
}
