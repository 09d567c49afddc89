import Foundation
import ObjectGraph
import TestSupport
import Testing
import ZarraToDo

// Issue #27, item 4: each migrated row written once. A policy whose class says it does not
// override createRelationships(forDestination:in:manager:) has its relationships set in the
// first pass when the instances they name already exist, with the values Core Data's second
// pass gives them; a policy that overrides it keeps the second pass. On SQLite and PostgreSQL.

/// Zarra's policy, saying that its relationship creation is the base class's.
final class SinglePassDoNotAlertPolicy: DoNotAlertForAPolicy {
    override class var overridesCreateRelationships: Bool { false }
}

/// Records every call but createRelationships, which it leaves to the base class and says so;
/// its custom validation records how many instances the association tables know.
final class SinglePassRecordingPolicy: EntityMigrationPolicy {
    override class var overridesCreateRelationships: Bool { false }
    private func record(_ call: String, _ manager: MigrationManager) {
        manager.userInfo["calls"] = ((manager.userInfo["calls"] as? [String]) ?? []) + [call]
    }
    override func begin(_ mapping: EntityMapping, with manager: MigrationManager) throws {
        record("begin \(mapping.name)", manager)
    }
    override func createDestinationInstances(
        forSource source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        record("create \(source.entity.name)", manager)
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    }
    override func endInstanceCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {
        record("endInstanceCreation \(mapping.name)", manager)
    }
    override func endRelationshipCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {
        record("endRelationshipCreation \(mapping.name)", manager)
    }
    override func performCustomValidation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {
        let destinations = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: nil)
        let sources = try manager.sourceInstances(forEntityMappingName: mapping.name, destinationInstances: nil)
        record("validate \(mapping.name): \(destinations.count) destinations, \(sources.count) sources", manager)
    }
    override func end(_ mapping: EntityMapping, manager: MigrationManager) throws {
        record("end \(mapping.name)", manager)
    }
}

/// Zarra's policy overriding createRelationships: it counts its calls and says nothing, so it
/// keeps the second pass.
final class CountingRelationshipsPolicy: DoNotAlertForAPolicy {
    override func createRelationships(
        forDestination destination: ManagedObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        manager.userInfo["relate"] = ((manager.userInfo["relate"] as? Int) ?? 0) + 1
        try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
    }
}

/// Each migrated to-do by due date: its title, its category's name and doNotAlert.
private func migratedToDos(_ store: PersistentStoreDescription) throws -> [Date: String] {
    let context = try MigrationStores.context(store, model: try ToDoModels.version2())
    var result: [Date: String] = [:]
    for todo in try context.fetch(FetchRequest(entityName: "ToDo")) {
        let date = try #require(try todo.checkedValue(forKey: "dueDate") as? Date)
        let title = try todo.checkedValue(forKey: "title") as? String ?? "?"
        let category = try (todo.checkedValue(forKey: "category") as? ManagedObject)?.checkedValue(forKey: "name")
        let doNotAlert = try todo.checkedValue(forKey: "doNotAlert") as? Bool
        result[date] = "\(title) | \(category as? String ?? "none") | \(doNotAlert.map(String.init) ?? "nil")"
    }
    return result
}

/// Migrates `source` into `destination` in batches of three (lookups cross saved batches);
/// the manager, for its userInfo.
@discardableResult
private func migrate(
    _ source: PersistentStoreDescription, to destination: PersistentStoreDescription, with mapping: MappingModel,
    progress: MigrationProgressHandler? = nil
) throws -> MigrationManager {
    let manager = MigrationManager(sourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2())
    manager.batchSize = 3
    manager.progressHandler = progress
    try manager.migrateStore(
        from: MigrationStores.url(source), type: source.type, with: mapping, to: MigrationStores.url(destination),
        type: destination.type)
    return manager
}

/// Each row's Z_OPT of the migrated to-dos (titles repeat: the largest of each title).
private func toDoVersions(_ store: PersistentStoreDescription) throws -> [Int64] {
    Array(try MigrationStores.versions(in: "ZTODO", by: "ZTITLE", of: store).values)
}

@Suite("Relationships in the first pass of a custom migration: each migrated row written once")
struct MigrationFirstPassRelationshipTests {
    @Test(
        "A policy that leaves createRelationships to the base class migrates what the two passes migrate, each row written once",
        arguments: StoreKind.allCases)
    func singlePassEqualsTwoPasses(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let source = try kind.newStore(in: directory, name: "v1.sqlite"),
            let twoPass = try kind.newStore(in: directory, name: "two-pass.sqlite"),
            let singlePass = try kind.newStore(in: directory, name: "single-pass.sqlite")
        else { return }
        try ToDoModels.seed(source, count: 11)
        try migrate(source, to: twoPass, with: try ToDoModels.doNotAlertMappingModel())
        try migrate(
            source, to: singlePass, with: try ToDoModels.doNotAlertMappingModel(policy: SinglePassDoNotAlertPolicy.self)
        )
        let expected = try migratedToDos(twoPass)
        #expect(expected.count == 11)
        #expect(expected.values.allSatisfy { !$0.contains("| none |") })
        #expect(try migratedToDos(singlePass) == expected)
        // Zarra's policy as written updates each to-do in the second pass; the one that says it
        // leaves createRelationships alone inserts each with its category.
        #expect(try toDoVersions(twoPass).allSatisfy { $0 == 2 })
        #expect(try toDoVersions(singlePass).allSatisfy { $0 == 1 })
    }

