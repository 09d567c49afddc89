import Foundation
import GRDB
import TestSupport
import Testing
import ZarraToDo

@testable import ObjectGraph

/// What a store holds, read back with a model: title -> (doNotAlert, category name).
private func contents(
    of url: URL, type: StoreType, model: ManagedObjectModel, titleKey: String = "title",
    categoryKey: String = "category"
) throws -> [String: (doNotAlert: Bool?, category: String?)] {
    try contents(
        of: PersistentStoreDescription(type: type, url: url), model: model, titleKey: titleKey, categoryKey: categoryKey
    )
}

/// ``contents(of:type:model:titleKey:categoryKey:)`` of the store a description names.
private func contents(
    of store: PersistentStoreDescription, model: ManagedObjectModel, titleKey: String = "title",
    categoryKey: String = "category"
) throws -> [String: (doNotAlert: Bool?, category: String?)] {
    let context = try MigrationStores.context(store, model: model)
    var result: [String: (Bool?, String?)] = [:]
    for todo in try context.fetch(FetchRequest(entityName: "ToDo")) {
        let title = try #require(try todo.checkedValue(forKey: titleKey) as? String)
        let doNotAlert =
            model.entitiesByName["ToDo"]!.attribute(named: "doNotAlert") == nil
            ? nil : try todo.checkedValue(forKey: "doNotAlert") as? Bool
        let category =
            try (todo.checkedValue(forKey: categoryKey) as? ManagedObject)?.checkedValue(forKey: "name") as? String
        result[title] = (doNotAlert, category)
    }
    return result
}

