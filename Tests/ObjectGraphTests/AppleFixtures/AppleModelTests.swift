import Foundation
import ObjectGraph
import Testing

// Acceptance: the models of the stores Apple's Core Data wrote (fixtures/apple-stores) load,
// hash as Core Data hashed them, entity by entity, and open their stores without migration.
@Suite struct AppleModelTests {
    /// The model version that wrote a fixture store.
    static func model(of store: AppleFixtures.Store) throws -> ManagedObjectModel {
        guard let url = AppleFixtures.bundleURL(store), let version = store.version else {
            return try SampleModel2.version1()
        }
        let bundle = try XcodeModelLoader().loadBundle(at: url)
        return try #require(bundle.model(named: version), "\(store): no version \(version) in \(bundle.versionNames)")
    }

    /// Checks a model's hashes and the metadata's digest and checksum against a store's metadata.
    static func expectHashes(of model: ManagedObjectModel, equal metadata: [String: Any], _ store: AppleFixtures.Store)
        throws
    {
        let stored = try #require(metadata["NSStoreModelVersionHashes"] as? [String: Data], "\(store)")
        #expect(Set(stored.keys) == Set(model.entityVersionHashesByName.keys), "\(store): entities")
        for (name, hash) in stored.sorted(by: { $0.key < $1.key }) {
            #expect(
                model.entityVersionHashesByName[name] == hash,
                "\(store): \(name) is \(model.entityVersionHashesByName[name]?.base64EncodedString() ?? "missing"), the store has \(hash.base64EncodedString())"
            )
            #expect(model.entitiesByName[name]?.versionHash == hash)
        }
        #expect(metadata["NSStoreModelVersionHashesVersion"] as? Int == 3, "\(store)")
        if let checksum = metadata["NSStoreModelVersionChecksumKey"] as? String {
            #expect(model.versionChecksum == checksum, "\(store): checksum")
        }
        if let digest = metadata["NSStoreModelVersionHashesDigest"] as? String {
            // A store written here carries the same digest: Core Data's keys, computed alike.
            let directory = try TemporaryDirectory()
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(type: .sqlite, at: directory.file("New.sqlite"))
            let written = try AppleFixtures.rawMetadata(at: directory.file("New.sqlite"))
            #expect(written["NSStoreModelVersionHashesDigest"] as? String == digest, "\(store): digest")
            #expect(written["NSStoreModelVersionHashes"] as? [String: Data] == stored, "\(store): hashes written")
        }
    }

    @Test func everyFixtureModelFileLoadsWithNoError() throws {
        if AppleFixtures.skipping() { return }
        let bundles = try AppleFixtures.bundles()
        #expect(bundles.count == 8)
        var versions = 0
        for url in bundles {
            let loader = XcodeModelLoader()
            let bundle = try loader.loadBundle(at: url)
            versions += bundle.versions.count
            for version in bundle.versions {
                #expect(!version.model.entities.isEmpty, "\(url.lastPathComponent) \(version.name)")
            }
        }
        // Every version of every bundle: the older ones are real migration sources.
        #expect(versions == 26)
    }

    @Test(arguments: AppleFixtures.storesWithModelFiles + [AppleFixtures.sampleModel2])
    func computedHashesEqualTheStores(_ store: AppleFixtures.Store) throws {
        if AppleFixtures.skipping() { return }
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copy(store, to: directory.url)
        let model = try Self.model(of: store)
        // The store's metadata as the package reads it, and as plain SQL reads it.
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        try Self.expectHashes(of: model, equal: metadata, store)
        try Self.expectHashes(of: model, equal: try AppleFixtures.rawMetadata(at: url), store)
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }

    @Test(arguments: AppleFixtures.storesWithModelFiles + [AppleFixtures.sampleModel2])
    func eachStoreOpensWithoutMigration(_ store: AppleFixtures.Store) throws {
        if AppleFixtures.skipping() { return }
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copy(store, to: directory.url)
        let before = try AppleFixtures.rawMetadata(at: url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model(of: store))
        // No migration options: a store whose hashes differ would be refused with 134100.
        let opened = try coordinator.addPersistentStore(type: .sqlite, at: url)
        #expect(opened.identifier == before["NSStoreUUID"] as? String ?? opened.identifier)
        try coordinator.remove(opened)
        // Opening changed nothing of the store's metadata.
        let after = try AppleFixtures.rawMetadata(at: url)
        #expect(
            after["NSStoreModelVersionHashes"] as? [String: Data] == before["NSStoreModelVersionHashes"]
                as? [String: Data])
        #expect(NSDictionary(dictionary: after).isEqual(to: before))
    }

    @Test func theOtherVersionsOfABundleDoNotMatchTheStore() throws {
        if AppleFixtures.skipping() { return }
        // wibosco's store of version 3: only version 3 of the bundle matches it, so automatic
        // migration finds its source by the hashes.
        let store = AppleFixtures.storesWithModelFiles[2]
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copy(store, to: directory.url)
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        let versions = try VersionedModel(contentsOf: try #require(AppleFixtures.bundleURL(store)))
        #expect(versions.versionName(forStoreMetadata: metadata) == "CoreDataMigration_Example 3")
        #expect(versions.currentModel.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) == false)
    }
}