    @Test(
        "The three stages keep Apple's order and the association tables answer, without createRelationships calls",
        arguments: StoreKind.allCases)
    func stagesAndAssociationsStay(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let source = try kind.newStore(in: directory, name: "v1.sqlite"),
            let destination = try kind.newStore(in: directory, name: "v2.sqlite")
        else { return }
        try ToDoModels.seed(source, count: 2)
        let v1 = try ToDoModels.version1()
        let v2 = try ToDoModels.version2()
        let mapping = MappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
        for m in mapping.entityMappings { m.entityMigrationPolicyType = SinglePassRecordingPolicy.self }
        let manager = try migrate(source, to: destination, with: mapping)
        #expect(
            manager.userInfo["calls"] as? [String] == [
                "begin CategoryToCategory", "create Category", "create Category",
                "endInstanceCreation CategoryToCategory",
                "begin ToDoToToDo", "create ToDo", "create ToDo", "endInstanceCreation ToDoToToDo",
                "endRelationshipCreation CategoryToCategory", "endRelationshipCreation ToDoToToDo",
                "validate CategoryToCategory: 2 destinations, 2 sources", "end CategoryToCategory",
                "validate ToDoToToDo: 2 destinations, 2 sources", "end ToDoToToDo",
            ])
        #expect(try migratedToDos(destination).values.allSatisfy { !$0.contains("| none |") })
        #expect(try toDoVersions(destination).allSatisfy { $0 == 1 })
    }

    @Test("A policy that overrides createRelationships gets a call for each destination instance")
    func anOverridingPolicyKeepsTheSecondPass() throws {
        let directory = try TemporaryDirectory()
        let source = PersistentStoreDescription(type: .sqlite, url: directory.file("v1.sqlite"))
        let destination = PersistentStoreDescription(type: .sqlite, url: directory.file("v2.sqlite"))
        try ToDoModels.seed(source, count: 11)
        let manager = try migrate(
            source, to: destination,
            with: try ToDoModels.doNotAlertMappingModel(policy: CountingRelationshipsPolicy.self))
        #expect(manager.userInfo["relate"] as? Int == 11)
        #expect(try migratedToDos(destination).values.allSatisfy { !$0.contains("| none |") })
    }

    @Test("The progress reports are those of the two passes", arguments: StoreKind.allCases)
    func progressIsUnchanged(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let source = try kind.newStore(in: directory, name: "v1.sqlite"),
            let twoPass = try kind.newStore(in: directory, name: "two-pass.sqlite"),
            let singlePass = try kind.newStore(in: directory, name: "single-pass.sqlite")
        else { return }
        try ToDoModels.seed(source, count: 11)
        var twoPassReports: [MigrationProgress] = []
        var single: [MigrationProgress] = []
        try migrate(
            source, to: twoPass, with: try ToDoModels.doNotAlertMappingModel(),
            progress: { twoPassReports.append($0) })
        try migrate(
            source, to: singlePass,
            with: try ToDoModels.doNotAlertMappingModel(policy: SinglePassDoNotAlertPolicy.self),
            progress: { single.append($0) })
        #expect(single.contains { $0.pass == 2 && $0.entityMappingName == "ToDoToToDo" })
        #expect(single.last?.fractionCompleted == 1)
        #expect(single == twoPassReports)
    }

    @Test(
        "Relationships to instances a later mapping makes wait for the second pass, with the same result",
        arguments: StoreKind.allCases)
    func laterTargetsWaitForTheSecondPass(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let source = try kind.newStore(in: directory, name: "v1.sqlite"),
            let inOrder = try kind.newStore(in: directory, name: "in-order.sqlite"),
            let reversed = try kind.newStore(in: directory, name: "reversed.sqlite")
        else { return }
        try ToDoModels.seed(source, count: 11)
        try migrate(
            source, to: inOrder, with: try ToDoModels.doNotAlertMappingModel(policy: SinglePassDoNotAlertPolicy.self))
        // The to-dos first: their categories do not exist yet when the to-dos are made.
        let mapping = try ToDoModels.doNotAlertMappingModel(policy: SinglePassDoNotAlertPolicy.self)
        mapping.entityMappings.reverse()
        #expect(mapping.entityMappings.first?.name == "ToDoToToDo")
        try migrate(source, to: reversed, with: mapping)
        #expect(try migratedToDos(reversed) == migratedToDos(inOrder))
        #expect(try toDoVersions(reversed).allSatisfy { $0 == 2 })
    }

    @Test(
        "An inferred mapping model run by the manager sets its relationships in the first pass",
        arguments: StoreKind.allCases)
    func inferredMappingsRelateInTheFirstPass(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let source = try kind.newStore(in: directory, name: "v1.sqlite"),
            let viaDefault = try kind.newStore(in: directory, name: "default.sqlite"),
            let viaInferred = try kind.newStore(in: directory, name: "inferred.sqlite")
        else { return }
        try ToDoModels.seed(source, count: 11)
        let v1 = try ToDoModels.version1()
        let v2 = try ToDoModels.version2()
        // Xcode's default mapping with the recording policy, which overrides createRelationships:
        // the two-pass result to compare with.
        let twoPass = MappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
        for m in twoPass.entityMappings { m.entityMigrationPolicyType = RecordingPolicy.self }
        try migrate(source, to: viaDefault, with: twoPass)
        try migrate(
            source, to: viaInferred,
            with: try MappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2))
        #expect(try migratedToDos(viaInferred) == migratedToDos(viaDefault))
        #expect(try toDoVersions(viaDefault).allSatisfy { $0 == 2 })
        #expect(try toDoVersions(viaInferred).allSatisfy { $0 == 1 })
    }
}
