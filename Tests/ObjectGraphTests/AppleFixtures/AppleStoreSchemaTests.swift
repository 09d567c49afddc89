import Foundation
import ObjectGraph
import Testing

// Acceptance: an empty store created here for each fixture's model has the schema and the
// metadata of the store Apple's Core Data wrote with that model: the same tables, columns (in
// order, with their declared types), indexes (UNIQUE or not, over the same columns), and the
// same metadata keys with the same version hashes. What still differs is listed here, each
// with the reason Core Data itself would differ.
@Suite struct AppleStoreSchemaTests {
    /// The differences that remain, by fixture, each with the reason Core Data itself would
    /// differ: each names a store written by an older Core Data, or with an option.
    static let knownDifferences: [String: [(difference: String, reason: String)]] = [
        "kodecocodes-cdt-materials-SurfJournal": [
            (
                "table Z_MODELCACHE extra: Z_CONTENT BLOB",
                "the store was written by Core Data 519 (NSPersistenceFrameworkVersion; iOS 7 era), before Core Data kept a copy of the model in Z_MODELCACHE; a current Core Data creates that table, as this store does"
            )
        ],
        "alemar11-CoreDataPlus-SampleModel2_V1": [
            "table ACHANGE", "table ATRANSACTION", "table ATRANSACTIONSTRING",
            "index ACHANGE_ZTRANSACTIONID_INDEX", "index ATRANSACTION_ZAUTHORTS_INDEX",
            "index ATRANSACTION_ZBUNDLEIDTS_INDEX",
            "index ATRANSACTION_ZCONTEXTNAMETS_INDEX", "index ATRANSACTION_ZPROCESSIDTS_INDEX",
            "index Z_TRANSACTIONSTRING_UNIQUE_NAME",
            "index Z_TRANSACTION_TransactionAuthorIndex", "index Z_TRANSACTION_TransactionTimestampIndex",
        ].map {
            (
                $0 + " missing",
                "persistent history: Core Data creates these tables and indexes only in a store added with NSPersistentHistoryTrackingKey, as CoreDataPlus's tests added this one; ObjectGraph has no history tracking yet, so a new store here is what Core Data makes without the option (the tables of a store that has them are left intact)"
            )
        },
    ]

    @Test(arguments: AppleFixtures.storesWithModelFiles + [AppleFixtures.sampleModel2])
    func anEmptyStoreHasApplesSchema(_ store: AppleFixtures.Store) throws {
        if AppleFixtures.skipping() { return }
        let directory = try TemporaryDirectory()
        let apple = try AppleFixtures.copy(store, to: directory.url)
        let model = try AppleModelTests.model(of: store)
        let ours = directory.file("Ours.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.remove(try coordinator.addPersistentStore(type: .sqlite, at: ours))
        let differences = try StoreSchemaSnapshot(ours).differences(from: StoreSchemaSnapshot(apple))
        let known = Self.knownDifferences[store.folder] ?? []
        for d in differences where !known.contains(where: { d.hasPrefix($0.difference) }) {
            Issue.record("\(store): \(d)")
        }
        // Each known difference is still there: the list says what is true.
        for k in known {
            #expect(
                differences.contains { $0.hasPrefix(k.difference) },
                "\(store): \(k.difference) is no longer a difference; remove it from the list")
        }
    }

    @Test(arguments: AppleFixtures.storesWithModelFiles + [AppleFixtures.sampleModel2])
    func anEmptyStoreHasApplesMetadata(_ store: AppleFixtures.Store) throws {
        if AppleFixtures.skipping() { return }
        let directory = try TemporaryDirectory()
        let apple = try AppleFixtures.rawMetadata(at: try AppleFixtures.copy(store, to: directory.url))
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try AppleModelTests.model(of: store))
        try coordinator.remove(try coordinator.addPersistentStore(type: .sqlite, at: directory.file("Ours.sqlite")))
        let ours = try AppleFixtures.rawMetadata(at: directory.file("Ours.sqlite"))
        // Every key Core Data wrote, with the same value, except the build that wrote it.
        let version = try #require(apple["NSPersistenceFrameworkVersion"] as? Int)
        #expect(ours["NSPersistenceFrameworkVersion"] as? Int == 1344)
        for (key, value) in apple where key != "NSPersistenceFrameworkVersion" {
            let mine = try #require(ours[key], "\(store): \(key) missing")
            #expect(
                NSDictionary(dictionary: [key: mine]).isEqual(to: [key: value]),
                "\(store): \(key) is \(mine), Apple wrote \(value)")
        }
        // Keys Core Data added after the build that wrote the store: the digest came with
        // build 1044 or earlier (SampleModel_V1 has it, EasyLife's 849 has not), the checksum
        // after 1044 (contentful's 1327 has it).
        for key in Set(ours.keys).subtracting(apple.keys).sorted() {
            switch key {
            case "NSStoreModelVersionHashesDigest":
                #expect(version < 1044, "\(store): build \(version) writes the digest")
            case "NSStoreModelVersionChecksumKey":
                #expect(version <= 1044, "\(store): build \(version) writes the checksum")
            default: Issue.record("\(store): \(key) is a key Core Data did not write")
            }
        }
    }
}
