import Foundation
import Testing

@testable import ObjectGraph

// Apple, Core Data Programming Guide, "Persistent Store Types and Behaviors": atomic stores
// (XML, binary, in-memory) are read whole and written whole, and evaluate fetches in memory
// with all of the language at hand, where the SQLite store runs SQL.
@Suite struct AtomicStoreTests {
    static let fileTypes: [StoreType] = [.xml, .binary]

    func coordinator(_ type: StoreType, _ url: URL?, model: ManagedObjectModel? = nil) throws
        -> PersistentStoreCoordinator
    {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model ?? booksModel())
        try coordinator.addPersistentStore(
            type: type, at: url, options: [StoreOption.storeUUID: "00000000-0000-0000-0000-0000000000CC"])
        return coordinator
    }

    /// Publisher P with books A and B, both by author X; saved.
    func seed(_ context: ManagedObjectContext) throws {
        let publisher = try context.insertNewObject(forEntityName: "Publisher")
        try publisher.checkedSetValue("P", forKey: "name")
        let author = try context.insertNewObject(forEntityName: "Author")
        try author.checkedSetValue("X", forKey: "name")
        for (title, rank) in [("A", 1), ("B", 2)] {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.checkedSetValue(title, forKey: "title")
            try book.checkedSetValue(rank, forKey: "salesRank")
            try book.checkedSetValue(publisher, forKey: "publisher")
            try book.mutableSetValue(forKey: "authors").insert(author)
        }
        try context.save()
    }

    /// Checks that the seeded graph is all there.
    func expectSeededGraph(_ context: ManagedObjectContext, _ label: String) throws {
        let request = FetchRequest(entityName: "Book")
        request.sortDescriptors = [SortDescriptor(key: "title")]
        let books = try context.fetch(request)
        #expect(try books.map { try $0.checkedValue(forKey: "title") as? String } == ["A", "B"], "\(label)")
        let publisher = try #require(try books[0].checkedValue(forKey: "publisher") as? ManagedObject)
        #expect(try publisher.checkedValue(forKey: "name") as? String == "P", "\(label)")
        #expect((try publisher.checkedValue(forKey: "books") as? Set<ManagedObject>)?.count == 2, "\(label)")
        let authors = try #require(try books[1].checkedValue(forKey: "authors") as? Set<ManagedObject>)
        #expect(try authors.first?.checkedValue(forKey: "name") as? String == "X", "\(label)")
        #expect((try authors.first?.checkedValue(forKey: "books") as? Set<ManagedObject>)?.count == 2, "\(label)")
    }

    @Test(arguments: fileTypes)
    func aSavedStoreComesBackWhole(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Store.\(type.rawValue)")
        try seed(ManagedObjectContext(coordinator: coordinator(type, url)))
        let context = ManagedObjectContext(coordinator: try coordinator(type, url))
        try expectSeededGraph(context, "\(type)")
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        #expect(metadata["NSStoreType"] as? String == type.rawValue)
        #expect(metadata["NSStoreUUID"] as? String == "00000000-0000-0000-0000-0000000000CC")
        #expect(
            metadata["NSStoreModelVersionHashes"] as? [String: Data] == (try booksModel()).entityVersionHashesByName)
    }

    // The XML store's file is readable XML in Core Data's shape (reference/coredata.md 3.5).
    @Test func theXMLFileLooksLikeCoreDatas() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Store.xml")
        try seed(ManagedObjectContext(coordinator: coordinator(.xml, url)))
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("<database>"))
        #expect(text.contains("<UUID>00000000-0000-0000-0000-0000000000CC</UUID>"))
        #expect(text.contains("<attribute name=\"title\" type=\"string\">A</attribute>"))
        #expect(
            text.contains(
                "<relationship name=\"publisher\" type=\"1/1\" destination=\"Publisher\" idrefs=\"z1\"></relationship>")
        )
        #expect(text.contains("<key>NSStoreModelVersionHashes</key>"))
    }

    // Every save writes a new file and renames it into place: the old file is never written
    // over, so a crash leaves one whole store or the other.
    @Test(arguments: fileTypes)
    func everySaveReplacesTheFileWhole(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Store.\(type.rawValue)")
        let context = ManagedObjectContext(coordinator: try coordinator(type, url))
        try seed(context)
        let before = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
        let book = try context.fetch(FetchRequest(entityName: "Book"))[0]
        try book.checkedSetValue("A, revised", forKey: "title")
        try context.save()
        let after = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
        #expect(before != nil && before != after)
        // No scratch file is left; the lock sidecar stays (removing a lock file races with a
        // process about to take it).
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == [
                "Store.\(type.rawValue)", "Store.\(type.rawValue).lock",
            ])
    }

    // A block predicate and a transient property work where the fetch is evaluated in memory,
    // and fail in SQLite with the error Core Data's SQLite store raises.
    @Test(arguments: [StoreType.inMemory, .xml, .binary, .sqlite])
    func blockPredicatesAndTransientPropertiesNeedAnAtomicStore(_ type: StoreType) throws {
        let model = try ManagedObjectModel {
            EntityDescription("Item") {
                AttributeDescription("name", .string)
                AttributeDescription("flag", .boolean, transient: true)
            }
        }
        let directory = try TemporaryDirectory()
        let coordinator = try coordinator(type, type == .inMemory ? nil : directory.file("Store"), model: model)
        let context = ManagedObjectContext(coordinator: coordinator)
        for name in ["apple", "banana", "cherry"] {
            let item = try context.insertNewObject(forEntityName: "Item")
            try item.checkedSetValue(name, forKey: "name")
        }
        try context.save()
        let items = try context.fetch(FetchRequest(entityName: "Item"))
        try items[1].checkedSetValue(true, forKey: "flag")
        let block = FetchRequest(entityName: "Item")
        block.predicate = Predicate { object, _ in
            ((try? (object as? ManagedObject)?.checkedValue(forKey: "name")) as? String)?.count == 6
        }
        block.includesPendingChanges = false
        let transient = FetchRequest(entityName: "Item")
        transient.predicate = try Predicate(checkedFormat: "flag == YES")
        transient.includesPendingChanges = false
        if type == .sqlite {
            let blockError = #expect(throws: CoreDataError.self) { _ = try context.fetch(block) }
            #expect(blockError?.message.contains("Unknown predicate type for predicate: BLOCKPREDICATE") == true)
            let transientError = #expect(throws: CoreDataError.self) { _ = try context.fetch(transient) }
            #expect(transientError?.message == "keypath flag not found in entity Item")
        } else {
            #expect(
                try context.fetch(block).map { try $0.checkedValue(forKey: "name") as? String } == ["banana", "cherry"])
            #expect(try context.fetch(transient).map { try $0.checkedValue(forKey: "name") as? String } == ["banana"])
        }
    }

    // migratePersistentStore:toURL:options:withType:error: moves every object and
    // relationship; object IDs stay valid because the store keeps its UUID.
    @Test func aStoreMovesThroughEveryTypeIntact() throws {
        let directory = try TemporaryDirectory()
        let coordinator = try coordinator(.sqlite, directory.file("Start.sqlite"))
        let context = ManagedObjectContext(coordinator: coordinator)
        try seed(context)
        let someID = try context.fetch(FetchRequest(entityName: "Book"))[0].objectID
        var store = coordinator.persistentStores[0]
        for (type, name) in [
            (StoreType.xml, "Moved.xml"), (.binary, "Moved.binary"), (.inMemory, ""), (.sqlite, "Back.sqlite"),
        ] {
            store = try coordinator.migratePersistentStore(
                store, to: name.isEmpty ? nil : directory.file(name), type: type)
            #expect(coordinator.persistentStores.count == 1 && store.type == type)
            let fresh = ManagedObjectContext(coordinator: coordinator)
            try expectSeededGraph(fresh, "after moving to \(type)")
            #expect(try fresh.existingObject(with: someID).checkedValue(forKey: "title") as? String != nil)
            // New objects get keys that do not collide with the moved ones.
            let book = try fresh.insertNewObject(forEntityName: "Book")
            try book.checkedSetValue("New in \(type)", forKey: "title")
            try fresh.save()
            #expect(try fresh.count(for: FetchRequest(entityName: "Book")) >= 3)
            try fresh.checkedDelete(book)
            try fresh.save()
        }
        // The original store is left as it was: none of the later saves reached it.
        let original = ManagedObjectContext(coordinator: try self.coordinator(.sqlite, directory.file("Start.sqlite")))
        try expectSeededGraph(original, "the original")
        #expect(try original.count(for: FetchRequest(entityName: "Book")) == 2)
        let occupied = #expect(throws: CoreDataError.self) {
            try coordinator.migratePersistentStore(store, to: directory.file("Moved.xml"), type: .xml)
        }
        #expect(occupied?.message.contains("There is already a file") == true)
    }

    // Bad files: each a clear error, and the file is left byte for byte as it was.
    @Test(arguments: [
        ("notes", StoreType.xml, "not a store"), ("notes", .binary, "not a store"),
        ("xml-store", .binary, "is an XML store, not a Binary store"),
        ("sqlite-store", .xml, "is a SQLite store, not an XML store"),
        ("truncated-xml", .xml, "is damaged"),
    ])
    func badFilesAreClearErrorsAndStayUntouched(_ kind: String, _ type: StoreType, _ expected: String) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("file")
        switch kind {
        case "notes": try Data("my notes, not a store".utf8).write(to: url)
        case "xml-store", "truncated-xml":
            let source = directory.file("source.xml")
            try seed(ManagedObjectContext(coordinator: coordinator(.xml, source)))
            var data = try Data(contentsOf: source)
            if kind == "truncated-xml" { data = data.prefix(data.count / 2) }
            try data.write(to: url)
        default:
            let source = directory.file("source.sqlite")
            try seed(ManagedObjectContext(coordinator: coordinator(.sqlite, source)))
            try FileManager.default.copyItem(at: source, to: url)
        }
        let before = try Data(contentsOf: url)
        let error = #expect(throws: CoreDataError.self) { _ = try coordinator(type, url) }
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(url.path) == true)
        #expect(try Data(contentsOf: url) == before)
    }
}

