import Foundation
import Testing

@testable import ObjectGraph

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
    // it into a String and trapped. Found by the bounded fuzz (an edge byte, 0xFF, in a seed
    // model's inverseName).
    @Test func aModelWithANameThatIsNotUTF8IsAnError() throws {
        let directory = try TemporaryDirectory()
        let xml =
            Array(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model><entity name=\"A\"><attribute name=\"a\" invers"
                    .utf8)
            + [0xFF] + Array("Name=\"b\" attributeType=\"String\"/></entity></model>".utf8)
        let contents = try file("Broken.xcdatamodel/contents", xml, in: directory)
        let error = try #require(throws: CoreDataError.self) {
            try XcodeModelLoader().loadModel(at: contents.deletingLastPathComponent())
        }
        #expect(error.code == .fileReadCorruptFile)
        #expect(error.message.contains(contents.path))
        #expect(error.message.contains("byte 89 is not UTF-8"))
    }

    // The same byte in an element name of an XML store: its reader parses with XMLParser too.
    @Test func anXMLStoreWithANameThatIsNotUTF8IsAnError() throws {
        let directory = try TemporaryDirectory()
        let xml =
            Array("<?xml version=\"1.0\"?>\n<database><databaseInfo><UUID>X</UUID></databaseInfo><obj".utf8)
            + [0xC3, 0x28] + Array("ect type=\"A\" id=\"z1\"/></database>".utf8)
        let url = try file("Store.xml", xml, in: directory)
        let model = try ManagedObjectModel { EntityDescription("A") { AttributeDescription("a", .string) } }
        let opened = try #require(throws: CoreDataError.self) {
            try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .xml, at: url)
        }
        #expect(opened.message.contains(url.path) && opened.message.contains("not UTF-8"))
        let metadata = try #require(throws: CoreDataError.self) {
            try PersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: url)
        }
        #expect(metadata.message.contains("not UTF-8") && metadata.message.contains(url.path))
    }

    // metadataForPersistentStore(type:at:) named what was wrong with an atomic store but not
    // the file (found by the bounded fuzz: mutations of the seeds in Fuzz/xmlstore and
    // Fuzz/binarystore).
    @Test(arguments: [
        (StoreType.xml, Array("<?xml version=\"1.0\"?>\n<database><databaseInfo>".utf8)),
        (StoreType.binary, Array("bplist00".utf8) + [UInt8](repeating: 0, count: 40)),
    ])
    func storeMetadataErrorsNameTheFile(type: StoreType, bytes: [UInt8]) throws {
        let directory = try TemporaryDirectory()
        let url = try file("Store.\(type.rawValue)", bytes, in: directory)
        let error = try #require(throws: CoreDataError.self) {
            try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        }
        #expect(error.message.hasPrefix("The \(type.rawValue) store at \(url.path) is damaged: "))
    }

    // An XML store without <primaryKeys> whose nextObjectID is Int64.min: the last key of each
    // entity was nextObjectID - 1, which overflowed and trapped. Now no key is taken yet.
    @Test func anXMLStoreWhoseNextObjectIDIsTheSmallestIntegerOpens() throws {
        let directory = try TemporaryDirectory()
        let xml =
            "<?xml version=\"1.0\"?>\n<database><databaseInfo><UUID>X</UUID><nextObjectID>-9223372036854775808</nextObjectID>"
            + "</databaseInfo></database>"
        let url = try file("Store.xml", Array(xml.utf8), in: directory)
        let model = try ManagedObjectModel { EntityDescription("A") { AttributeDescription("a", .string) } }
        // No version hashes in its metadata: the model does not open it, but says so.
        let error = try #require(throws: CoreDataError.self) {
            try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .xml, at: url)
        }
        #expect(error.code == .persistentStoreIncompatibleVersionHash)
    }

    // Keys and versions count up from what an atomic store's file says, so an object id or
    // version near Int64.max (or a nextObjectID there, which sets the last key) trapped at the
    // next insert or save. Refused on reading now; 2^62 is the largest, and still saves.
    @Test(arguments: [
        ("z9223372036854775807", "1", "5"), ("z1", "9223372036854775807", "5"), ("z1", "1", "9223372036854775807"),
        ("z4611686018427387904", "4611686018427387904", "5"),
    ])
    func atomicStoreKeysNearTheLargestIntegerAreRefused(id: String, version: String, nextObjectID: String) throws {
        let directory = try TemporaryDirectory()
        let model = try ManagedObjectModel { EntityDescription("A") { AttributeDescription("a", .string) } }
        let url = directory.file("Store.xml")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .xml, at: url)
        try ManagedObjectContext(coordinator: coordinator).save()
        let written = try String(contentsOf: url, encoding: .utf8)
        let info = try #require(written.range(of: "</databaseInfo>"))
        let damaged =
            written[..<info.lowerBound].replacingOccurrences(
                of: "<nextObjectID>1</nextObjectID>", with: "<nextObjectID>\(nextObjectID)</nextObjectID>")
            + "</databaseInfo>\n<object type=\"A\" id=\"\(id)\" version=\"\(version)\"></object>\n</database>\n"
        try Data(damaged.utf8).write(to: url)
        let reopened = PersistentStoreCoordinator(managedObjectModel: model)
        if id == "z4611686018427387904" {
            // The largest key a store may hold: an insert and an update after it save.
            try reopened.addPersistentStore(type: .xml, at: url)
            let context = ManagedObjectContext(coordinator: reopened)
            let object = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "A")).first)
            try object.checkedSetValue("changed", forKey: "a")
            try context.insertNewObject(forEntityName: "A").checkedSetValue("new", forKey: "a")
            try context.save()
            return
        }
        let error = try #require(throws: CoreDataError.self) { try reopened.addPersistentStore(type: .xml, at: url) }
        #expect(error.message.contains(url.path) && error.message.contains("beyond the largest a store may hold"))
    }

    // A few hundred bytes whose containers hold the next container twice, 40 levels deep, refer
    // to 2^40 values: reading them ran for hours and took all memory (ours, and Foundation's
    // PropertyListSerialization under the binary store and .xccurrentversion). Found reading
    // the reader while fuzzing it, and measured with the keyedarchive fuzz target (22 levels:
    // 64 s, 570 MB). Refused now in linear time.
    @Test func sharedContainersInABinaryPropertyListAreRefused() throws {
        let start = Date()
        let plist = SharedReferences.plist(levels: 40)
        let error = try #require(throws: KeyedArchive.Failure.self) { try KeyedArchive.unarchivedValue(from: plist) }
        #expect(error.reason.contains("refers to more than"))
        let directory = try TemporaryDirectory()
        let url = try file("Store.binary", [UInt8](plist), in: directory)
        let stored = try #require(throws: CoreDataError.self) {
            try PersistentStoreCoordinator.metadataForPersistentStore(type: .binary, at: url)
        }
        #expect(stored.message.contains(url.path) && stored.message.contains("refers to more than"))
        let bundle = directory.file("Model.xcdatamodeld")
        _ = try file(
            "Model.xcdatamodeld/Model.xcdatamodel/contents", Array("<model><entity name=\"A\"/></model>".utf8),
            in: directory)
        let current = try file("Model.xcdatamodeld/.xccurrentversion", [UInt8](plist), in: directory)
        let loaded = try #require(throws: CoreDataError.self) { try XcodeModelLoader().loadBundle(at: bundle) }
        #expect(loaded.message.contains(current.path) && loaded.message.contains("refers to more than"))
        #expect(Date().timeIntervalSince(start) < 10)
    }

    // The same sharing one level up: archived NSArrays that hold the next NSArray twice, by UID.
    @Test func sharedObjectsInAKeyedArchiveAreRefused() throws {
        let start = Date()
        let error = try #require(throws: KeyedArchive.Failure.self) {
            try KeyedArchive.unarchivedValue(from: SharedReferences.archive(levels: 40))
        }
        #expect(error.reason.contains("so many times over"))
        // Sharing as real archives have it still reads: one array in four places.
        let shared = try KeyedArchive.unarchivedValue(from: SharedReferences.archive(levels: 2))
        #expect((shared as? [Any])?.count == 2)
        #expect(Date().timeIntervalSince(start) < 10)
    }

    // A binary property list with eight-byte references, one of them past Int.max: converting
    // it to an Int trapped, in the reader and in its sharing check. Found by Fuzz/run.sh
    // keyedarchive (this is its input, 256 bytes).
    @Test func aReferencePastTheLargestIntIsAnError() throws {
        let input = try #require(
            Data(
                base64Encoded: """
                    YnBsaXN0MDDUAQIDBPoGBwpYJHZlcnNpb25ZJGFyY2hpdmVyVCR0b5Cn25CdlZqmdHMSAAGGoF8QD05TS2V5ZWRBcmOYk3ZlctEICVRyb290gAGkCwwTFFUkbnVs\
                    bNMNDg8QERJXTlMuYmFzZVtOUy5yZWxhdGl2ZVYkY2xhc3OAAIACgANdZmlsZTovLy90bWNoaXZlclQkdG9wWCRvYmplY3RzEgABjG5hbWWiGBlVTlNVUkxYTlNP\
                    YmplY3SOTlNVUkwIERokKTI3SUxRU1heZW15gIKEhpSZoq2wtr8AAAAAAAABCAAAAAAAAAAbAAAAAAAAAAAAAAAAAAAAxQ==
                    """))
        let error = try #require(throws: KeyedArchive.Failure.self) {
            try KeyedArchive.unarchivedValue(from: input, allowedClassNames: nil)
        }
        #expect(error.reason.hasPrefix("the data is not a keyed archive"))
    }

    // A processing instruction without data, `<?x?>`: Foundation's XMLParser called strlen on
    // NULL and the process crashed (SEGV). Found by a libFuzzer run of the xmlstore target
    // (this is its input); model files go through the same parser.
    @Test func aProcessingInstructionIsAnError() throws {
        let directory = try TemporaryDirectory()
        let store = try file(
            "Store.xml",
            Array("<?x?>\n<database><d'ab></datkbaseInin1 0\"?>\n<database><d'ab></datkbaseInfo><objeJt".utf8),
            in: directory)
        let metadata = try #require(throws: CoreDataError.self) {
            try PersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: store)
        }
        #expect(
            metadata.message.contains(store.path) && metadata.message.contains("processing instruction (<? at byte 0)"))
        let contents = try file(
            "PI.xcdatamodel/contents", Array("<?xml version=\"1.0\"?>\n<model><?x?></model>".utf8), in: directory)
        let model = try #require(throws: CoreDataError.self) {
            try XcodeModelLoader().loadModel(at: contents.deletingLastPathComponent())
        }
        #expect(
            model.message.contains(contents.path) && model.message.contains("processing instruction (<? at byte 29)"))
        // An XML declaration without a space is one too, to libxml2 (found by the same run).
        let bare = try file(
            "Bare.xml", Array("<?xml?>\n<database><databaseInfo><UUID>X</UUID></databaseInfo></database>".utf8),
            in: directory)
        let declaration = try #require(throws: CoreDataError.self) {
            try PersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: bare)
        }
        #expect(declaration.message.contains("processing instruction (<? at byte 0)"))
    }

    // A binary store whose property list holds a set (one flipped bit turned an array into
    // one): Foundation's PropertyListSerialization crashed (SEGV) bridging it to Swift. A
    // dictionary key that is not a string goes the same way. Found by Fuzz/run.sh binarystore.
    @Test func aBinaryStoreHoldingASetIsAnError() throws {
        typealias R = SharedReferences
        let directory = try TemporaryDirectory()
        // {"NSStoreUUID": "X", "objects": <set of {"a": 1}>} and {1: "X"}.
        let withSet = R.bplist([
            R.dictionary([1, 2], [3, 4]), R.ascii("NSStoreUUID"), R.ascii("objects"), R.ascii("X"),
            [0xC1, 0x00, 0x05], R.dictionary([6], [7]), R.ascii("a"), [0x10, 0x01],
        ])
        let numberKey = R.bplist([R.dictionary([1], [2]), [0x10, 0x01], R.ascii("X")])
        for (name, bytes, reason) in [
            ("Set.binary", withSet, "holds a set"),
            ("Key.binary", numberKey, "key of the binary property list is not a string"),
        ] {
            let url = try file(name, [UInt8](bytes), in: directory)
            let error = try #require(throws: CoreDataError.self) {
                try PersistentStoreCoordinator.metadataForPersistentStore(type: .binary, at: url)
            }
            #expect(error.message.contains(url.path) && error.message.contains(reason))
        }
        // Keyed archives, which ObjectGraph reads itself, still may hold sets.
        #expect(throws: Never.self) { try BinaryPropertyList.checkSharing(withSet) }
    }

    // A binary store whose string attribute holds a keyed archive's UID: it was read as it
    // was, and the next save failed with Foundation's NSError ("property lists cannot contain
    // objects of type 'Not A Type'"), not a CoreDataError. Found by Fuzz/run.sh binarystore.
    @Test func aBinaryStoreValueOfTheWrongTypeIsAnError() throws {
        typealias R = SharedReferences
        let directory = try TemporaryDirectory()
        // {"NSStoreUUID": "X", "objects": [{"entity": "A", "id": 1, "attributes": {"a": UID 1}}]}
        let bytes = R.bplist([
            R.dictionary([1, 2], [3, 4]), R.ascii("NSStoreUUID"), R.ascii("objects"), R.ascii("X"), R.array([5]),
            R.dictionary([6, 7, 8], [9, 10, 11]), R.ascii("entity"), R.ascii("id"), R.ascii("attributes"),
            R.ascii("A"), [0x10, 0x01], R.dictionary([12], [13]), R.ascii("a"), [0x80, 0x01],
        ])
        let url = try file("Store.binary", [UInt8](bytes), in: directory)
        let model = try ManagedObjectModel { EntityDescription("A") { AttributeDescription("a", .string) } }
        let error = try #require(throws: CoreDataError.self) {
            try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .binary, at: url)
        }
        #expect(error.message.contains(url.path) && error.message.contains("a of object z1 (A) holds"))
        // What still cannot be written (metadata with a type no property list holds) fails the
        // save with a CoreDataError, not Foundation's NSError.
        struct NotAPropertyList {}
        let model2 = try ManagedObjectModel { EntityDescription("B") { AttributeDescription("b", .string) } }
        let failed = try #require(throws: CoreDataError.self) {
            try BinaryStoreFormat().encode(
                AtomicContents(), identifier: "X", metadata: ["bad": NotAPropertyList()], model: model2)
        }
        #expect(failed.code == .persistentStoreSave && failed.message.contains("cannot be written as a property list"))
    }

    // An archived object whose $classname (NSArrax) is not the first of its $classes (NSArray):
    // it was read as an object of class NSArrax but came back as an ArchivedObject naming
    // NSArray, which archived again as an NSArray that does not read back. Found by
    // Fuzz/run.sh keyedarchive (its check archives what it reads and reads that again).
    @Test func anArchivedClassNameThatIsNotTheFirstOfItsClassesStaysTheClass() throws {
        typealias R = SharedReferences
        var objects: [[UInt8]] = [[]]
        func add(_ object: [UInt8]) -> Int {
            objects.append(object)
            return objects.count - 1
        }
        let k = [
            "$archiver", "NSKeyedArchiver", "$objects", "$top", "root", "$class", "NS.objects", "$classname",
            "$classes",
            "$null", "NSArrax", "NSArray", "NSObject", "x",
        ].map { add(R.ascii($0)) }
        let classes = add(R.array([k[11], k[12]]))
        let classInfo = add(R.dictionary([k[7], k[8]], [k[10], classes]))
        let uids = (0..<4).map { add(R.uid($0)) }
        let object = add(R.dictionary([k[5], k[6]], [uids[2], uids[3]]))
        let archived = add(R.array([k[9], object, classInfo, k[13]]))
        let top = add(R.dictionary([k[4]], [uids[1]]))
        objects[0] = R.dictionary([k[0], k[2], k[3]], [k[1], archived, top])
        let read = try #require(
            try KeyedArchive.unarchivedValue(from: R.bplist(objects), allowedClassNames: nil)
                as? KeyedArchive.ArchivedObject)
        #expect(read.classNames == ["NSArrax", "NSArray", "NSObject"])
        #expect(read.fields["NS.objects"] as? String == "x")
        let again = try KeyedArchive.unarchivedValue(
            from: KeyedArchive.archivedData(withRootValue: read, allowedClassNames: nil), allowedClassNames: nil)
        #expect((again as? KeyedArchive.ArchivedObject)?.className == "NSArrax")
    }
}

