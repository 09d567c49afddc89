import Foundation
import Testing

@testable import ObjectGraph

// Apple, NSManagedObjectID: an object's ID is equal to another exactly when both name the same
// object (entity, store, row, or the same temporary number); uriRepresentation() names it, and
// the coordinator's managedObjectID(forURIRepresentation:) reads it back. The ID holds its
// entity and store interned (InternedName), so these tests check that interning keeps the
// meaning of equality and hashing: equal text, equal IDs, however the strings were made.
@Suite struct ManagedObjectIDTests {
    /// Strings equal in text but built separately (so not sharing storage).
    private func fresh(_ s: String) -> String { String(decoding: Array(s.utf8), as: UTF8.self) }

    private let store = "6F1B3A52-0C3D-4E7B-9A51-3C2D1E0F9A8B"

    @Test("IDs made from equal text are equal and hash alike (NSManagedObjectID isEqual:)")
    func equalTextMakesEqualIDs() {
        let a = ManagedObjectID(entityName: "ReallyLongEntityNameOverSixteen", storeIdentifier: store, primaryKey: 42)
        let b = ManagedObjectID(
            entityName: fresh("ReallyLongEntityNameOverSixteen"), storeIdentifier: fresh(store), primaryKey: 42)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        #expect(b.entityName == "ReallyLongEntityNameOverSixteen")
        #expect(b.storeIdentifier == store)
        #expect(b.primaryKey == 42)
        #expect(!b.isTemporaryID)
    }

    @Test("IDs differ by entity, store, key, or temporary against permanent (NSManagedObjectID)")
    func anyPartMakesADifferentID() {
        let id = ManagedObjectID(entityName: "Book", storeIdentifier: store, primaryKey: 7)
        #expect(id != ManagedObjectID(entityName: "Author", storeIdentifier: store, primaryKey: 7))
        #expect(
            id
                != ManagedObjectID(
                    entityName: "Book", storeIdentifier: "11111111-2222-3333-4444-555555555555", primaryKey: 7))
        #expect(id != ManagedObjectID(entityName: "Book", storeIdentifier: store, primaryKey: 8))
        #expect(id != ManagedObjectID(temporaryFor: "Book", number: 7))
        // Alternating entities and stores (the recent-name cache is refilled each time) keeps every answer right.
        for k in 0..<50 {
            let entity = k % 2 == 0 ? "Book" : "Author"
            let s = k % 3 == 0 ? store : "AAAAAAAA-2222-3333-4444-555555555555"
            let made = ManagedObjectID(entityName: fresh(entity), storeIdentifier: fresh(s), primaryKey: Int64(k))
            #expect(made.entityName == entity && made.storeIdentifier == s && made.primaryKey == Int64(k))
            #expect(made == ManagedObjectID(entityName: entity, storeIdentifier: s, primaryKey: Int64(k)))
        }
    }

    @Test("A temporary ID has no store and its own URI form (NSManagedObjectID.isTemporaryID)")
    func temporaryIDs() throws {
        let id = ManagedObjectID(temporaryFor: "Book", number: 3)
        #expect(id.isTemporaryID)
        #expect(id.storeIdentifier == "")
        #expect(id.uriRepresentation().absoluteString == "x-coredata:///Book/t3")
        let back = try #require(ManagedObjectID(uriRepresentation: id.uriRepresentation()))
        #expect(back == id)
    }

    @Test(
        "uriRepresentation() round-trips, an entity name with a space included (NSManagedObjectID.uriRepresentation())")
    func uriRoundTrip() throws {
        let id = ManagedObjectID(entityName: "Rare Book", storeIdentifier: store, primaryKey: 12)
        let uri = id.uriRepresentation()
        #expect(uri.absoluteString == "x-coredata://\(store)/Rare%20Book/p12")
        let back = try #require(ManagedObjectID(uriRepresentation: uri))
        #expect(back == id)
        #expect(back.entityName == "Rare Book")
        #expect(back.description == id.description)
        #expect(ManagedObjectID(uriRepresentation: URL(string: "x-coredata://\(store)/Book/q12")!) == nil)
        #expect(ManagedObjectID(uriRepresentation: URL(string: "https://example.com/Book/p12")!) == nil)
    }

    @Test("IDs made on many threads at once agree (NSManagedObjectID is immutable and shareable)")
    func concurrentInterning() async {
        let store = self.store
        let ids = await withTaskGroup(of: [ManagedObjectID].self) { group in
            for t in 0..<8 {
                group.addTask {
                    (0..<500).map { k in
                        let entity = ["Book", "Author", "Publisher", "Entity\(t % 3)"][k % 4]
                        return ManagedObjectID(
                            entityName: entity, storeIdentifier: k % 2 == 0 ? store : "S\(t % 2)", primaryKey: Int64(k))
                    }
                }
            }
            var all: [[ManagedObjectID]] = []
            for await batch in group { all.append(batch) }
            return all
        }
        #expect(ids.count == 8)
        for batch in ids {
            for (k, id) in batch.enumerated() {
                #expect(id.primaryKey == Int64(k))
                let again = ManagedObjectID(
                    entityName: id.entityName, storeIdentifier: id.storeIdentifier, primaryKey: id.primaryKey)
                #expect(again == id)
            }
        }
    }

    @Test("Saved objects' IDs read back through the coordinator (managedObjectID(forURIRepresentation:))")
    func savedIDsReadBack() throws {
        let directory = try TemporaryDirectory()
        let model = try ManagedObjectModel {
            EntityDescription("Book") { AttributeDescription("title", .string) }
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file("IDs.sqlite"))
        let context = ManagedObjectContext(coordinator: coordinator)
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("Fetch, Clarus, Fetch", forKey: "title")
        try context.save()
        let id = book.objectID
        #expect(!id.isTemporaryID)
        let found = try #require(coordinator.managedObjectID(forURIRepresentation: id.uriRepresentation()))
        #expect(found == id)
        let fetched = try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "Book"))
        #expect(fetched.map(\.objectID) == [id])
    }
}