// What interrupted processes leave behind: an empty file (killed while creating the store)
// is a new store; scratch files of interrupted saves go the next time the store opens.
@Suite struct AtomicStoreLeftoverTests {
    @Test(arguments: AtomicStoreTests.fileTypes)
    func anEmptyFileIsANewStore(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Empty.\(type.rawValue)")
        try Data().write(to: url)
        let metadataError = #expect(throws: CoreDataError.self) {
            _ = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        }
        #expect(metadataError?.code == .fileReadNoSuchFile, "the same answer as for a missing file: no store yet")
        let context = ManagedObjectContext(coordinator: try AtomicStoreTests().coordinator(type, url))
        try AtomicStoreTests().seed(context)
        try AtomicStoreTests().expectSeededGraph(
            ManagedObjectContext(coordinator: try AtomicStoreTests().coordinator(type, url)), "\(type)")
        #expect(
            try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)["NSStoreType"] as? String
                == type.rawValue)
    }

    @Test(arguments: AtomicStoreTests.fileTypes)
    func scratchFilesOfInterruptedSavesAreRemovedAtOpen(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Store.\(type.rawValue)")
        try AtomicStoreTests().seed(ManagedObjectContext(coordinator: try AtomicStoreTests().coordinator(type, url)))
        // A process id that no process has (above any pid_max), and this process's own.
        let dead = directory.file(".Store.\(type.rawValue).2147483646.tmp")
        let own = directory.file(".Store.\(type.rawValue).\(ProcessInfo.processInfo.processIdentifier).tmp")
        let otherStore = directory.file(".Other.\(type.rawValue).2147483646.tmp")
        // The lock of a finished migration's scratch store (`<store>.migrating`, renamed into place).
        let migrationLock = directory.file("Store.\(type.rawValue).migrating.lock")
        for file in [dead, own, otherStore, migrationLock] { try Data("half a store".utf8).write(to: file) }
        try AtomicStoreTests().expectSeededGraph(
            ManagedObjectContext(coordinator: try AtomicStoreTests().coordinator(type, url)), "\(type)")
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(!FileManager.default.fileExists(atPath: own.path))
        #expect(!FileManager.default.fileExists(atPath: migrationLock.path))
        #expect(
            FileManager.default.fileExists(atPath: otherStore.path),
            "another store's scratch is not this store's business")
    }

    @Test func duplicateObjectIDsAreAnErrorNamingTheID() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Store.xml")
        try AtomicStoreTests().seed(ManagedObjectContext(coordinator: try AtomicStoreTests().coordinator(.xml, url)))
        var text = try String(contentsOf: url, encoding: .utf8)
        // The second book takes the first one's id.
        let ids = text.ranges(of: "<object type=\"Book\" id=\"z")
        try #require(ids.count == 2)
        let firstID = text[ids[0].upperBound...].prefix { $0 != "\"" }
        let secondID = text[ids[1].upperBound...].prefix { $0 != "\"" }
        text = text.replacingOccurrences(
            of: "<object type=\"Book\" id=\"z\(secondID)\"", with: "<object type=\"Book\" id=\"z\(firstID)\"")
        try Data(text.utf8).write(to: url)
        let error = #expect(throws: CoreDataError.self) { _ = try AtomicStoreTests().coordinator(.xml, url) }
        #expect(error?.code == .persistentStoreOpen)
        #expect(error?.message.contains("z\(firstID)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(url.path) == true)
    }

    @Test func aDamagedFileNamesTheLine() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Store.xml")
        try AtomicStoreTests().seed(ManagedObjectContext(coordinator: try AtomicStoreTests().coordinator(.xml, url)))
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data(
            text.replacingOccurrences(
                of: "<attribute name=\"title\" type=\"string\">A</attribute>",
                with: "<attribute name=\"title\" type=\"string\">A\u{1}</attribute>"
            ).utf8
        ).write(to: url)
        let error = #expect(throws: CoreDataError.self) { _ = try AtomicStoreTests().coordinator(.xml, url) }
        #expect(error?.code == .persistentStoreOpen)
        #expect(error?.message.contains("line ") == true, "\(error?.message ?? "")")
    }
}
