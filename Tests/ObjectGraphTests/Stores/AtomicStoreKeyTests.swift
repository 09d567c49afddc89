import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

// How the XML and binary stores number objects. Apple, NSAtomicStore newReferenceObject(for:):
// the reference object "must be unique for an instance within its entity's inheritance
// hierarchy (in this store)", and "must return a stable (unchanging) value for a given
// object". Keys here count per inheritance tree, as the SQLite store's Z_MAX does: dense
// (1, 2, 3 for one entity whatever others hold), the same after every reload, and a deleted
// object's key is not handed out again while the store lives.
@Suite struct AtomicStoreKeyTests {
    static let fileTypes: [StoreType] = [.xml, .binary]

    /// A new coordinator on the file, as another process (or a later run) opens it.
    func context(_ type: StoreType, _ url: URL) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        try coordinator.addPersistentStore(type: type, at: url)
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// Inserts one object with `values` in a context of its own, saves, and returns its key.
    @discardableResult
    func insert(_ entity: String, _ values: [String: Any], type: StoreType, url: URL) throws -> Int64 {
        let context = try context(type, url)
        let object = try context.insertNewObject(forEntityName: entity)
        for (key, value) in values { try object.checkedSetValue(value, forKey: key) }
        try context.save()
        return object.objectID.primaryKey
    }

    /// Each object's entity and key, as a fresh coordinator reads the file.
    func keys(_ type: StoreType, _ url: URL) throws -> [String: [Int64]] {
        let context = try context(type, url)
        var result: [String: [Int64]] = [:]
        for entity in ["Publisher", "Book", "Author"] {
            result[entity] = try context.fetch(FetchRequest(entityName: entity)).map(\.objectID.primaryKey).sorted()
        }
        return result
    }

    @Test(arguments: fileTypes)
    func eachEntityCountsOnItsOwnAcrossReloads(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Store.\(type.rawValue)")
        // Each insert in a coordinator of its own: every one reads the file afresh.
        #expect(try insert("Publisher", ["name": "P"], type: type, url: url) == 1)
        #expect(try insert("Book", ["title": "A"], type: type, url: url) == 1)
        #expect(try insert("Author", ["name": "X"], type: type, url: url) == 1)
        #expect(try insert("Book", ["title": "B"], type: type, url: url) == 2)
        #expect(try insert("Publisher", ["name": "Q"], type: type, url: url) == 2)
        #expect(try insert("Book", ["title": "C"], type: type, url: url) == 3)
        #expect(try keys(type, url) == ["Publisher": [1, 2], "Book": [1, 2, 3], "Author": [1]])
    }

    @Test(arguments: fileTypes)
    func aDeletedKeyIsNotHandedOutAgain(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Store.\(type.rawValue)")
        for title in ["A", "B", "C"] { try insert("Book", ["title": title], type: type, url: url) }
        // The last book goes, then every book: the count stays in the file.
        let context = try context(type, url)
        let books = try context.fetch(FetchRequest(entityName: "Book")).sorted {
            $0.objectID.primaryKey < $1.objectID.primaryKey
        }
        try context.checkedDelete(books[2])
        try context.save()
        #expect(try insert("Book", ["title": "D"], type: type, url: url) == 4)
        let again = try self.context(type, url)
        for book in try again.fetch(FetchRequest(entityName: "Book")) { try again.checkedDelete(book) }
        try again.save()
        #expect(try insert("Book", ["title": "E"], type: type, url: url) == 5)
        #expect(try insert("Publisher", ["name": "P"], type: type, url: url) == 1)
    }

