import Foundation
import ObjectGraph
import Testing
import WorkbookSupport

@testable import VersioningChapter

// Every behaviour the versioning chapter states, asserted through the API (the book test
// checks the printed outputs). Each test names the text it comes from:
//   Zarra, "Core Data Versioning" (MacTech 25.03, 2009);
//   Apple, "Core Data Model Versioning and Data Migration Programming Guide" (Model Versions,
//     Lightweight Migration, Migration and Version Hashes);
//   Apple, NSPersistentStoreCoordinator: NSMigratePersistentStoresAutomaticallyOption,
//     NSInferMappingModelAutomaticallyOption; Core Data error 134100;
//   reference/migration.md sections 1 and 2.
@Suite struct VersioningChapterTests {
    let bench = Workbench { _ in }

    /// A version 1 XML (or SQLite) store of the sample data in a fresh data folder.
    func versionOneStore(type: StoreType = .xml) throws -> (folder: URL, url: URL) {
        let folder = try bench.makeDataFolder()
        try SampleData.insertToDos(into: try openToDoStore(in: folder, model: try ToDoModels.version1(), type: type))
        return (folder, folder.appendingPathComponent(type == .xml ? "ToDo.xml" : "ToDo.sqlite"))
    }

    func titles(_ objects: [ManagedObject]) throws -> [String] {
        try objects.map { try $0.checkedValue(forKey: "title") as! String }
    }