/// Each test that goes through a store runs on SQLite and on PostgreSQL (``StoreKind``), with
/// the same body.
@Suite struct MigrationTests {
    // Apple, "Understanding Versions": compatibility is decided by version hashes alone;
    // isConfiguration:compatibleWithStoreMetadata: is the documented check.
    @Test(arguments: StoreKind.allCases) func versionsAreFoundByTheStoresHashes(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let store = try kind.newStore(in: directory, name: "ToDo.sqlite") else { return }
        try ToDoModels.seed(store)
        let versions = try VersionedModel(
            name: "ToDo", versions: [("ToDo", ToDoModels.version1()), ("ToDo 2", ToDoModels.version2())],
            currentVersionName: "ToDo 2")
        let metadata = try MigrationStores.metadata(store)
        #expect(versions.versionName(forStoreMetadata: metadata) == "ToDo")
        #expect(try ToDoModels.version1().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(!(try ToDoModels.version2().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)))
        #expect(!(try ToDoModels.version1().isConfiguration(withName: "Other", compatibleWithStoreMetadata: metadata)))
        #expect(versions.migrationPath(from: "ToDo", to: "ToDo 2") == ["ToDo", "ToDo 2"])
        #expect(versions.migrationPath(from: "ToDo 2", to: "ToDo") == nil)
        #expect(throws: CoreDataError.self) {
            try VersionedModel(versions: [("a", ToDoModels.version1())], currentVersionName: "b")
        }
    }

    // Apple, NSPersistentStoreIncompatibleVersionHashError (134100): "The model used to open
    // the store is incompatible with the one used to create the store".
    @Test(arguments: StoreKind.allCases) func aChangedModelWithoutMigrationOptionsFailsWith134100(kind: StoreKind)
        throws
    {
        let directory = try TemporaryDirectory()
        guard let store = try kind.newStore(in: directory, name: "ToDo.sqlite") else { return }
        // The XML store once, beside SQLite.
        let xml = kind == .sqlite ? [PersistentStoreDescription(type: .xml, url: directory.file("ToDo.xml"))] : []
        for store in [store] + xml {
            try ToDoModels.seed(store)
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try ToDoModels.version2())
            let error = #expect(throws: CoreDataError.self) {
                try coordinator.addPersistentStore(with: MigrationStores.reopen(store))
            }
            #expect(error?.code == .persistentStoreIncompatibleVersionHash)
            #expect(error?.message.contains("ToDo (changed)") == true)
            #expect(error?.message.contains("Category") == false)
            #expect(error?.message.contains("migratePersistentStoresAutomatically") == true)
        }
    }

    // Apple, "Lightweight Migration": adding attributes is inferred; "Core Data can perform the
    // migration in situ (solely by issuing SQL statements)" on SQLite.
    // On the main actor: the container's viewContext is a main-queue context.
    // PostgreSQL: in place too, in one transaction (its DDL is transactional).
    @Test(arguments: StoreKind.allCases) @MainActor func lightweightMigrationRunsInPlace(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let store = try kind.newStore(in: directory, name: "ToDo.sqlite") else { return }
        try ToDoModels.seed(store)
        let uuid = try MigrationStores.metadata(store)["NSStoreUUID"] as? String
        let versions = try VersionedModel(
            name: "ToDo", versions: [("ToDo", ToDoModels.version1()), ("ToDo 2", ToDoModels.version2())],
            currentVersionName: "ToDo 2")
        let container = PersistentContainer(name: "ToDo", versionedModel: versions)
        var progress: [Float] = []
        container.persistentStoreDescriptions = [
            MigrationStores.reopen(store, migrate: true, infer: true) { progress.append($0.fractionCompleted) }
        ]
        try container.loadPersistentStores()
        let todos = try container.viewContext.fetch(FetchRequest(entityName: "ToDo"))
        #expect(todos.count == 7)
        for todo in todos {
            #expect(try todo.checkedValue(forKey: "doNotAlert") as? Bool == false)
            #expect(try todo.checkedValue(forKey: "lastAlertDate") == nil)
            #expect(try (todo.checkedValue(forKey: "category") as? ManagedObject)?.checkedValue(forKey: "name") != nil)
        }
        let home = try container.viewContext.fetch(FetchRequest(entityName: "Category")).first {
            try $0.checkedValue(forKey: "name") as? String == "Home"
        }
        #expect((try home?.checkedValue(forKey: "todos") as? Set<ManagedObject>)?.count == 4)
        // In place: same store (UUID), new columns, no scratch file or schema left.
        let metadata = try MigrationStores.metadata(store)
        #expect(metadata["NSStoreUUID"] as? String == uuid)
        #expect(try ToDoModels.version2().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        let columns = try MigrationStores.columns(of: "ZTODO", in: store)
        #expect(columns.contains("ZLASTALERTDATE") && columns.contains("ZDONOTALERT"))
        let url = try MigrationStores.url(store)
        if kind == .sqlite {
            #expect(!FileManager.default.fileExists(atPath: url.path + ".migrating"))
        } else {
            #expect(try MigrationStores.schemas(beside: store) == [PostgresNames.schemaName(of: url)])
        }
        #expect(progress.last == 1)
        #expect(progress == progress.sorted())
    }

    // Apple, "Lightweight Migration": the same inference for the XML store, migrated through a
    // migration manager with the inferred mapping model.
    @Test func lightweightMigrationOnXMLStore() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("ToDo.xml")
        try ToDoModels.seed(url, type: .xml)
        let versions = try VersionedModel(
            versions: [("1", ToDoModels.version1()), ("2", ToDoModels.version2())], currentVersionName: "2")
        let coordinator = PersistentStoreCoordinator(versionedModel: versions)
        try coordinator.addPersistentStore(
            type: .xml, at: url,
            options: [
                StoreOption.migratePersistentStoresAutomatically: true,
                StoreOption.inferMappingModelAutomatically: true,
            ])
        let migrated = try contents(of: url, type: .xml, model: ToDoModels.version2())
        #expect(migrated.count == 7)
        #expect(migrated.values.allSatisfy { $0.doNotAlert == false && $0.category != nil })
        #expect(migrated["Call Alice"]?.category == "Home")
        #expect(migrated["buy milk"]?.category == "Work")
    }

    // Apple, NSMappingModel inferredMappingModelForSourceModel:destinationModel:error: returns
    // an ordinary mapping model (Core Data names its mappings IEM_Copy_/IEM_Transform_).
    @Test func inferredMappingModelHasCoreDatasShape() throws {
        let mapping = try MappingModel.inferredMappingModel(
            forSourceModel: ToDoModels.version1(), destinationModel: ToDoModels.version2())
        #expect(mapping.entityMappings.map(\.name).sorted() == ["IEM_Copy_Category", "IEM_Transform_ToDo"])
        let todo = try #require(mapping.entityMappingsByName["IEM_Transform_ToDo"])
        #expect(todo.mappingType == .transform)
        #expect(
            todo.attributeMappings.first { $0.name == "title" }?.valueExpression?.description
                == #"FUNCTION($source, "valueForKey:" , "title")"#)
        #expect(todo.attributeMappings.first { $0.name == "doNotAlert" }?.valueExpression == nil)
        #expect(mapping.isInferred)
        #expect(mapping.matches(sourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2()))
        #expect(!mapping.matches(sourceModel: try ToDoModels.version2(), destinationModel: try ToDoModels.version2()))
    }

    // Apple, vmMigrationProcess ("for trivial cases, name = $source.name") and Xcode's default
    // mapping: FETCH source expressions and destinationInstancesForEntityMappingNamed:.
    @Test func defaultMappingModelIsWhatXcodeWrites() throws {
        let mapping = MappingModel.defaultMappingModel(
            forSourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2())
        #expect(mapping.entityMappings.map(\.name) == ["CategoryToCategory", "ToDoToToDo"])
        let todo = try #require(mapping.entityMappingsByName["ToDoToToDo"])
        #expect(
            todo.sourceExpression?.description
                == #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:" , "ToDo", "TRUEPREDICATE"), $manager.sourceContext, 0)"#
        )
        #expect(todo.attributeMappings.first { $0.name == "title" }?.valueExpression?.description == "$source.title")
        #expect(todo.attributeMappings.first { $0.name == "lastAlertDate" }?.valueExpression == nil)
        #expect(
            todo.relationshipMappings.first?.valueExpression?.description
                == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "CategoryToCategory", $source.category)"#
        )
        // The printed expression parses back to the same expression (NO prints as 0, as
        // NSExpression prints a boolean constant).
        let parsed = try Expression(checkedFormat: todo.sourceExpression!.description)
        #expect(parsed == todo.sourceExpression)
    }

    // Zarra, "Core Data Versioning", and Apple's NSEntityMigrationPolicy: a custom policy sets
    // doNotAlert for titles beginning with "a" and keeps the category through
    // destinationInstancesForEntityMappingNamed:sourceInstances:.
    @Test(arguments: StoreKind.allCases) func customPolicyMigratesZarrasToDo(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let source = try kind.newStore(in: directory, name: "ToDo.sqlite"),
            let destination = try kind.newStore(in: directory, name: "ToDo2.sqlite")
        else { return }
        try ToDoModels.seed(source, count: 50)
        let v1 = try ToDoModels.version1()
        let v2 = try ToDoModels.version2()
        let manager = MigrationManager(sourceModel: v1, destinationModel: v2)
        manager.batchSize = 7 // several batches, so associations cross batch boundaries
        var reports: [MigrationProgress] = []
        manager.progressHandler = { reports.append($0) }
        try manager.migrateStore(
            from: MigrationStores.url(source), type: kind.storeType, with: ToDoModels.doNotAlertMappingModel(),
            to: MigrationStores.url(destination), type: kind.storeType)
        let migrated = try contents(of: destination, model: v2)
        #expect(migrated.count == 7) // 50 to-dos, 7 distinct titles
        #expect(migrated["Answer mail"]?.doNotAlert == true)
        #expect(migrated["apply patch"]?.doNotAlert == true)
        #expect(migrated["archive photos"]?.doNotAlert == true)
        #expect(migrated["buy milk"]?.doNotAlert == false)
        #expect(migrated["Call Alice"]?.doNotAlert == false)
        let context = try MigrationStores.context(destination, model: v2)
        #expect(try context.count(for: FetchRequest(entityName: "ToDo")) == 50)
        let request = FetchRequest(entityName: "ToDo")
        request.predicate = try Predicate(checkedFormat: "category.name == 'Home'")
        #expect(try context.count(for: request) == 25)
        // Progress: three passes, monotonic, ending at 1; the source is untouched.
        #expect(Set(reports.map(\.pass)) == [1, 2, 3])
        #expect(reports.map(\.fractionCompleted) == reports.map(\.fractionCompleted).sorted())
        #expect(reports.last?.fractionCompleted == 1)
        #expect(manager.migrationProgress == 1)
        #expect(try contents(of: source, model: v1).count == 7)
    }

    // Apple, NSEntityMigrationPolicy: the policy methods run in this order for each mapping,
    // pass by pass.
    @Test(arguments: StoreKind.allCases) func policyMethodsRunInApplesOrder(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let source = try kind.newStore(in: directory, name: "ToDo.sqlite"),
            let destination = try kind.newStore(in: directory, name: "out.sqlite")
        else { return }
        try ToDoModels.seed(source, count: 2)
        let v1 = try ToDoModels.version1()
        let v2 = try ToDoModels.version2()
        let mapping = MappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
        for m in mapping.entityMappings { m.entityMigrationPolicyType = RecordingPolicy.self }
        let manager = MigrationManager(sourceModel: v1, destinationModel: v2)
        try manager.migrateStore(
            from: MigrationStores.url(source), type: kind.storeType, with: mapping,
            to: MigrationStores.url(destination), type: kind.storeType)
        #expect(
            manager.userInfo["calls"] as? [String] == [
                "begin CategoryToCategory", "create Category", "create Category",
                "endInstanceCreation CategoryToCategory",
                "begin ToDoToToDo", "create ToDo", "create ToDo", "endInstanceCreation ToDoToToDo",
                "relate Category", "relate Category", "endRelationshipCreation CategoryToCategory",
                "relate ToDo", "relate ToDo", "endRelationshipCreation ToDoToToDo",
                "validate CategoryToCategory", "end CategoryToCategory", "validate ToDoToToDo", "end ToDoToToDo",
            ])
    }

    // Apple, NSInferMappingModelAutomaticallyOption and NSMigrationMissingMappingModelError
    // (134140): a change lightweight migration cannot infer fails, naming it.
    @Test(arguments: StoreKind.allCases) func anImpossibleInferenceFailsWith134140(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let store = try kind.newStore(in: directory, name: "ToDo.sqlite") else { return }
        try ToDoModels.seed(store)
        let changed = try ManagedObjectModel {
            EntityDescription("Category") {
                AttributeDescription("name", .string)
                RelationshipDescription("todos", toMany: "ToDo", inverse: "category")
            }
            EntityDescription("ToDo") {
                AttributeDescription("title", .string)
                AttributeDescription("dueDate", .date)
                AttributeDescription("completed", .string)
                AttributeDescription("priority", .integer16, optional: false)
                RelationshipDescription("category", toOne: "Category", inverse: "todos")
            }
        }
        let versions = try VersionedModel(
            versions: [("1", ToDoModels.version1()), ("2", changed)], currentVersionName: "2")
        let coordinator = PersistentStoreCoordinator(versionedModel: versions)
        let error = #expect(throws: CoreDataError.self) {
            try coordinator.addPersistentStore(with: MigrationStores.reopen(store, migrate: true, infer: true))
        }
        #expect(error?.code == .migrationMissingMappingModel)
        #expect(error?.message.contains("ToDo.completed changed type from Boolean to String") == true)
        #expect(error?.message.contains("ToDo.priority is new and required") == true)
        #expect(error?.detailedErrors.first?.code == .inferredMappingModel)
        // Without inference there is no mapping model either; with no versions, no source model.
        let noInference = #expect(throws: CoreDataError.self) {
            try PersistentStoreCoordinator(versionedModel: versions).addPersistentStore(
                with: MigrationStores.reopen(store, migrate: true))
        }
        #expect(noInference?.code == .migrationMissingMappingModel)
        let noVersions = #expect(throws: CoreDataError.self) {
            try PersistentStoreCoordinator(managedObjectModel: ToDoModels.version2()).addPersistentStore(
                with: MigrationStores.reopen(store, migrate: true))
        }
        #expect(noVersions?.code == .migrationMissingSourceModel)
        // The store is untouched.
        #expect(try contents(of: store, model: ToDoModels.version1()).count == 7)
    }

    // Apple, NSMigratePersistentStoresAutomaticallyOption: a mapping model found for the
    // store's version is used; beyond Core Data, versions with mapping models of their own are
    // chained (v1 -> v2 custom, v2 -> v3 lightweight with renames), each step runnable alone.
    // On the main actor: the container's viewContext is a main-queue context.
    @Test(arguments: StoreKind.allCases) @MainActor func progressiveMigrationMixesCustomAndInferredSteps(
        kind: StoreKind
    ) throws {
        let directory = try TemporaryDirectory()
        let v1 = try ToDoModels.version1()
        let v2 = try ToDoModels.version2()
        let v3 = try ToDoModels.v3()
        let versions = try VersionedModel(
            name: "ToDo", versions: [("1", v1), ("2", v2), ("3", v3)], currentVersionName: "3",
            mappingModels: [ToDoModels.doNotAlertMappingModel()])
        guard let store = try kind.newStore(in: directory, name: "ToDo.sqlite"),
            let single = try kind.newStore(in: directory, name: "Single.sqlite")
        else { return }
        try ToDoModels.seed(store)
        let steps = try versions.migrationSteps(forStoreMetadata: MigrationStores.metadata(store))
        #expect(steps.map(\.description) == ["1 -> 2 (mapping model)", "2 -> 3 (lightweight)"])

        // Each step alone.
        try ToDoModels.seed(single)
        try versions.migrationStep(from: "1", to: "2").migrateStore(
            at: MigrationStores.url(single), type: kind.storeType)
        #expect(try contents(of: single, model: v2)["apply patch"]?.doNotAlert == true)
        try versions.migrationStep(from: "2", to: "3").migrateStore(
            at: MigrationStores.url(single), type: kind.storeType)
        let afterSteps = try contents(of: single, model: v3, titleKey: "name", categoryKey: "folder")
        #expect(afterSteps["apply patch"]?.doNotAlert == true)
        #expect(afterSteps["apply patch"]?.category == "Work")

        // The whole chain through a container.
        let container = PersistentContainer(name: "ToDo", versionedModel: versions)
        var steps2: Set<Int> = []
        container.persistentStoreDescriptions = [
            MigrationStores.reopen(store, migrate: true, infer: true) { steps2.insert($0.step) }
        ]
        try container.loadPersistentStores()
        #expect(steps2 == [1, 2])
        let folders = try container.viewContext.fetch(FetchRequest(entityName: "Folder"))
        #expect(Set(try folders.map { try $0.checkedValue(forKey: "name") as? String }) == ["Home", "Work"])
        #expect(try folders.allSatisfy { try $0.checkedValue(forKey: "colour") as? String == "grey" })
        let request = FetchRequest(entityName: "ToDo")
        request.predicate = try Predicate(checkedFormat: "doNotAlert == YES AND folder.name == 'Home'")
        #expect(
            try container.viewContext.fetch(request).compactMap { try $0.checkedValue(forKey: "name") as? String }
                .sorted() == ["Answer mail"])
    }

    // Apple, cancelMigrationWithError: "causes migrateStoreFromURL:... to abort the migration
    // and return the specified error"; the source is untouched and nothing is left behind.
    @Test(arguments: StoreKind.allCases) func cancellingStopsAndLeavesNoDestination(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let source = try kind.newStore(in: directory, name: "ToDo.sqlite"),
            let destination = try kind.newStore(in: directory, name: "Out.sqlite")
        else { return }
        try ToDoModels.seed(source, count: 40)
        let v1 = try ToDoModels.version1()
        let v2 = try ToDoModels.version2()
        let manager = MigrationManager(sourceModel: v1, destinationModel: v2)
        manager.batchSize = 5
        manager.progressHandler = { if $0.pass == 2 { manager.cancelMigration() } }
        let error = #expect(throws: CoreDataError.self) {
            try manager.migrateStore(
                from: MigrationStores.url(source), type: kind.storeType, with: ToDoModels.doNotAlertMappingModel(),
                to: MigrationStores.url(destination), type: kind.storeType)
        }
        #expect(error?.code == .migrationCancelled)
        #expect(!(try MigrationStores.exists(destination)))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter {
                !$0.hasPrefix("ToDo.sqlite")
            }.isEmpty)
        #expect(try contents(of: source, model: v1).count == 7)
    }

    // Apple, "Lightweight Migration": to-one <-> to-many changes, renames and new entities are
    // inferred; on SQLite the links move from a key column to a join table, in place.
    @Test(arguments: StoreKind.allCases) func relationshipShapeChangesMigrateInSQL(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let store = try kind.newStore(in: directory, name: "ToDo.sqlite") else { return }
        try ToDoModels.seed(store)
        let manyToMany = try ManagedObjectModel {
            EntityDescription("Alarm") {
                AttributeDescription("at", .date)
            }
            EntityDescription("Category") {
                AttributeDescription("label", .string, renamingIdentifier: "name")
                RelationshipDescription("todos", toMany: "ToDo", inverse: "categories")
            }
            EntityDescription("ToDo") {
                AttributeDescription("title", .string)
                AttributeDescription("completed", .boolean, optional: false, defaultValue: false)
                RelationshipDescription(
                    "categories", toMany: "Category", inverse: "todos", renamingIdentifier: "category")
            }
        }
        let versions = try VersionedModel(
            versions: [("1", ToDoModels.version1()), ("2", manyToMany)], currentVersionName: "2")
        let step = try versions.migrationStep(from: "1", to: "2")
        #expect(step.isLightweight)
        try step.migrateStore(at: MigrationStores.url(store), type: kind.storeType)
        let context = try MigrationStores.context(store, model: manyToMany)
        let request = FetchRequest(entityName: "ToDo")
        request.predicate = try Predicate(checkedFormat: "ANY categories.label == 'Home'")
        #expect(try context.count(for: request) == 4)
        let todos = try context.fetch(FetchRequest(entityName: "ToDo"))
        #expect(try todos.allSatisfy { (try $0.checkedValue(forKey: "categories") as? Set<ManagedObject>)?.count == 1 })
        // New objects get keys after the old ones, in every table.
        let alarm = try context.insertNewObject(forEntityName: "Alarm")
        try alarm.checkedSetValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "at")
        let todo = try context.insertNewObject(forEntityName: "ToDo")
        try todo.checkedSetValue("new", forKey: "title")
        try context.save()
        #expect(todo.objectID.primaryKey == 8)
        #expect(try context.count(for: FetchRequest(entityName: "ToDo")) == 8)
    }
}

/// Records each policy call, to check Apple's order.
/// Records each policy call in its manager's userInfo["calls"], so that migrations running at
/// once (the suite's tests run in parallel) keep their own records.
final class RecordingPolicy: EntityMigrationPolicy {
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
    override func createRelationships(
        forDestination destination: ManagedObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        record("relate \(destination.entity.name)", manager)
        try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
    }
    override func endRelationshipCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {
        record("endRelationshipCreation \(mapping.name)", manager)
    }
    override func performCustomValidation(forMapping mapping: EntityMapping, manager: MigrationManager) throws {
        record("validate \(mapping.name)", manager)
    }
    override func end(_ mapping: EntityMapping, manager: MigrationManager) throws {
        record("end \(mapping.name)", manager)
    }
}
