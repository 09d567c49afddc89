import Foundation
import ObjectGraph
import Testing

// Inputs the fuzzers (Fuzz/run.sh and ReaderFuzzTests) found that crashed or hung a reader of
// outside bytes, each with the error it gives now: a CoreDataError that names the file.

@Suite("Readers of outside bytes: what the fuzzers found")
struct ReaderRegressionTests {
    /// Writes `bytes` to `name` in a new folder of the test's own.
    private func file(_ name: String, _ bytes: [UInt8], in directory: TemporaryDirectory) throws -> URL {
        let url = directory.file(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url
    }

    // A model whose attribute name holds a byte that is not UTF-8 (0xFF): libxml2, in the
    // recover mode Foundation runs it in, handed the name to XMLParser, which force-unwrapped
    // it into a String and trapped. Found by the bounded fuzz (a bit flip in ToDo 2's contents).
    @Test func aModelWithANameThatIsNotUTF8IsAnError() throws {
        let directory = try TemporaryDirectory()
        let xml = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model><entity name=\"A\"><attribute name=\"a\" invers".utf8)
            + [0xFF] + Array("Name=\"b\" attributeType=\"String\"/></entity></model>".utf8)
        let contents = try file("Broken.xcdatamodel/contents", xml, in: directory)
        let error = try #require(throws: CoreDataError.self) { try XcodeModelLoader().loadModel(at: contents.deletingLastPathComponent()) }
        #expect(error.code == .fileReadCorruptFile)
        #expect(error.message.contains(contents.path))
        #expect(error.message.contains("byte 89 is not UTF-8"))
    }

    // The same byte in an element name of an XML store: its reader parses with XMLParser too.
    @Test func anXMLStoreWithANameThatIsNotUTF8IsAnError() throws {
        let directory = try TemporaryDirectory()
        let xml = Array("<?xml version=\"1.0\"?>\n<database><databaseInfo><UUID>X</UUID></databaseInfo><obj".utf8)
            + [0xC3, 0x28] + Array("ect type=\"A\" id=\"z1\"/></database>".utf8)
        let url = try file("Store.xml", xml, in: directory)
        let model = try ManagedObjectModel { EntityDescription("A") { AttributeDescription("a", .string) } }
        let opened = try #require(throws: CoreDataError.self) {
            try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .xml, at: url)
        }
        #expect(opened.message.contains(url.path) && opened.message.contains("not UTF-8"))
        let metadata = try #require(throws: CoreDataError.self) { try PersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: url) }
        #expect(metadata.message.contains("not UTF-8") && metadata.message.contains(url.path))
    }

    // metadataForPersistentStore(type:at:) named what was wrong with an atomic store but not
    // the file (found by the bounded fuzz: mutations of the seeds in Fuzz/xmlstore and
    // Fuzz/binarystore).
    @Test(arguments: [(StoreType.xml, Array("<?xml version=\"1.0\"?>\n<database><databaseInfo>".utf8)),
                      (StoreType.binary, Array("bplist00".utf8) + [UInt8](repeating: 0, count: 40))])
    func storeMetadataErrorsNameTheFile(type: StoreType, bytes: [UInt8]) throws {
        let directory = try TemporaryDirectory()
        let url = try file("Store.\(type.rawValue)", bytes, in: directory)
        let error = try #require(throws: CoreDataError.self) { try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url) }
        #expect(error.message.hasPrefix("The \(type.rawValue) store at \(url.path) is damaged: "))
    }

    // An XML store without <primaryKeys> whose nextObjectID is Int64.min: the last key of each
    // entity was nextObjectID - 1, which overflowed and trapped. Now no key is taken yet.
    @Test func anXMLStoreWhoseNextObjectIDIsTheSmallestIntegerOpens() throws {
        let directory = try TemporaryDirectory()
        let xml = "<?xml version=\"1.0\"?>\n<database><databaseInfo><UUID>X</UUID><nextObjectID>-9223372036854775808</nextObjectID>"
            + "</databaseInfo></database>"
        let url = try file("Store.xml", Array(xml.utf8), in: directory)
        let model = try ManagedObjectModel { EntityDescription("A") { AttributeDescription("a", .string) } }
        // No version hashes in its metadata: the model does not open it, but says so.
        let error = try #require(throws: CoreDataError.self) {
            try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .xml, at: url)
        }
        #expect(error.code == .persistentStoreIncompatibleVersionHash)
    }
}