/// Binary property lists whose containers share what they hold, level after level.
enum SharedReferences {
    /// A binary property list of these encoded objects (two-byte references).
    static func bplist(_ objects: [[UInt8]], top: Int = 0) -> Data {
        BinaryPropertyList.assemble(objects, top: top, referenceSize: 2)
    }

    static func references(_ refs: [Int]) -> [UInt8] { refs.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
    static func array(_ refs: [Int]) -> [UInt8] {
        (refs.count < 15 ? [0xA0 | UInt8(refs.count)] : [0xAF, 0x10, UInt8(refs.count)]) + references(refs)
    }
    static func dictionary(_ keys: [Int], _ values: [Int]) -> [UInt8] {
        [0xD0 | UInt8(keys.count)] + references(keys + values)
    }
    static func ascii(_ s: String) -> [UInt8] {
        (s.utf8.count < 15 ? [0x50 | UInt8(s.utf8.count)] : [0x5F, 0x10, UInt8(s.utf8.count)]) + Array(s.utf8)
    }
    static func uid(_ n: Int) -> [UInt8] { [0x81, UInt8(n >> 8), UInt8(n & 0xFF)] }

    /// Arrays each holding the next one twice.
    static func plist(levels: Int) -> Data {
        bplist((0..<levels).map { array([$0 + 1, $0 + 1]) } + [array([])])
    }

    /// A keyed archive of NSArrays each holding the next one twice (by UID).
    static func archive(levels: Int) -> Data {
        var objects: [[UInt8]] = [[]]
        func add(_ object: [UInt8]) -> Int {
            objects.append(object)
            return objects.count - 1
        }
        let keys = [
            "$archiver", "NSKeyedArchiver", "$objects", "$top", "root", "$class", "NS.objects", "$classname",
            "$classes",
            "$null", "NSArray", "NSObject",
        ].map { add(ascii($0)) }
        let classes = add(array([keys[10], keys[11]]))
        let arrayClass = add(dictionary([keys[7], keys[8]], [keys[10], classes]))
        let classUID = add(uid(1))
        let uids = (0...levels).map { add(uid(2 + $0)) }
        let arrays = (0...levels).map { level in
            let held = add(array(level < levels ? [uids[level + 1], uids[level + 1]] : []))
            return add(dictionary([keys[5], keys[6]], [classUID, held]))
        }
        let archived = add(array([keys[9], arrayClass] + arrays))
        let top = add(dictionary([keys[4]], [uids[0]]))
        objects[0] = dictionary([keys[0], keys[2], keys[3]], [keys[1], archived, top])
        return bplist(objects)
    }
}
