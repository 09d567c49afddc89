import Foundation
import Testing

@testable import ObjectGraph

// Two contexts on one coordinator change the same book; the first saves, then the second.
// Each policy is checked on the SQLite store and on the atomic stores, which must find the
// same conflicts. Apple pages: NSMergePolicy and its type properties (error,
// mergeByPropertyStoreTrump, mergeByPropertyObjectTrump, overwrite, rollback), NSMergeConflict,
// and the Core Data Programming Guide, "Change Management" (optimistic locking).
@Suite struct MergePolicyTests {
    static let storeTypes: [StoreType] = [.sqlite, .xml, .binary, .inMemory]

    /// A saved book (title "T", salesRank 1) and a second context, each holding it.
    struct Race {
        let fixture: MergePolicyFixture
        let first: ManagedObject
        let second: ManagedObject
        let secondContext: ManagedObjectContext

        init(_ type: StoreType) throws {
            fixture = try MergePolicyFixture(type)
            first = try fixture.context.existingObject(with: fixture.bookID)
            secondContext = fixture.stack.secondContext()
            second = try secondContext.existingObject(with: fixture.bookID)
        }

        /// The first context renames the book and changes its rank, and saves; the second
        /// renames it and sets its ISBN, unsaved.
        func run() throws {
            try first.checkedSetValue("First", forKey: "title")
            try first.checkedSetValue(10, forKey: "salesRank")
            try fixture.context.save()
            try second.checkedSetValue("Second", forKey: "title")
            try second.checkedSetValue("0123456789", forKey: "isbn")
        }

        /// The book as a fresh context reads it from the store: title, rank, ISBN.
        func stored() throws -> (String?, Int?, String?) {
            let book = try fixture.stack.secondContext().existingObject(with: fixture.bookID)
            return (
                try book.checkedValue(forKey: "title") as? String, try book.checkedValue(forKey: "salesRank") as? Int,
                try book.checkedValue(forKey: "isbn") as? String
            )
        }
    }

