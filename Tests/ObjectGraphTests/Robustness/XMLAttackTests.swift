import Foundation
import Testing

@testable import ObjectGraph

// XML written to attack its parser, in the three kinds of file ObjectGraph reads as XML: an
// Xcode model (`contents`), a mapping model (`xcmapping.xml`) and Core Data's XML store. Each
// is refused with a CoreDataError naming the file and line, without reading anything the
// document points at, in bounded time and memory. The attacks are OWASP's "XML External
// Entity Prevention" and "XML Security" cases: external entities, entity expansion, deep
// nesting and huge attribute values.
@Suite("XML that attacks the parser")
struct XMLAttackTests {
    /// A file a stranger's document may point at: its text must never reach a value or message.
    private static let secret = "secret-text-that-must-not-be-read"

    /// The three readers, each given one document: the CoreDataError it throws.
    enum Reader: String, CaseIterable, Sendable {
        case model, mapping, store

        func error(reading xml: String, in directory: TemporaryDirectory) throws -> (CoreDataError, URL) {
            let url: URL
            switch self {
            case .model: url = directory.file("Attack.xcdatamodel/contents")
            case .mapping: url = directory.file("Attack.xcmappingmodel/xcmapping.xml")
            case .store: url = directory.file("Attack.xml")
            }
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(xml.utf8).write(to: url)
            let error = try #require(throws: CoreDataError.self) {
                switch self {
                case .model: _ = try XcodeModelLoader().loadModel(at: url.deletingLastPathComponent())
                case .mapping: _ = try MappingModel(contentsOf: url.deletingLastPathComponent())
                case .store:
                    let model = try ManagedObjectModel { EntityDescription("A") { AttributeDescription("a", .string) } }
                    _ = try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(
                        type: .xml, at: url)
                }
            }
            return (error, url)
        }

        /// How the reader's message gives line `n` of `url`: the model reader as a compiler
        /// does (`path:n:`), the others in words.
        func names(line n: Int, of url: URL, in message: String) -> Bool {
            message.contains(self == .model ? "\(url.path):\(n):" : "line \(n)")
        }

        /// The root element the reader expects, so that only the attack is wrong.
        var root: String { self == .model ? "model" : "database" }
    }

    /// Writes the secret in the test's folder and returns its URL.
    private func secretFile(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("secret.txt")
        try Data(Self.secret.utf8).write(to: url)
        return url
    }

    @Test(arguments: Reader.allCases)
    func anExternalEntityIsNeverRead(reader: Reader) throws {
        let directory = try TemporaryDirectory()
        let secret = try secretFile(in: directory)
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE \(reader.root) [<!ENTITY x SYSTEM "\(secret.absoluteString)">]>
            <\(reader.root) name="&x;">&x;</\(reader.root)>
            """
        let (error, url) = try reader.error(reading: xml, in: directory)
        #expect(!error.message.contains(Self.secret))
        #expect(error.message.contains(url.path) && reader.names(line: 2, of: url, in: error.message))
        #expect(error.message.contains("internal subset"))
    }

    @Test(arguments: Reader.allCases)
    func anExternalDTDIsNeverLoaded(reader: Reader) throws {
        // The declaration Core Data writes, pointed at a file that is not a DTD: blanked out
        // before parsing, so the document reads (and fails later for what it lacks) as if the
        // declaration were absent, and the file's text appears nowhere.
        let directory = try TemporaryDirectory()
        let secret = try secretFile(in: directory)
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE \(reader.root) SYSTEM "\(secret.absoluteString)">
            <\(reader.root)><x>&unknown;</x></\(reader.root)>
            """
        let (error, url) = try reader.error(reading: xml, in: directory)
        #expect(!error.message.contains(Self.secret))
        #expect(error.message.contains(url.path))
    }

    @Test(arguments: Reader.allCases)
    func entityExpansionIsRefusedBeforeParsing(reader: Reader) throws {
        // "Billion laughs": ten levels of ten references each, 10^10 copies of "lol".
        var subset = "<!ENTITY lol0 \"lol\">"
        for level in 1...10 {
            subset += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        let xml =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE \(reader.root) [\(subset)]>\n<\(reader.root)>&lol10;</\(reader.root)>"
        let directory = try TemporaryDirectory()
        let (error, url) = try reader.error(reading: xml, in: directory)
        #expect(reader.names(line: 2, of: url, in: error.message) && error.message.contains("internal subset"))
    }

    @Test(arguments: Reader.allCases)
    func anEntityDeclaredOutsideADocumentTypeIsRefused(reader: Reader) throws {
        let xml = "<?xml version=\"1.0\"?>\n<\(reader.root)>\n<!ENTITY x \"y\"></\(reader.root)>"
        let directory = try TemporaryDirectory()
        let (error, url) = try reader.error(reading: xml, in: directory)
        #expect(error.message.contains(url.path) && reader.names(line: 3, of: url, in: error.message))
        #expect(error.message.contains("declares an entity"))
    }

    @Test(arguments: Reader.allCases)
    func deepNestingIsRefused(reader: Reader) throws {
        // 100,000 levels parse in libxml2's huge mode; the tree built from them would be freed
        // by recursion deep enough to overflow the stack.
        let depth = 100_000
        let xml =
            "<?xml version=\"1.0\"?>\n<\(reader.root)>\n" + String(repeating: "<a>", count: depth)
            + String(repeating: "</a>", count: depth) + "</\(reader.root)>"
        let directory = try TemporaryDirectory()
        let (error, url) = try reader.error(reading: xml, in: directory)
        #expect(error.message.contains(url.path) && reader.names(line: 3, of: url, in: error.message))
        #expect(error.message.contains("nested deeper than \(XMLText.maximumDepth)"))
    }

    @Test(arguments: Reader.allCases)
    func aHugeAttributeValueIsRefused(reader: Reader) throws {
        // 20 MB in one attribute: over libxml2's 10 MB limit for a value.
        let xml =
            "<?xml version=\"1.0\"?>\n<\(reader.root) name=\"" + String(repeating: "x", count: 20_000_000)
            + "\"></\(reader.root)>"
        let directory = try TemporaryDirectory()
        let (error, url) = try reader.error(reading: xml, in: directory)
        #expect(error.message.contains(url.path))
        #expect(error.message.count < 2_000)
    }

    @Test func theStoresOwnDocumentTypeStillReads() throws {
        // What Core Data's XML store writes, DOCTYPE and all, opens and keeps its objects.
        let directory = try TemporaryDirectory()
        let url = directory.file("Store.xml")
        let model = try ManagedObjectModel { EntityDescription("A") { AttributeDescription("a", .string) } }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .xml, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insertNewObject(forEntityName: "A").setValue("kept", forKey: "a")
        try context.save()
        #expect(try String(contentsOf: url, encoding: .utf8).contains("<!DOCTYPE database SYSTEM"))
        let reopened = PersistentStoreCoordinator(managedObjectModel: model)
        try reopened.addPersistentStore(type: .xml, at: url)
        let objects = try ManagedObjectContext(coordinator: reopened).fetch(
            FetchRequest<ManagedObject>(entityName: "A"))
        #expect(objects.map { $0.value(forKey: "a") as? String } == ["kept"])
    }
}
