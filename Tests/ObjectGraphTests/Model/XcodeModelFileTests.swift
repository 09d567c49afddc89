import Foundation
import ObjectGraph
import Testing

/// The fixtures folder, read in place (tests never write there).
enum ModelFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let toDo = folder.appendingPathComponent("ToDo.xcdatamodeld")
    static let dangling = folder.appendingPathComponent("Broken/Dangling.xcdatamodel")
    static let malformed = folder.appendingPathComponent("Broken/Malformed.xcdatamodel")
}

final class ModelFileNote: ManagedObject {}

// coredata.md 5.1-5.2: the layout and vocabulary of Xcode's model files.
@Suite struct XcodeModelFileTests {
    /// Zarra's ToDo model, version 1, declared in Swift as the fixture (Fixtures/ToDo.xcdatamodeld,
    /// saved by Xcode) has it. Not the workbook's definition (Sources/ZarraToDo) on purpose: the
    /// fixture's choices (a required due date, a cascading `todos`) are what these tests check
    /// the loader reads, and `workbook model describe` is tested on the same file.
    static func toDoVersion1() throws -> ManagedObjectModel {
        try ManagedObjectModel(versionIdentifier: "1") {
            EntityDescription("Category") {
                AttributeDescription("name", .string, optional: false)
                RelationshipDescription("todos", toMany: "ToDo", inverse: "category", deleteRule: .cascade)
            }
            EntityDescription("ToDo") {
                AttributeDescription("completed", .boolean)
                AttributeDescription("dueDate", .date, optional: false)
                AttributeDescription("title", .string, optional: false)
                RelationshipDescription("category", toOne: "Category", inverse: "todos")
            }
        }
    }