    // NSErrorMergePolicy is the default: the second save fails with 133020 (NSManagedObjectMergeError)
    // naming the object and the property both changed; its changes stay for another try.
    @Test(arguments: storeTypes)
    func errorPolicyNamesObjectAndProperties(_ type: StoreType) throws {
        let race = try Race(type)
        #expect(race.secondContext.mergePolicy.mergeType == .error)
        try race.run()
        let error = #expect(throws: CoreDataError.self) { try race.secondContext.save() }
        let uri = race.fixture.bookID.uriString
        #expect(error?.code == .merge)
        #expect(error?.objectURI == uri)
        #expect(error?.key == "title")
        #expect(
            error?.message.contains(
                "\(uri) (version 1 read, 2 in the store; title changed here and in the store; isbn changed here; salesRank changed in the store)"
            ) == true)
        #expect(error?.message.contains("mergePolicy") == true)
        #expect(error?.detailedErrors.map(\.key) == ["title"])
        #expect(race.secondContext.hasChanges)
        #expect(try race.stored() == ("First", 10, nil))
    }

    // NSPersistentStoreSaveConflictsErrorKey ("conflictList"): the 133020 error carries its
    // NSMergeConflicts, in conflictList and in the bridged NSError's userInfo, as Apple's does.
    @Test func theErrorCarriesItsConflictsUnderConflictList() throws {
        let race = try Race(.sqlite)
        try race.run()
        let error = try #require(#expect(throws: CoreDataError.self) { try race.secondContext.save() })
        let conflicts = error.conflictList.compactMap { $0 as? MergeConflict }
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.sourceObject === race.second)
        #expect(conflicts.first?.oldVersionNumber == 1)
        #expect(conflicts.first?.newVersionNumber == 2)
        #expect(conflicts.first?.persistedSnapshot?["title"] as? String == "First")
        let info = (error as NSError).userInfo
        #expect((info[CoreDataError.conflictListKey] as? [MergeConflict])?.first === conflicts.first)
        // Two errors are equal whatever their conflicts, as before the list was kept.
        #expect(
            error
                == CoreDataError(
                    .merge, error.message, objectURI: error.objectURI, key: error.key,
                    detailedErrors: error.detailedErrors))
    }

    // NSMergeByPropertyObjectTrumpMergePolicy: merged property by property, in-memory changes
    // trumping external ones; the store's change to salesRank survives.
    @Test(arguments: storeTypes)
    func objectTrumpKeepsBothSidesChanges(_ type: StoreType) throws {
        let race = try Race(type)
        race.secondContext.mergePolicy = .mergeByPropertyObjectTrump
        try race.run()
        try race.secondContext.save()
        #expect(try race.stored() == ("Second", 10, "0123456789"))
        #expect(try race.second.checkedValue(forKey: "salesRank") as? Int == 10)
        #expect(!race.secondContext.hasChanges)
    }

    // NSMergeByPropertyStoreTrumpMergePolicy: property by property, external changes trumping
    // in-memory ones; this context's ISBN, which nobody else changed, is saved.
    @Test(arguments: storeTypes)
    func storeTrumpKeepsBothSidesChanges(_ type: StoreType) throws {
        let race = try Race(type)
        race.secondContext.mergePolicy = .mergeByPropertyStoreTrump
        try race.run()
        try race.secondContext.save()
        #expect(try race.stored() == ("First", 10, "0123456789"))
        #expect(try race.second.checkedValue(forKey: "title") as? String == "First")
    }

    // NSOverwriteMergePolicy: the entire in-memory object is saved; the other context's rank
    // change is overwritten with the value this context holds.
    @Test(arguments: storeTypes)
    func overwriteSavesTheWholeObject(_ type: StoreType) throws {
        let race = try Race(type)
        race.secondContext.mergePolicy = .overwrite
        try race.run()
        try race.secondContext.save()
        #expect(try race.stored() == ("Second", 1, "0123456789"))
    }

    // NSRollbackMergePolicy: unsaved changes of the objects in conflict are discarded; other
    // changes of the same save still go through.
    @Test(arguments: storeTypes)
    func rollbackDiscardsTheConflictingObjectsChanges(_ type: StoreType) throws {
        let race = try Race(type)
        race.secondContext.mergePolicy = .rollback
        try race.run()
        let other = try race.secondContext.insertNewObject(forEntityName: "Book")
        try other.checkedSetValue("Unrelated", forKey: "title")
        try race.secondContext.save()
        #expect(try race.stored() == ("First", 10, nil))
        #expect(try race.second.checkedValue(forKey: "title") as? String == "First")
        #expect(!other.objectID.isTemporaryID)
        #expect(try race.fixture.stack.secondContext().count(for: FetchRequest(entityName: "Book")) == 2)
    }

    // Deleted here, changed by another context: a conflict too (NSMergeConflict for a deleted
    // source object). The error policy refuses; object-trump and overwrite delete it anyway;
    // store-trump and rollback keep the other context's version.
    @Test(arguments: storeTypes)
    func deletingAnObjectAnotherContextChanged(_ type: StoreType) throws {
        for policy in [
            MergePolicy.error, .mergeByPropertyObjectTrump, .overwrite, .mergeByPropertyStoreTrump, .rollback,
        ] {
            let race = try Race(type)
            race.secondContext.mergePolicy = policy
            try race.first.checkedSetValue("First", forKey: "title")
            try race.fixture.context.save()
            try race.secondContext.checkedDelete(race.second)
            if policy.mergeType == .error {
                let error = #expect(throws: CoreDataError.self) { try race.secondContext.save() }
                #expect(error?.code == .merge)
                #expect(
                    error?.message.contains(
                        "\(race.fixture.bookID.uriString) (version 1 read, 2 in the store; deleted here; title changed in the store)"
                    ) == true)
                continue
            }
            try race.secondContext.save()
            let remaining = try race.fixture.stack.secondContext().count(for: FetchRequest(entityName: "Book"))
            let deletes = policy.mergeType == .mergeByPropertyObjectTrump || policy.mergeType == .overwrite
            #expect(remaining == (deletes ? 0 : 1), "\(policy)")
            if !deletes {
                #expect(race.second.managedObjectContext === race.secondContext)
                #expect(try race.second.checkedValue(forKey: "title") as? String == "First")
            }
        }
    }

    // Changed here, deleted by another context: newVersionNumber 0 in NSMergeConflict. The error
    // policy refuses; store-trump and rollback let the deletion stand; object-trump and
    // overwrite save the in-memory object again under its ID.
    @Test(arguments: storeTypes)
    func changingAnObjectAnotherContextDeleted(_ type: StoreType) throws {
        for policy in [
            MergePolicy.error, .mergeByPropertyStoreTrump, .rollback, .mergeByPropertyObjectTrump, .overwrite,
        ] {
            let race = try Race(type)
            race.secondContext.mergePolicy = policy
            try race.fixture.context.checkedDelete(race.first)
            try race.fixture.context.save()
            try race.second.checkedSetValue("Second", forKey: "title")
            if policy.mergeType == .error {
                let error = #expect(throws: CoreDataError.self) { try race.secondContext.save() }
                #expect(error?.code == .merge)
                #expect(
                    error?.message.contains(
                        "\(race.fixture.bookID.uriString) was deleted by another context while this one changed its title (version 1 read, deleted in the store)"
                    ) == true)
                continue
            }
            try race.secondContext.save()
            let reader = race.fixture.stack.secondContext()
            let books = try reader.fetch(FetchRequest(entityName: "Book"))
            if policy.mergeType == .mergeByPropertyStoreTrump || policy.mergeType == .rollback {
                #expect(books.isEmpty, "\(policy)")
                #expect(race.second.managedObjectContext == nil)
            } else {
                #expect(books.map(\.objectID) == [race.fixture.bookID], "\(policy)")
                #expect(try books.first?.checkedValue(forKey: "title") as? String == "Second")
                // Saved again, the object changes and saves as usual.
                try race.second.checkedSetValue("Third", forKey: "title")
                try race.secondContext.save()
                #expect(try race.stored().0 == "Third")
            }
        }
    }

    // NSMergeConflict snapshots leave to-many relationships out: two contexts that each add a
    // book to one publisher, or an author to one book, conflict on its version (Core Data
    // raises Z_OPT for to-many changes too), and a property policy keeps both additions.
    @Test(arguments: storeTypes)
    func toManyAdditionsFromBothSidesMerge(_ type: StoreType) throws {
        let race = try Race(type)
        let publisher = try race.fixture.context.insertNewObject(forEntityName: "Publisher")
        try publisher.checkedSetValue("P", forKey: "name")
        let ann = try race.fixture.context.insertNewObject(forEntityName: "Author")
        let bob = try race.fixture.context.insertNewObject(forEntityName: "Author")
        try ann.checkedSetValue("Ann", forKey: "name")
        try bob.checkedSetValue("Bob", forKey: "name")
        try race.fixture.context.save()
        let secondPublisher = try race.secondContext.existingObject(with: publisher.objectID)
        _ = try secondPublisher.checkedValue(forKey: "books")

        try race.first.checkedSetValue(publisher, forKey: "publisher")
        try race.first.mutableSetValue(forKey: "authors").insert(ann)
        try race.fixture.context.save()

        race.secondContext.mergePolicy = .mergeByPropertyObjectTrump
        let extra = try race.secondContext.insertNewObject(forEntityName: "Book")
        try extra.checkedSetValue("Extra", forKey: "title")
        try extra.checkedSetValue(secondPublisher, forKey: "publisher")
        try race.second.mutableSetValue(forKey: "authors").insert(
            try race.secondContext.existingObject(with: bob.objectID))
        try race.secondContext.save()

        let reader = race.fixture.stack.secondContext()
        let books = try #require(
            try reader.existingObject(with: publisher.objectID).checkedValue(forKey: "books") as? Set<ManagedObject>)
        let titles = Set(try books.map { try $0.checkedValue(forKey: "title") as? String })
        #expect(titles == ["T", "Extra"])
        let authors = try #require(
            try reader.existingObject(with: race.fixture.bookID).checkedValue(forKey: "authors") as? Set<ManagedObject>)
        #expect(Set(try authors.map { try $0.checkedValue(forKey: "name") as? String }) == ["Ann", "Bob"])
        #expect(
            (try race.secondContext.existingObject(with: publisher.objectID).checkedValue(forKey: "books")
                as? Set<ManagedObject>)?.count == 2)
    }

    // NSMergeConflict: the policy sees each conflict with its snapshots and versions; a
    // subclass can resolve conflicts itself (resolveOptimisticLockingVersionConflicts:error:).
    @Test func customPolicySeesTheConflicts() throws {
        final class Recording: MergePolicy, @unchecked Sendable {
            var seen: [MergeConflict] = []
            override func resolve(optimisticLockingConflicts list: [MergeConflict]) throws {
                seen += list
                try super.resolve(optimisticLockingConflicts: list)
            }
        }
        let race = try Race(.sqlite)
        let policy = Recording(merge: .mergeByPropertyObjectTrump)
        race.secondContext.mergePolicy = policy
        try race.run()
        try race.secondContext.save()
        let conflict = try #require(policy.seen.first)
        #expect(policy.seen.count == 1)
        #expect(conflict.sourceObject === race.second)
        #expect(conflict.oldVersionNumber == 1 && conflict.newVersionNumber == 2)
        #expect(conflict.objectSnapshot?["title"] as? String == "T")
        #expect(conflict.persistedSnapshot?["title"] as? String == "First")
        #expect(conflict.persistedSnapshot?["salesRank"] as? Int == 10)
        #expect(conflict.persistedSnapshot?["authors"] == nil)
        #expect(conflict.conflictingKeys == ["title"])
    }
}

/// A stack with one saved book.
struct MergePolicyFixture {
    let stack: StackFixture
    let bookID: ManagedObjectID
    var context: ManagedObjectContext { stack.context }

    init(_ type: StoreType) throws {
        stack = try StackFixture(type)
        let book = try stack.context.insertNewObject(forEntityName: "Book")
        try book.checkedSetValue("T", forKey: "title")
        try book.checkedSetValue(1, forKey: "salesRank")
        try stack.context.save()
        bookID = book.objectID
        stack.context.reset()
    }
}