    // Apple, "Persistent Store Metadata": a store records the version hashes of the model that
    // wrote it (NSStoreModelVersionHashes), besides its type and UUID.
    @Test func theStoreRecordsTheModelsHashes() throws {
        let (_, url) = try versionOneStore()
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: url)
        #expect(metadata["NSStoreType"] as? String == "XML")
        #expect(
            metadata["NSStoreModelVersionHashes"] as? [String: Data]
                == (try ToDoModels.version1().entityVersionHashesByName))
    }

    // Zarra: version 1's timer alerts a to-do at every tick while it is due within five
    // minutes: five times for one due at 09:04:30; completed to-dos never.
    @Test func versionOneAlertsFiveTimes() throws {
        let context = try openToDoStore(in: try bench.makeDataFolder(), model: try ToDoModels.version1())
        try SampleData.insertToDos(into: context)
        var alerts: [String] = []
        for minute in 0...6 {
            alerts += try titles(
                MinuteTimer.dueSoon(in: context, at: Workbench.now.addingTimeInterval(Double(minute) * 60)))
        }
        #expect(alerts == Array(repeating: "Pay rent", count: 5))
    }

    // Apple, Model Versions: an .xcdatamodeld holds every version and names the current one;
    // Migration and Version Hashes: a change to an entity's stored properties changes its hash,
    // an unchanged entity keeps it.
    @Test func versionTwoChangesToDosHashOnly() throws {
        let versions = try VersionedModel(contentsOf: ToDoModels.bundleURL)
        #expect(versions.versionNames == ["ToDo", "ToDo 2"])
        #expect(versions.currentVersionName == "ToDo 2")
        let one = try #require(versions.model(named: "ToDo")).entitiesByName
        let two = versions.currentModel.entitiesByName
        #expect(one["Category"]!.versionHash == two["Category"]!.versionHash)
        #expect(one["ToDo"]!.versionHash != two["ToDo"]!.versionHash)
        #expect(
            Set(two["ToDo"]!.propertyNames).subtracting(one["ToDo"]!.propertyNames) == ["lastAlertDate", "doNotAlert"])
        let doNotAlert = try #require(two["ToDo"]!.attribute(named: "doNotAlert"))
        #expect(!doNotAlert.isOptional && doNotAlert.defaultConstant == .bool(false))
        #expect(two["ToDo"]!.attribute(named: "lastAlertDate")?.isOptional == true)
    }

    // Apple, Migration and Version Hashes: what does not change how data is stored (a default
    // value, validation, a delete rule, an index) leaves the hash alone.
    @Test func defaultsRulesAndIndexesLeaveTheHashAlone() throws {
        let plain = try ManagedObjectModel { EntityDescription("ToDo") { AttributeDescription("title", .string) } }
        let dressed = try ManagedObjectModel {
            EntityDescription("ToDo") {
                AttributeDescription("title", .string, defaultValue: "x", indexed: true, regularExpression: "^.+$")
            }
        }
        #expect(plain.entityVersionHashesByName == dressed.entityVersionHashesByName)
    }

    // Apple: NSPersistentStoreIncompatibleVersionHashError (134100) when the model differs
    // from the one that created the store; the store is left untouched; isConfiguration(
    // withName:compatibleWithStoreMetadata:) answers the same question beforehand.
    @Test func theNewModelRefusesTheOldStoreAndChangesNothing() throws {
        let (folder, url) = try versionOneStore()
        let before = try Data(contentsOf: url)
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: url)
        #expect(try ToDoModels.version1().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(try !ToDoModels.version2().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        let error = #expect(throws: CoreDataError.self) {
            _ = try openToDoStore(in: folder, model: try ToDoModels.version2())
        }
        #expect(error?.code?.rawValue == 134100)
        #expect(error?.message.contains("ToDo (changed)") == true)
        #expect(try Data(contentsOf: url) == before)
        #expect(
            try openToDoStore(in: folder, model: try ToDoModels.version1()).count(for: FetchRequest(entityName: "ToDo"))
                == 4)
    }

    // Apple, Lightweight Migration: with NSMigratePersistentStoresAutomaticallyOption and
    // NSInferMappingModelAutomaticallyOption, added attributes are inferred; the new ones take
    // their defaults, every other value and relationship comes through; the UUID is kept.
    @Test(arguments: [StoreType.xml, .sqlite])
    func automaticMigrationKeepsEveryValue(type: StoreType) throws {
        let (folder, url) = try versionOneStore(type: type)
        let before = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        let steps = try ToDoModels.versionedModel().migrationSteps(forStoreMetadata: before)
        #expect(steps.map(\.description) == ["ToDo -> ToDo 2 (lightweight)"])
        let context = try openMigratingToDoStore(in: folder, type: type)
        let after = try PersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        #expect(
            after["NSStoreModelVersionHashes"] as? [String: Data]
                == (try ToDoModels.version2().entityVersionHashesByName))
        #expect(after["NSStoreUUID"] as? String == before["NSStoreUUID"] as? String)
        #expect(
            try SampleData.list(context, version: 2) == [
                "Buy milk, due 2009-06-01 09:02 UTC, in Home, completed, doNotAlert NO, lastAlertDate nil",
                "Pay rent, due 2009-06-01 09:04 UTC, in Home, doNotAlert NO, lastAlertDate nil",
                "answer Marcus's mail, due 2009-06-01 12:00 UTC, in Work, doNotAlert NO, lastAlertDate nil",
                "Ask for a raise, due 2009-06-03 09:00 UTC, in Work, doNotAlert NO, lastAlertDate nil",
            ])
        #expect(try ToDoModels.versionedModel().migrationSteps(forStoreMetadata: after).isEmpty)
    }

    // Apple, Lightweight Migration ("Core Data can perform the migration in place on SQLite"),
    // reference/migration.md 2.3: two columns added to ZTODO, nothing else changed.
    @Test func onSQLiteTheMigrationAddsTwoColumns() throws {
        let (folder, url) = try versionOneStore(type: .sqlite)
        let before = try StoreInspection(at: url)
        _ = try openMigratingToDoStore(in: folder, type: .sqlite)
        let after = try StoreInspection(at: url)
        let oldToDo = try #require(before.tables.first { $0.name == "ZTODO" })
        let newToDo = try #require(after.tables.first { $0.name == "ZTODO" })
        // Added at the end, in the order the new model's table lists them (Core Data's: the
        // Boolean before the date).
        #expect(newToDo.columns == oldToDo.columns + ["ZDONOTALERT", "ZLASTALERTDATE"])
        #expect(newToDo.rowCount == oldToDo.rowCount)
        #expect(
            after.tables.filter { $0.name != "ZTODO" && $0.name != "Z_METADATA" }
                == before.tables.filter { $0.name != "ZTODO" && $0.name != "Z_METADATA" })
    }

    // Zarra, Listing 11 (errata row 6: the format string is `ps`, and the call needs its `)`):
    // with lastAlertDate recorded, each to-do alerts once, and doNotAlert ones never.
    @Test func listing11AlertsOnce() throws {
        let (folder, _) = try versionOneStore()
        let context = try openMigratingToDoStore(in: folder)
        let quiet = try context.insertNewObject(forEntityName: "ToDo")
        try quiet.checkedSetValue("Water the plants", forKey: "title")
        try quiet.checkedSetValue(Workbench.now.addingTimeInterval(180), forKey: "dueDate")
        try quiet.checkedSetValue(true, forKey: "doNotAlert")
        var alerts: [String] = []
        for minute in 0...6 {
            let now = Workbench.now.addingTimeInterval(Double(minute) * 60)
            for todo in try AlertOnce.dueSoon(in: context, at: now) {
                alerts.append(try todo.checkedValue(forKey: "title") as! String)
                try todo.checkedSetValue(now, forKey: "lastAlertDate")
            }
            try context.save()
        }
        #expect(alerts == ["Pay rent"])
    }

    // The committed stores that version 1 wrote migrate with every value and category intact.
    @Test(arguments: FixtureStores.files.map(\.name))
    func theFixtureStoresMigrate(name: String) throws {
        let file = try #require(FixtureStores.files.first { $0.name == name })
        let fixture = FixtureStores.fixtureFolder.appendingPathComponent(name)
        let original = try Data(contentsOf: fixture)
        let folder = try bench.makeDataFolder()
        try FileManager.default.copyItem(at: fixture, to: folder.appendingPathComponent(name))
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(
            type: file.type, at: folder.appendingPathComponent(name))
        #expect(try ToDoModels.versionedModel().versionName(forStoreMetadata: metadata) == "ToDo")
        let context = try openMigratingToDoStore(in: folder, type: file.type)
        #expect(
            try SampleData.list(context, version: 2) == [
                "Buy milk, due 2009-06-01 09:02 UTC, in Home, completed, doNotAlert NO, lastAlertDate nil",
                "Pay rent, due 2009-06-01 09:04 UTC, in Home, doNotAlert NO, lastAlertDate nil",
                "answer Marcus's mail, due 2009-06-01 12:00 UTC, in Work, doNotAlert NO, lastAlertDate nil",
                "Ask for a raise, due 2009-06-03 09:00 UTC, in Work, doNotAlert NO, lastAlertDate nil",
            ])
        #expect(try context.count(for: FetchRequest(entityName: "Category")) == 2)
        // The fixture itself is only copied, never changed.
        #expect(try Data(contentsOf: fixture) == original)
    }

    // The chapter's own helpers, which the book shows once: the fixed clock is the workbook's,
    // times print in UTC, and the sample to-dos get the due dates their listing spells out.
    @Test func theClockAndTheSampleDueDates() throws {
        #expect(nineOClock == Workbench.now)
        #expect(timeOfDay(nineOClock) == "09:00")
        #expect(timeOfDay(nineOClock.addingTimeInterval(4.5 * 60)) == "09:04")
        #expect(timeOfDay(nineOClock.addingTimeInterval(15 * 3_600)) == "00:00")
        let context = try openToDoStore(in: try bench.makeDataFolder(), model: try ToDoModels.version1())
        try SampleData.insertToDos(into: context)
        let request = FetchRequest(entityName: "ToDo")
        request.sortDescriptors = [SortDescriptor(key: "dueDate")]
        let due = try context.fetch(request).map { try $0.checkedValue(forKey: "dueDate") as? Date }
        let offsets: [TimeInterval] = [120, 270, 10_800, 172_800] // 2 and 4.5 minutes, 3 hours, 2 days
        let expected: [Date?] = offsets.map { nineOClock.addingTimeInterval($0) }
        #expect(due == expected)
    }

    // openToDoStore and openMigratingToDoStore name the file after its type, in the folder given.
    @Test(arguments: [StoreType.xml, .sqlite])
    func theStoreFunctionsNameTheFileAfterItsType(type: StoreType) throws {
        let folder = try bench.makeDataFolder()
        try SampleData.insertToDos(into: try openToDoStore(in: folder, model: try ToDoModels.version1(), type: type))
        let name = type == .xml ? "ToDo.xml" : "ToDo.sqlite"
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).contains(name))
        let context = try openMigratingToDoStore(in: folder, type: type)
        #expect(context.persistentStoreCoordinator.persistentStores.map { $0.url?.lastPathComponent } == [name])
        #expect(try context.count(for: FetchRequest(entityName: "ToDo")) == SampleData.todos.count)
    }

    // The stack section prints the metadata without the store's UUID, which is new each time.
    @Test func theMetadataIsDescribedWithoutItsUUID() {
        let lines = SampleData.describeMetadata([
            "NSStoreUUID": "F1C7A4E5-0000-4000-8000-000000000001", "NSStoreType": "XML",
        ])
        #expect(
            lines == [
                "NSStoreType: XML", "NSStoreUUID: a UUID of 36 characters, made up by the store when it was created",
            ])
    }

    @Test func theChapterListsItsSections() {
        #expect(
            VersioningChapter.sections.map(\.name) == [
                "stack", "minute-timer", "model-versions", "incompatible", "automatic-migration",
                "schema-diff", "alert-once", "fixture-stores",
            ])
    }
}