    @Test func readsTheVersionsOfABundle() throws {
        let loader = XcodeModelLoader()
        let bundle = try loader.loadBundle(at: ModelFixtures.toDo)
        #expect(bundle.versionNames == ["ToDo", "ToDo 2"])
        #expect(bundle.currentVersionName == "ToDo 2")
        #expect(loader.warnings.isEmpty, "\(loader.warnings)")

        let v1 = try #require(bundle.model(named: "ToDo"))
        #expect(v1.versionIdentifiers == ["1"])
        let toDo = try v1.entity(named: "ToDo")
        #expect(toDo.attributes.map(\.name) == ["completed", "dueDate", "title"])
        #expect(toDo.attribute(named: "completed")?.isOptional == true)
        #expect(toDo.attribute(named: "completed")?.attributeType == .boolean)
        #expect(toDo.attribute(named: "dueDate")?.isOptional == false)
        #expect(toDo.attribute(named: "dueDate")?.attributeType == .date)
        let category = try #require(toDo.relationship(named: "category"))
        #expect(!category.isToMany && category.destinationEntityName == "Category" && category.inverseName == "todos")
        #expect(category.deleteRule == .nullify)
        let todos = try #require(try v1.entity(named: "Category").relationship(named: "todos"))
        #expect(todos.isToMany && todos.deleteRule == .cascade && todos.maxCount == 0)

        let v2 = bundle.currentModel
        let v2ToDo = try v2.entity(named: "ToDo")
        #expect(v2ToDo.attribute(named: "lastAlertDate")?.isOptional == true)
        let doNotAlert = try #require(v2ToDo.attribute(named: "doNotAlert"))
        #expect(
            doNotAlert.attributeType == .boolean && !doNotAlert.isOptional && doNotAlert.defaultConstant == .bool(false)
        )
        // Adding attributes changes ToDo's hash; Category is untouched (migration.md 1.2).
        #expect(v1.entityVersionHashesByName["ToDo"] != v2.entityVersionHashesByName["ToDo"])
        #expect(v1.entityVersionHashesByName["Category"] == v2.entityVersionHashesByName["Category"])
    }

    @Test func aFileAndTheSameModelInSwiftHashAlike() throws {
        let file = try ManagedObjectModel(
            contentsOf: ModelFixtures.toDo.appendingPathComponent("ToDo.xcdatamodel"), classes: [:])
        let swift = try Self.toDoVersion1()
        #expect(file.entityVersionHashesByName == swift.entityVersionHashesByName)
        #expect(file.entities == swift.entities)
        // The bundle's path loads its current version.
        #expect(
            try ManagedObjectModel(contentsOf: ModelFixtures.toDo, classes: [:]).entitiesByName["ToDo"]?.attribute(
                named: "doNotAlert") != nil)
    }

    @Test func aRelationshipToNowhereIsAnErrorWithFileAndLine() throws {
        let contents = ModelFixtures.dangling.appendingPathComponent("contents")
        let before = try Data(contentsOf: contents)
        let error = #expect(throws: CoreDataError.self) {
            _ = try ManagedObjectModel(contentsOf: ModelFixtures.dangling, classes: [:])
        }
        #expect(error?.code == .fileReadCorruptFile)
        #expect(error?.message.hasPrefix("\(contents.path):5: ") == true, "\(error?.message ?? "")")
        #expect(
            error?.message.contains("ToDo.project points to the entity Project, which the file does not declare")
                == true)
        #expect(try Data(contentsOf: contents) == before)
    }

    @Test func malformedXMLIsAnErrorWithFileAndLine() throws {
        let contents = ModelFixtures.malformed.appendingPathComponent("contents")
        let before = try Data(contentsOf: contents)
        let error = #expect(throws: CoreDataError.self) {
            _ = try XcodeModelLoader().loadModel(at: ModelFixtures.malformed)
        }
        #expect(error?.code == .fileReadCorruptFile)
        let message = error?.message ?? ""
        #expect(message.hasPrefix("\(contents.path):6:") || message.hasPrefix("\(contents.path):5:"), "\(message)")
        #expect(message.contains("not well-formed XML"))
        #expect(try Data(contentsOf: contents) == before)
    }

    @Test func aMissingInverseIsAWarningADanglingOneAnErrorWithTheLine() throws {
        let dir = try TemporaryDirectory()
        let file = dir.file("contents")
        func model(inverseOfB: String) throws -> Data {
            Data(
                """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    <entity name="A" syncable="YES">
                        <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" \(inverseOfB)/>
                    </entity>
                    <entity name="B" syncable="YES">
                        <attribute name="n" optional="YES" attributeType="Integer 32"/>
                        <relationship name="c" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A"/>
                    </entity>
                </model>
                """.utf8)
        }
        // An inverse that does not exist: Core Data refuses it too.
        try model(inverseOfB: "inverseName=\"as\"").write(to: file)
        let error = #expect(throws: CoreDataError.self) { _ = try XcodeModelLoader().loadModel(at: file) }
        #expect(
            error?.message.contains("A.b names the inverse B.as, which does not exist") == true,
            "\(error?.message ?? "")")
        #expect(error?.message.hasPrefix("\(file.path):4: ") == true)
        // No inverse at all: Core Data loads it, and Xcode warns; so does the loader.
        try model(inverseOfB: "").write(to: file)
        let loader = XcodeModelLoader()
        let loaded = try loader.loadModel(at: file)
        #expect(try loaded.entity(named: "B").relationship(named: "c")?.inverseName == nil)
        #expect(loader.warnings.map(\.line) == [4, 8])
        #expect(loader.warnings.allSatisfy { $0.message.contains("should have an inverse") })
    }

    @Test func everythingCoreDataModelsIsKeptTheRestBecomesWarnings() throws {
        let dir = try TemporaryDirectory()
        let file = dir.file("contents")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Note" representedClassName=".ModelFileNote" syncable="YES">
                    <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
                    <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                    <attribute name="text" attributeType="String" minValueString="1" maxValueString="140" regularExpressionString="[^&lt;]*"/>
                    <relationship name="children" optional="YES" toMany="YES" deletionRule="Deny" ordered="YES" destinationEntity="Note" inverseName="parent" inverseEntity="Note"/>
                    <relationship name="parent" optional="YES" maxCount="1" deletionRule="No Action" destinationEntity="Note" inverseName="children" inverseEntity="Note"/>
                    <fetchIndex name="byTags"><fetchIndexElement property="tags" type="Binary" order="ascending"/></fetchIndex>
                    <fetchedProperty name="recent"/>
                </entity>
                <fetchRequest name="all" entity="Note"/>
                <configuration name="Cloud"><memberEntity name="Note"/></configuration>
            </model>
            """.utf8
        ).write(to: file)
        let loader = XcodeModelLoader(classes: ["ModelFileNote": ModelFileNote.self])
        let model = try loader.loadModel(at: file)
        let note = try model.entity(named: "Note")
        // What Core Data models is kept: the transformable attribute, external storage, the
        // ordered relationship, the index, the template and the configuration.
        #expect(note.attributes.map(\.name) == ["tags", "photo", "text"])
        #expect(note.attribute(named: "tags")?.attributeType == .transformable)
        #expect(note.attribute(named: "tags")?.valueTransformerName == "NSSecureUnarchiveFromData")
        #expect(note.attribute(named: "photo")?.allowsExternalBinaryDataStorage == true)
        #expect(note.relationship(named: "children")?.isOrdered == true)
        #expect(note.indexes.map(\.name) == ["byTags"])
        #expect(model.fetchRequestTemplatesByName["all"]?.entityName == "Note")
        #expect(model.entities(forConfigurationName: "Cloud")?.map(\.name) == ["Note"])
        #expect(note.managedObjectClass == ModelFileNote.self)
        #expect(note.attribute(named: "text")?.regularExpression == "[^<]*")
        #expect(note.attribute(named: "text")?.maxValue == 140)
        #expect(note.relationship(named: "children")?.deleteRule == .deny)
        #expect(note.relationship(named: "parent")?.deleteRule == .noAction)
        // A fetched property without a fetch request has nothing to keep: it becomes a warning.
        #expect(note.fetchedProperties.isEmpty)
        let lines = loader.warnings.map(\.line)
        #expect(lines == lines.sorted())
        let messages = loader.warnings.map(\.message).joined(separator: "\n")
        #expect(loader.warnings.count == 1, "\(messages)")
        #expect(messages.contains("fetched property Note.recent skipped"), "\(messages)")
        #expect(loader.warnings.allSatisfy { $0.file == file.path && $0.line > 0 })
    }

    @Test func anUnknownTypeIsAnError() throws {
        let dir = try TemporaryDirectory()
        let file = dir.file("contents")
        try Data(
            """
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="A"><attribute name="n" attributeType="Integer 8"/></entity>
            </model>
            """.utf8
        ).write(to: file)
        let error = #expect(throws: CoreDataError.self) { _ = try XcodeModelLoader().loadModel(at: file) }
        #expect(
            error?.message.contains(":2: attribute A.n has the type \"Integer 8\"") == true, "\(error?.message ?? "")")
    }

    @Test func theCurrentVersionFallsBackToTheBundleName() throws {
        let dir = try TemporaryDirectory()
        let bundle = dir.file("Shop.xcdatamodeld")
        let model = try Self.toDoVersion1()
        try model.writeXcodeModel(to: bundle.appendingPathComponent("Shop.xcdatamodel"))
        try model.writeXcodeModel(to: bundle.appendingPathComponent("Shop 2.xcdatamodel"))
        #expect(try ModelBundle(contentsOf: bundle).currentVersionName == "Shop")

        try Data(
            "<plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key><string>Shop 9.xcdatamodel</string></dict></plist>"
                .utf8
        )
        .write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let error = #expect(throws: CoreDataError.self) { _ = try ModelBundle(contentsOf: bundle) }
        #expect(
            error?.message.contains("the current version is Shop 9.xcdatamodel, which the bundle does not hold") == true
        )
    }

    @Test func uniquenessConstraintsChangeTheHashIndexesDoNot() throws {
        func model(indexes: [FetchIndexDescription] = [], unique: [[String]] = []) throws -> Data? {
            try ManagedObjectModel {
                EntityDescription("Item", indexes: indexes, uniquenessConstraints: unique) {
                    AttributeDescription("code", .string)
                    AttributeDescription("rank", .integer32)
                }
            }.entityVersionHashesByName["Item"]
        }
        let base = try model()
        #expect(try model(indexes: [FetchIndexDescription("byRank", [.init("rank", ascending: false)])]) == base)
        #expect(try model(unique: [["code"]]) != base)
        let error = #expect(throws: CoreDataError.self) { _ = try model(unique: [["missing"]]) }
        #expect(error?.message.contains("names missing, which is not an attribute") == true)
    }
}

// Apple, "Core Data Model Versioning and Data Migration Programming Guide", Model Versions:
// an .xcdatamodeld holds every version and names the current one; a versioned model made
// from it has the same versions, in order, and migrates stores made by any of them.
@Suite struct VersionedModelFromBundleTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ToDo.xcdatamodeld")

    @Test func aBundleBecomesAVersionedModel() throws {
        let versions = try VersionedModel(contentsOf: Self.fixture)
        #expect(versions.name == "ToDo")
        #expect(versions.versionNames == ["ToDo", "ToDo 2"])
        #expect(versions.currentVersionName == "ToDo 2")
        let bundle = try ModelBundle(contentsOf: Self.fixture)
        #expect(versions.currentModel.entityVersionHashesByName == bundle.currentModel.entityVersionHashesByName)
    }

    @Test func aStoreOfTheFirstVersionMigratesToTheCurrentOne() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("ToDo.sqlite")
        let versions = try VersionedModel(contentsOf: Self.fixture)
        let old = PersistentStoreCoordinator(managedObjectModel: try #require(versions.model(named: "ToDo")))
        try old.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: old)
        let todo = try context.insertNewObject(forEntityName: "ToDo")
        try todo.checkedSetValue("Pay rent", forKey: "title")
        try todo.checkedSetValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "dueDate")
        try context.save()

        let coordinator = PersistentStoreCoordinator(versionedModel: versions)
        try coordinator.addPersistentStore(
            type: .sqlite, at: url,
            options: [
                StoreOption.migratePersistentStoresAutomatically: true,
                StoreOption.inferMappingModelAutomatically: true,
            ])
        let migrated = try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "ToDo"))
        #expect(migrated.count == 1)
        #expect(try migrated.first?.checkedValue(forKey: "title") as? String == "Pay rent")
        #expect(try migrated.first?.checkedValue(forKey: "doNotAlert") as? Bool == false)
    }
}
