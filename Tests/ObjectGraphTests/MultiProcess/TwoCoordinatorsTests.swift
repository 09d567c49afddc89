import Foundation
import Testing

@testable import ObjectGraph

// Two coordinators on one XML or binary file in one process behave as two processes: each
// store opens its own lock descriptor (flock locks belong to the open file description) and
// reads the file again when the other replaced it.
@Suite struct TwoCoordinatorsTests {
    static let fileTypes: [StoreType] = [.xml, .binary]

    /// A store with one counter (value 0) and records "a" and "b", and two contexts on it,
    /// each on its own coordinator, that have both fetched everything.
    func twoContexts(_ type: StoreType, in directory: TemporaryDirectory, options: [String: Any] = [:]) throws -> (
        ManagedObjectContext, ManagedObjectContext, URL
    ) {
        let url = directory.file("Shared.\(writerTypeName(type))")
        let seed = try writerContext(type, url)
        try seed.insertNewObject(forEntityName: "Counter").checkedSetValue(0, forKey: "value")
        for name in ["a", "b"] {
            let record = try seed.insertNewObject(forEntityName: "Record")
            try record.checkedSetValue(name, forKey: "writer")
            try record.checkedSetValue(0, forKey: "index")
        }
        try seed.save()
        let first = try writerContext(type, url, options: options)
        let second = try writerContext(type, url, options: options)
        for context in [first, second] {
            _ = try context.fetch(FetchRequest(entityName: "Counter"))
            _ = try context.fetch(FetchRequest(entityName: "Record"))
        }
        return (first, second, url)
    }

