import Foundation
import Testing

@testable import ObjectGraph

/// The ToDo model's mapping from version 1 to 2 gives each to-do its policy's `doNotAlert`.
private final class AlertPolicy: EntityMigrationPolicy {
    required init() {}

    /// `FUNCTION($entityPolicy, "doNotAlertForTitle:", $source.title)`: Zarra's rule.
    override func performFunction(_ selector: String, arguments: [Any?]) throws -> FunctionResult? {
        guard selector == "doNotAlertForTitle:" else { return nil }
        return FunctionResult(((arguments.first ?? nil) as? String ?? "").lowercased().hasPrefix("a"))
    }
}

/// Xcode's mapping model files: Fixtures/Mapping/ToDo1To2.xcmappingmodel, written in Xcode's
/// format for the package's ToDo model (Sources/WorkbookSupport/Resources/ToDo.xcdatamodeld),
/// and compiled `.cdm` files written in each test's own folder.
@Suite struct XcodeMappingModelTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let fixture = root.appendingPathComponent("Tests/ObjectGraphTests/Fixtures/Mapping/ToDo1To2.xcmappingmodel")
    static let bundle = root.appendingPathComponent("Sources/WorkbookSupport/Resources/ToDo.xcdatamodeld")

    static func models() throws -> (v1: ManagedObjectModel, v2: ManagedObjectModel) {
        let versions = try ModelBundle(contentsOf: bundle)
        return (try #require(versions.model(named: "ToDo")), try #require(versions.model(named: "ToDo 2")))
    }

    static func source(_ path: String) -> ObjectGraph.Expression { .member(.variable("source"), path) }

    // https://developer.apple.com/documentation/coredata/nsmappingmodel/init(contentsof:) and
    // https://developer.apple.com/documentation/coredata/nsentitymapping: every entity mapping
    // and property mapping of the fixture, in Xcode's order, with the models' hashes.
    @Test func theFixtureReadsAsXcodeCompilesIt() throws {
        let mapping = try MappingModel(contentsOf: Self.fixture)
        let (v1, v2) = try Self.models()
        #expect(mapping.entityMappings.map(\.name) == ["CategoryToCategory", "ToDoToToDo"])
        let categories = mapping.entityMappings[0]
        let todos = mapping.entityMappings[1]

        #expect(categories.mappingType == .copy) // Category's hash is the same in both versions
        #expect(categories.sourceEntityName == "Category" && categories.destinationEntityName == "Category")
        #expect(categories.sourceEntityVersionHash == v1.entityVersionHashesByName["Category"])
        #expect(categories.destinationEntityVersionHash == v2.entityVersionHashesByName["Category"])
        #expect(
            categories.sourceExpression
                == EntityMapping.fetchSourceExpression(entityName: "Category", predicate: #"name != "Trash""#))
        #expect(categories.entityMigrationPolicyClassName == nil && categories.userInfo.isEmpty)
        #expect(categories.attributeMappings == [PropertyMapping(name: "name", valueExpression: Self.source("name"))])
        let throughToDos = ObjectGraph.Expression.customFunction(
            receiver: .variable("manager"), selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
            arguments: [.constant(.string("ToDoToToDo")), Self.source("todos")])
        #expect(categories.relationshipMappings == [PropertyMapping(name: "todos", valueExpression: throughToDos)])

        #expect(todos.mappingType == .transform)
        #expect(todos.sourceEntityVersionHash == v1.entityVersionHashesByName["ToDo"])
        #expect(todos.destinationEntityVersionHash == v2.entityVersionHashesByName["ToDo"])
        #expect(todos.sourceExpression == EntityMapping.fetchSourceExpression(entityName: "ToDo"))
        #expect(todos.entityMigrationPolicyClassName == "ToDoMigration.AlertPolicy")
        #expect(todos.userInfo == ["article": "Core Data Versioning"])
        let doNotAlert = ObjectGraph.Expression.customFunction(
            receiver: .variable("entityPolicy"), selector: "doNotAlertForTitle:",
            arguments: [Self.source("title")])
        #expect(
            todos.attributeMappings == [
                PropertyMapping(name: "title", valueExpression: Self.source("title")),
                PropertyMapping(name: "dueDate", valueExpression: Self.source("dueDate")),
                PropertyMapping(name: "completed", valueExpression: Self.source("completed")),
                PropertyMapping(name: "lastAlertDate", valueExpression: Self.source("dueDate")),
                PropertyMapping(name: "doNotAlert", valueExpression: doNotAlert),
            ])
        let throughCategories = ObjectGraph.Expression.customFunction(
            receiver: .variable("manager"), selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
            arguments: [.constant(.string("CategoryToCategory")), Self.source("category")])
        #expect(todos.relationshipMappings == [PropertyMapping(name: "category", valueExpression: throughCategories)])
        #expect(mapping.matchesVersionHashes(ofSourceModel: v1, destinationModel: v2))
    }

    // https://developer.apple.com/documentation/coredata/nsmappingmodel/init(contentsof:):
    // the fixture's archived expressions are what ObjectGraph's KeyedArchive writer makes of
    // them (so the committed bytes are generated, not copied).
    @Test func theFixturesArchivesAreTheGeneratorsBytes() throws {
        let text = try String(contentsOf: Self.fixture.appendingPathComponent("xcmapping.xml"), encoding: .utf8)
        for (placeholder, data) in try XcodeMappingArchives.fixtureArchives().sorted(by: { $0.key < $1.key }) {
            #expect(
                text.contains(">\(data.base64EncodedString())</attribute>"),
                "\(placeholder): \(data.base64EncodedString())")
        }
    }

    // https://developer.apple.com/documentation/coredata/nsexpression: an expression laid out as
    // Xcode's NSKeyedArchiver writes it (integers inline, NSKeyPathExpression, NSMutableArray)
    // reads as `$source.author`.
    @Test func anArchiveInXcodesOwnLayoutReads() throws {
        typealias V = BinaryPropertyList.Value
        func classes(_ names: [String]) -> V {
            .dictionary([("$classname", .string(names[0])), ("$classes", .array(names.map { .string($0) }))])
        }
        let objects: [V] = [
            .string("$null"),
            .dictionary([
                ("NSOperand", .uid(3)), ("NSSelectorName", .uid(2)), ("NSExpressionType", .integer(4)),
                ("NSArguments", .uid(6)), ("$class", .uid(11)),
            ]),
            .string("valueForKeyPath:"),
            .dictionary([("NSVariable", .uid(4)), ("NSExpressionType", .integer(2)), ("$class", .uid(5))]),
            .string("source"),
            classes(["NSVariableExpression", "NSExpression", "NSObject"]),
            .dictionary([("NS.objects", .array([.uid(7)])), ("$class", .uid(10))]),
            .dictionary([("$class", .uid(9)), ("NSExpressionType", .integer(10)), ("NSKeyPath", .uid(8))]),
            .string("author"),
            classes(["NSKeyPathSpecifierExpression", "NSExpression", "NSObject"]),
            classes(["NSMutableArray", "NSArray", "NSObject"]),
            classes(["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"]),
        ]
        let archive = BinaryPropertyList.write(
            .dictionary([
                ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
                ("$top", .dictionary([("root", .uid(1))])), ("$objects", .array(objects)),
            ]))
        #expect(try ArchivedExpression.expression(from: archive) == Self.source("author"))
    }

    // https://developer.apple.com/documentation/coredata/nsmigrationmanager/migratestore(from:sourcetype:options:with:todestinationurl:destinationtype:destinationoptions:):
    // a version 1 store migrates to version 2 with the mapping model read from Xcode's file.
    @Test func aStoreMigratesWithTheReadMappingModel() throws {
        EntityMigrationPolicy.register(AlertPolicy.self, as: "ToDoMigration.AlertPolicy")
        let directory = try TemporaryDirectory()
        let (v1, v2) = try Self.models()
        let sourceURL = directory.file("ToDo.sqlite")
        let destinationURL = directory.file("ToDo2.sqlite")
        try Self.seed(sourceURL, model: v1)
        let manager = MigrationManager(sourceModel: v1, destinationModel: v2)
        try manager.migrateStore(
            from: sourceURL, type: .sqlite, with: try MappingModel(contentsOf: Self.fixture),
            to: destinationURL, type: .sqlite)
        try Self.expectMigrated(destinationURL, model: v2)
    }

    // https://developer.apple.com/documentation/coredata/nsmappingmodel/init(from:forsourcemodel:destinationmodel:):
    // the search passes over files it cannot read and mapping models of other versions, finds
    // the one whose hashes fit, and answers nil when none does.
    @Test func theSearchPicksTheMappingModelByHashes() throws {
        let directory = try TemporaryDirectory()
        let (v1, v2) = try Self.models()
        let forward = try MappingModel(contentsOf: Self.fixture)
        let backward = MappingModel.defaultMappingModel(forSourceModel: v2, destinationModel: v1)
        try XcodeMappingArchives.compiled(backward.entityMappings, archive: XcodeMappingArchives.archive).write(
            to: directory.file("A.cdm"))
        try Data("not a mapping model".utf8).write(to: directory.file("B.cdm"))
        try XcodeMappingArchives.compiled(forward.entityMappings, archive: XcodeMappingArchives.archive)
            .write(to: directory.file("ToDo1To2.cdm"))

        let found = try #require(MappingModel(from: [directory.url], forSourceModel: v1, destinationModel: v2))
        #expect(found.entityMappings.map(\.name) == forward.entityMappings.map(\.name))
        for (read, written) in zip(found.entityMappings, forward.entityMappings) {
            #expect(read.mappingType == written.mappingType && read.sourceExpression == written.sourceExpression)
            #expect(read.sourceEntityVersionHash == written.sourceEntityVersionHash)
            #expect(read.destinationEntityVersionHash == written.destinationEntityVersionHash)
            #expect(
                read.attributeMappings == written.attributeMappings
                    && read.relationshipMappings == written.relationshipMappings)
            #expect(
                read.entityMigrationPolicyClassName == written.entityMigrationPolicyClassName
                    && read.userInfo == written.userInfo)
        }
        let back = try #require(MappingModel(from: [directory.url], forSourceModel: v2, destinationModel: v1))
        #expect(back.entityMappings.map(\.name) == backward.entityMappings.map(\.name))
        #expect(MappingModel(from: [directory.url], forSourceModel: v1, destinationModel: v1) == nil)
        #expect(MappingModel(from: [directory.file("missing")], forSourceModel: v1, destinationModel: v2) == nil)
    }

    // https://developer.apple.com/documentation/coredata/nsmappingmodel/init(from:forsourcemodel:destinationmodel:):
    // a versioned model loaded from an .xcdatamodeld finds the .xcmappingmodel beside it, and
    // automatic migration (without inference) uses it.
    @Test func aModelBundleFindsTheMappingModelBesideIt() throws {
        EntityMigrationPolicy.register(AlertPolicy.self, as: "ToDoMigration.AlertPolicy")
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(at: Self.bundle, to: directory.file("ToDo.xcdatamodeld"))
        try FileManager.default.copyItem(at: Self.fixture, to: directory.file("ToDo1To2.xcmappingmodel"))
        let versions = try VersionedModel(contentsOf: directory.file("ToDo.xcdatamodeld"))
        #expect(versions.mappingModels.count == 1)
        let url = directory.file("ToDo.sqlite")
        try Self.seed(url, model: try #require(versions.model(named: "ToDo")))
        let coordinator = PersistentStoreCoordinator(versionedModel: versions)
        try coordinator.addPersistentStore(
            type: .sqlite, at: url, options: [StoreOption.migratePersistentStoresAutomatically: true])
        try Self.expectMigrated(url, model: versions.currentModel)
    }

    // https://developer.apple.com/documentation/coredata/nsmappingmodel/init(contentsof:):
    // a file that is missing, truncated, or not a mapping model is error 260 or 259 naming it.
    @Test func badFilesGiveClearErrors() throws {
        let directory = try TemporaryDirectory()
        let (v1, v2) = try Self.models()
        let xml = try Data(contentsOf: Self.fixture.appendingPathComponent("xcmapping.xml"))
        func failure(_ url: URL) -> CoreDataError? {
            do {
                _ = try MappingModel(contentsOf: url, sourceModel: v1, destinationModel: v2)
                return nil
            } catch { return error as? CoreDataError }
        }

        let missing = failure(directory.file("Missing.xcmappingmodel"))
        #expect(missing?.code == .fileReadNoSuchFile && missing?.message.contains("Missing.xcmappingmodel") == true)

        let truncated = directory.file("Truncated.xcmappingmodel")
        try FileManager.default.createDirectory(at: truncated, withIntermediateDirectories: true)
        try xml.prefix(xml.count / 2).write(to: truncated.appendingPathComponent("xcmapping.xml"))
        let cut = failure(truncated)
        #expect(cut?.code == .fileReadCorruptFile)
        #expect(
            cut?.message.contains("Truncated.xcmappingmodel/xcmapping.xml") == true
                && cut?.message.contains("not well formed") == true)

        let text = directory.file("Notes.cdm")
        try Data("just some notes".utf8).write(to: text)
        #expect(
            failure(text)?.code == .fileReadCorruptFile
                && failure(text)?.message.contains("is not a mapping model") == true)

        let array = directory.file("Array.cdm")
        try XcodeMappingArchives.data(["a", "b"] as [Any]).write(to: array)
        #expect(failure(array)?.message.contains("not of an NSMappingModel") == true)

        let store = directory.file("Store.xcmappingmodel")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let empty = String(decoding: xml, as: UTF8.self).components(separatedBy: "    <object")[0] + "</database>\n"
        try Data(empty.utf8).write(to: store.appendingPathComponent("xcmapping.xml"))
        #expect(failure(store)?.message.contains("not an Xcode mapping model") == true)
    }

    // https://developer.apple.com/documentation/coredata/nspropertymapping/valueexpression: a value
    // expression archive that holds something other than an NSExpression is an error naming
    // the file and the property mapping.
    @Test func anArchiveThatIsNotAnExpressionIsAnError() throws {
        let directory = try TemporaryDirectory()
        let (v1, v2) = try Self.models()
        let title = try XcodeMappingArchives.fixtureArchives()["TITLE"]!.base64EncodedString()
        let dictionary = try XcodeMappingArchives.data(["not": "an expression"]).base64EncodedString()
        let xml = try String(contentsOf: Self.fixture.appendingPathComponent("xcmapping.xml"), encoding: .utf8)
        let folder = directory.file("Odd.xcmappingmodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(xml.replacingOccurrences(of: title, with: dictionary).utf8).write(
            to: folder.appendingPathComponent("xcmapping.xml"))
        let error = #expect(throws: CoreDataError.self) {
            try MappingModel(contentsOf: folder, sourceModel: v1, destinationModel: v2)
        }
        #expect(error?.code == .fileReadCorruptFile)
        #expect(error?.message.contains("Odd.xcmappingmodel") == true)
        #expect(error?.message.contains("ToDoToToDo.title is not an archived NSExpression") == true)
    }

    /// A version 1 store: categories Home, Work and Trash (empty), and seven to-dos.
    static func seed(_ url: URL, model: ManagedObjectModel) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        var categories: [ManagedObject] = []
        for name in ["Home", "Work", "Trash"] {
            let category = try context.insertNewObject(forEntityName: "Category")
            try category.checkedSetValue(name, forKey: "name")
            categories.append(category)
        }
        for (i, title) in [
            "Answer mail", "buy milk", "Call Alice", "apply patch", "Write article", "archive photos", "Back up disk",
        ].enumerated() {
            let todo = try context.insertNewObject(forEntityName: "ToDo")
            try todo.checkedSetValue(title, forKey: "title")
            try todo.checkedSetValue(Date(timeIntervalSinceReferenceDate: Double(i) * 86_400), forKey: "dueDate")
            try todo.checkedSetValue(i % 3 == 0, forKey: "completed")
            try todo.checkedSetValue(categories[i % 2], forKey: "category")
        }
        try context.save()
    }

    /// The migrated store: every to-do with its category, Zarra's doNotAlert, lastAlertDate its
    /// due date; the Trash category filtered out.
    static func expectMigrated(_ url: URL, model: ManagedObjectModel) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let categories = try context.fetch(FetchRequest(entityName: "Category")).compactMap {
            try $0.checkedValue(forKey: "name") as? String
        }
        #expect(categories.sorted() == ["Home", "Work"])
        let todos = try context.fetch(FetchRequest(entityName: "ToDo"))
        #expect(todos.count == 7)
        for todo in todos {
            let title = try #require(try todo.checkedValue(forKey: "title") as? String)
            #expect(
                try todo.checkedValue(forKey: "doNotAlert") as? Bool == title.lowercased().hasPrefix("a"), "\(title)")
            #expect(
                try todo.checkedValue(forKey: "lastAlertDate") as? Date == todo.checkedValue(forKey: "dueDate") as? Date
            )
            let category =
                try (todo.checkedValue(forKey: "category") as? ManagedObject)?.checkedValue(forKey: "name") as? String
            #expect(
                category
                    == (["Answer mail", "Call Alice", "Write article", "Back up disk"].contains(title)
                        ? "Home" : "Work"),
                "\(title)")
        }
    }
}