    // The XML file says each tree's last key in <primaryKeys>, beside Core Data's one
    // nextObjectID, which stays the largest key of all plus one.
    @Test func theXMLFileRecordsEachTreesLastKey() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Store.xml")
        try insert("Publisher", ["name": "P"], type: .xml, url: url)
        for title in ["A", "B"] { try insert("Book", ["title": title], type: .xml, url: url) }
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(
            text.contains(
                """
                        <nextObjectID>3</nextObjectID>
                        <primaryKeys>
                            <primaryKey entity="Book" max="2"></primaryKey>
                            <primaryKey entity="Publisher" max="1"></primaryKey>
                        </primaryKeys>
                """), "\(text)")
        // A Publisher and a Book are both z1: a relationship's destination names the tree.
        #expect(text.contains("<object type=\"Publisher\" id=\"z1\""))
        #expect(text.contains("<object type=\"Book\" id=\"z1\""))
    }

    /// An XML store as this module wrote it before keys counted per tree (and as Core Data's
    /// XML store numbers): one count for every entity, z5 deleted, so nextObjectID is 6.
    /// The metadata is taken from a store of the same model, so the file opens.
    func oneCountFile(at url: URL, directory: TemporaryDirectory) throws {
        let model = directory.file("Model.xml")
        try insert("Publisher", ["name": "P"], type: .xml, url: model)
        let written = try String(contentsOf: model, encoding: .utf8)
        let text = try OneCountXMLStore.text(
            reusingHeaderOf: written, nextObjectID: 6,
            objects: """
                    <object type="Publisher" id="z1" version="1">
                        <attribute name="name" type="string">P</attribute>
                    </object>
                    <object type="Book" id="z2" version="1">
                        <attribute name="title" type="string">A</attribute>
                        <relationship name="publisher" type="1/1" destination="Publisher" idrefs="z1"></relationship>
                    </object>
                    <object type="Author" id="z3" version="1">
                        <attribute name="name" type="string">X</attribute>
                    </object>
                    <object type="Book" id="z4" version="1">
                        <attribute name="title" type="string">B</attribute>
                    </object>
                """)
        try Data(text.utf8).write(to: url)
    }

    // A store written with one count for all entities opens with every object's key as it
    // was; new keys continue after nextObjectID in every tree (which tree z5 was in is not
    // known, so no tree reuses it), and count per tree from then on.
    @Test func anXMLStoreWithOneCountForAllKeepsItsKeys() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Old.xml")
        try oneCountFile(at: url, directory: directory)
        #expect(try keys(.xml, url) == ["Publisher": [1], "Book": [2, 4], "Author": [3]])
        let context = try context(.xml, url)
        let store = try #require(context.persistentStoreCoordinator.persistentStores.first)
        let uri = try #require(URL(string: "x-coredata://\(store.identifier)/Book/p2"))
        let id = try #require(context.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri))
        let book = try context.existingObject(with: id)
        #expect(try book.checkedValue(forKey: "title") as? String == "A")
        #expect(
            try (book.checkedValue(forKey: "publisher") as? ManagedObject)?.checkedValue(forKey: "name") as? String
                == "P")

        #expect(try insert("Book", ["title": "C"], type: .xml, url: url) == 6)
        #expect(try insert("Publisher", ["name": "Q"], type: .xml, url: url) == 6)
        #expect(try insert("Book", ["title": "D"], type: .xml, url: url) == 7)
        #expect(try insert("Author", ["name": "Y"], type: .xml, url: url) == 6)
        #expect(try keys(.xml, url) == ["Publisher": [1, 6], "Book": [2, 4, 6, 7], "Author": [3, 6]])
    }

    @Test func aDamagedPrimaryKeyIsAClearError() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Store.xml")
        try insert("Book", ["title": "A"], type: .xml, url: url)
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "max=\"1\"", with: "max=\"one\"").utf8).write(to: url)
        let error = #expect(throws: CoreDataError.self) { _ = try context(.xml, url) }
        #expect(error?.code == .persistentStoreOpen)
        #expect(
            error?.message
                == "The XML store at \(url.path) is damaged: <primaryKey> 1 in <primaryKeys> needs an entity and a max of 0 or more (entity=\"Book\" max=\"one\")"
        )
    }
}