    func counter(_ context: ManagedObjectContext) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Counter")).first)
    }

    func record(_ name: String, _ context: ManagedObjectContext) throws -> ManagedObject {
        let request = FetchRequest(entityName: "Record")
        request.predicate = try Predicate(checkedFormat: "writer == %@", name)
        return try #require(try context.fetch(request).first)
    }

    @Test(arguments: fileTypes)
    func aConflictingChangeIsAMergeConflict(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let (first, second, url) = try twoContexts(type, in: directory)
        try counter(first).checkedSetValue(1, forKey: "value")
        try counter(second).checkedSetValue(2, forKey: "value")
        try first.save()
        let error = #expect(throws: CoreDataError.self) { try second.save() }
        #expect(error?.code == .merge)
        // The first change stays; the second context's merge policy decides what happens next,
        // as with SQLite: object trump writes its value over.
        #expect(try counter(writerContext(type, url)).checkedValue(forKey: "value") as? Int == 1)
        second.mergePolicy = .mergeByPropertyObjectTrump
        try second.save()
        #expect(try counter(writerContext(type, url)).checkedValue(forKey: "value") as? Int == 2)
    }

    @Test(arguments: fileTypes)
    func aChangeToAnObjectTheOtherDeletedIsAMergeConflict(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let (first, second, _) = try twoContexts(type, in: directory)
        let stale = try record("a", second)
        try first.checkedDelete(try record("a", first))
        try first.save()
        // The second context held the object before the other deleted it; a fetch now no
        // longer finds it.
        #expect(try second.count(for: FetchRequest(entityName: "Record")) == 1)
        try stale.checkedSetValue(5, forKey: "index")
        let error = #expect(throws: CoreDataError.self) { try second.save() }
        #expect(error?.code == .merge)
    }

    @Test(arguments: fileTypes)
    func changesToDifferentObjectsMerge(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let (first, second, url) = try twoContexts(type, in: directory)
        try record("a", first).checkedSetValue(1, forKey: "index")
        try record("b", second).checkedSetValue(2, forKey: "index")
        try first.save()
        try second.save()
        let fresh = try writerContext(type, url)
        #expect(try record("a", fresh).checkedValue(forKey: "index") as? Int == 1)
        #expect(try record("b", fresh).checkedValue(forKey: "index") as? Int == 2)
    }

    @Test(arguments: fileTypes)
    func insertsFromBothSurviveWithDistinctKeys(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let (first, second, url) = try twoContexts(type, in: directory)
        // Both contexts hand out temporary IDs first; keys are given at save.
        var inserted: [ManagedObject] = []
        for (context, name) in [(first, "c"), (second, "d"), (first, "e")] {
            let record = try context.insertNewObject(forEntityName: "Record")
            try record.checkedSetValue(name, forKey: "writer")
            try record.checkedSetValue(0, forKey: "index")
            inserted.append(record)
        }
        try first.save()
        try second.save()
        #expect(Set(inserted.map(\.objectID.primaryKey)).count == 3)
        let names = try writerContext(type, url).fetch(FetchRequest(entityName: "Record")).map {
            try $0.checkedValue(forKey: "writer") as? String
        }
        #expect(names.compactMap { $0 }.sorted() == ["a", "b", "c", "d", "e"])
        // And the first context sees the second's object without being added again.
        #expect(try first.count(for: FetchRequest(entityName: "Record")) == 5)
    }

    /// A merge policy that lets another writer save while the conflict is being resolved: the
    /// moment the lock is free between a save's two attempts.
    final class InterleavingPolicy: MergePolicy, @unchecked Sendable {
        let meanwhile: () throws -> Void
        init(meanwhile: @escaping () throws -> Void) {
            self.meanwhile = meanwhile
            super.init(merge: .mergeByPropertyObjectTrump)
        }
        override func resolve(optimisticLockingConflicts list: [MergeConflict]) throws {
            try meanwhile()
            try super.resolve(optimisticLockingConflicts: list)
        }
    }

    // A save with new objects that meets a conflict saves again with the keys it was given;
    // another writer saving new objects in between gets other keys.
    @Test(arguments: fileTypes)
    func keysOfASaveResolvingAConflictAreNotHandedOutMeanwhile(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let (first, second, url) = try twoContexts(type, in: directory)
        let third = try writerContext(type, url)
        try counter(second).checkedSetValue(2, forKey: "value")
        try second.save()
        first.mergePolicy = InterleavingPolicy {
            let record = try third.insertNewObject(forEntityName: "Record")
            try record.checkedSetValue("meanwhile", forKey: "writer")
            try record.checkedSetValue(0, forKey: "index")
            try third.save()
        }
        try counter(first).checkedSetValue(1, forKey: "value")
        let mine = try first.insertNewObject(forEntityName: "Record")
        try mine.checkedSetValue("mine", forKey: "writer")
        try mine.checkedSetValue(0, forKey: "index")
        try first.save()
        let fresh = try writerContext(type, url)
        #expect(try record("mine", fresh).objectID.primaryKey == mine.objectID.primaryKey)
        #expect(try record("meanwhile", fresh).objectID.primaryKey != mine.objectID.primaryKey)
        #expect(try counter(fresh).checkedValue(forKey: "value") as? Int == 1)
    }

    @Test(arguments: fileTypes)
    func aSaveWaitsForTheLockThenFailsNamingTheFile(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let (first, _, url) = try twoContexts(type, in: directory, options: [StoreOption.timeout: 0.3])
        // Another writer holds the lock (as a process in the middle of a save would).
        let lockPath = url.path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(flock(descriptor, LOCK_EX) == 0)
        try counter(first).checkedSetValue(7, forKey: "value")
        let error = #expect(throws: CoreDataError.self) { try first.save() }
        #expect(error?.code == .persistentStoreTimeout)
        #expect(error?.message.contains(url.path) == true, "\(error?.message ?? "")")
        // Nothing was written, and once the lock is free the same save goes through.
        #expect(try counter(writerContext(type, url)).checkedValue(forKey: "value") as? Int == 0)
        flock(descriptor, LOCK_UN)
        try first.save()
        #expect(try counter(writerContext(type, url)).checkedValue(forKey: "value") as? Int == 7)
    }
}
