import Testing
import Foundation
import GRDB
import ObjectGraph
import ZarraToDo

/// What a store holds, read back with a model: title -> (doNotAlert, category name).
private func contents(of url: URL, type: StoreType, model: ManagedObjectModel, titleKey: String = "title", categoryKey: String = "category") throws -> [String: (doNotAlert: Bool?, category: String?)] {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(type: type, at: url)
    let context = ManagedObjectContext(coordinator: coordinator)
    var result: [String: (Bool?, String?)] = [:]
    for todo in try context.fetch(FetchRequest(entityName: "ToDo")) {
        let title = try #require(try todo.value(forKey: titleKey) as? String)
        let doNotAlert = model.entitiesByName["ToDo"]!.attribute(named: "doNotAlert") == nil ? nil : try todo.value(forKey: "doNotAlert") as? Bool
        let category = try (todo.value(forKey: categoryKey) as? ManagedObject)?.value(forKey: "name") as? String
        result[title] = (doNotAlert, category)
    }
    return result
}

@Suite struct MigrationTests {
    // Apple, "Understanding Versions": compatibility is decided by version hashes alone;
    // isConfiguration:compatibleWithStoreMetadata: is the documented check.
    @Test func versionsAreFoundByTheStoresHashes() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("ToDo.sqlite")
        try ToDoModels.seed(url)
        let versions = try VersionedModel(name: "ToDo", versions: [("ToDo", ToDoModels.version1()), ("ToDo 2", ToDoModels.version2())], currentVersionName: "ToDo 2")
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(versions.versionName(forStoreMetadata: metadata) == "ToDo")
        #expect(try ToDoModels.version1().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(!(try ToDoModels.version2().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)))
        #expect(!(try ToDoModels.version1().isConfiguration(withName: "Other", compatibleWithStoreMetadata: metadata)))
        #expect(versions.migrationPath(from: "ToDo", to: "ToDo 2") == ["ToDo", "ToDo 2"])
        #expect(versions.migrationPath(from: "ToDo 2", to: "ToDo") == nil)
        #expect(throws: CoreDataError.self) { try VersionedModel(versions: [("a", ToDoModels.version1())], currentVersionName: "b") }
    }

    // Apple, NSPersistentStoreIncompatibleVersionHashError (134100): "The model used to open
    // the store is incompatible with the one used to create the store".
    @Test func aChangedModelWithoutMigrationOptionsFailsWith134100() throws {
        let directory = try TemporaryDirectory()
        for type in [StoreType.sqlite, .xml] {
            let url = directory.file("ToDo-\(type.rawValue).store")
            try ToDoModels.seed(url, type: type)
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try ToDoModels.version2())
            let error = #expect(throws: CoreDataError.self) { try coordinator.addPersistentStore(type: type, at: url) }
            #expect(error?.code == .persistentStoreIncompatibleVersionHash)
            #expect(error?.message.contains("ToDo (changed)") == true)
            #expect(error?.message.contains("Category") == false)
            #expect(error?.message.contains("migratePersistentStoresAutomatically") == true)
        }
    }

    // Apple, "Lightweight Migration": adding attributes is inferred; "Core Data can perform the
    // migration in situ (solely by issuing SQL statements)" on SQLite.
    // On the main actor: the container's viewContext is a main-queue context.
    @Test @MainActor func lightweightMigrationOnSQLiteRunsInPlace() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("ToDo.sqlite")
        try ToDoModels.seed(url)
        let uuid = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)["NSStoreUUID"] as? String
        let versions = try VersionedModel(name: "ToDo", versions: [("ToDo", ToDoModels.version1()), ("ToDo 2", ToDoModels.version2())], currentVersionName: "ToDo 2")
        let container = PersistentContainer(name: "ToDo", versionedModel: versions)
        var progress: [Float] = []
        var description = PersistentStoreDescription(url: url)
        description.migrationProgressHandler = { progress.append($0.fractionCompleted) }
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        let todos = try container.viewContext.fetch(FetchRequest(entityName: "ToDo"))
        #expect(todos.count == 7)
        for todo in todos {
            #expect(try todo.value(forKey: "doNotAlert") as? Bool == false)
            #expect(try todo.value(forKey: "lastAlertDate") == nil)
            #expect(try (todo.value(forKey: "category") as? ManagedObject)?.value(forKey: "name") != nil)
        }
        let home = try container.viewContext.fetch(FetchRequest(entityName: "Category")).first { try $0.value(forKey: "name") as? String == "Home" }
        #expect((try home?.value(forKey: "todos") as? Set<ManagedObject>)?.count == 4)
        // In place: same store (UUID), new columns, no scratch file left.
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(metadata["NSStoreUUID"] as? String == uuid)
        #expect(try ToDoModels.version2().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        let columns = try DatabaseQueue(path: url.path).read { db in try db.columns(in: "ZTODO").map(\.name) }
        #expect(columns.contains("ZLASTALERTDATE") && columns.contains("ZDONOTALERT"))
        #expect(!FileManager.default.fileExists(atPath: url.path + ".migrating"))
        #expect(progress.last == 1)
        #expect(progress == progress.sorted())
    }

    // Apple, "Lightweight Migration": the same inference for the XML store, migrated through a
    // migration manager with the inferred mapping model.
    @Test func lightweightMigrationOnXMLStore() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("ToDo.xml")
        try ToDoModels.seed(url, type: .xml)
        let versions = try VersionedModel(versions: [("1", ToDoModels.version1()), ("2", ToDoModels.version2())], currentVersionName: "2")
        let coordinator = PersistentStoreCoordinator(versionedModel: versions)
        try coordinator.addPersistentStore(type: .xml, at: url, options: [
            StoreOption.migratePersistentStoresAutomatically: true, StoreOption.inferMappingModelAutomatically: true,
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
        let mapping = try MappingModel.inferredMappingModel(forSourceModel: ToDoModels.version1(), destinationModel: ToDoModels.version2())
        #expect(mapping.entityMappings.map(\.name).sorted() == ["IEM_Copy_Category", "IEM_Transform_ToDo"])
        let todo = try #require(mapping.entityMappingsByName["IEM_Transform_ToDo"])
        #expect(todo.mappingType == .transform)
        #expect(todo.attributeMappings.first { $0.name == "title" }?.valueExpression?.description == #"FUNCTION($source, "valueForKey:" , "title")"#)
        #expect(todo.attributeMappings.first { $0.name == "doNotAlert" }?.valueExpression == nil)
        #expect(mapping.isInferred)
        #expect(mapping.matches(sourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2()))
        #expect(!mapping.matches(sourceModel: try ToDoModels.version2(), destinationModel: try ToDoModels.version2()))
    }

    // Apple, vmMigrationProcess ("for trivial cases, name = $source.name") and Xcode's default
    // mapping: FETCH source expressions and destinationInstancesForEntityMappingNamed:.
    @Test func defaultMappingModelIsWhatXcodeWrites() throws {
        let mapping = MappingModel.defaultMappingModel(forSourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2())
        #expect(mapping.entityMappings.map(\.name) == ["CategoryToCategory", "ToDoToToDo"])
        let todo = try #require(mapping.entityMappingsByName["ToDoToToDo"])
        #expect(todo.sourceExpression?.description == #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:" , "ToDo", "TRUEPREDICATE"), $manager.sourceContext, 0)"#)
        #expect(todo.attributeMappings.first { $0.name == "title" }?.valueExpression?.description == "$source.title")
        #expect(todo.attributeMappings.first { $0.name == "lastAlertDate" }?.valueExpression == nil)
        #expect(todo.relationshipMappings.first?.valueExpression?.description == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "CategoryToCategory", $source.category)"#)
        // The printed expression parses back to the same expression (NO prints as 0, as
        // NSExpression prints a boolean constant).
        let parsed = try Expression(format: todo.sourceExpression!.description)
        #expect(parsed == todo.sourceExpression)
    }

    // Zarra, "Core Data Versioning", and Apple's NSEntityMigrationPolicy: a custom policy sets
    // doNotAlert for titles beginning with "a" and keeps the category through
    // destinationInstancesForEntityMappingNamed:sourceInstances:.
    @Test func customPolicyMigratesZarrasToDo() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("ToDo.sqlite")
        let destination = directory.file("ToDo2.sqlite")
        try ToDoModels.seed(source, count: 50)
        let v1 = try ToDoModels.version1(), v2 = try ToDoModels.version2()
        let manager = MigrationManager(sourceModel: v1, destinationModel: v2)
        manager.batchSize = 7    // several batches, so associations cross batch boundaries
        var reports: [MigrationProgress] = []
        manager.progressHandler = { reports.append($0) }
        try manager.migrateStore(from: source, type: .sqlite, with: ToDoModels.doNotAlertMappingModel(), to: destination, type: .sqlite)
        let migrated = try contents(of: destination, type: .sqlite, model: v2)
        #expect(migrated.count == 7)   // 50 to-dos, 7 distinct titles
        #expect(migrated["Answer mail"]?.doNotAlert == true)
        #expect(migrated["apply patch"]?.doNotAlert == true)
        #expect(migrated["archive photos"]?.doNotAlert == true)
        #expect(migrated["buy milk"]?.doNotAlert == false)
        #expect(migrated["Call Alice"]?.doNotAlert == false)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: v2)
        try coordinator.addPersistentStore(type: .sqlite, at: destination)
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.count(for: FetchRequest(entityName: "ToDo")) == 50)
        let request = FetchRequest(entityName: "ToDo")
        request.predicate = try Predicate(format: "category.name == 'Home'")
        #expect(try context.count(for: request) == 25)
        // Progress: three passes, monotonic, ending at 1; the source is untouched.
        #expect(Set(reports.map(\.pass)) == [1, 2, 3])
        #expect(reports.map(\.fractionCompleted) == reports.map(\.fractionCompleted).sorted())
        #expect(reports.last?.fractionCompleted == 1)
        #expect(manager.migrationProgress == 1)
        #expect(try contents(of: source, type: .sqlite, model: v1).count == 7)
    }

    // Apple, NSEntityMigrationPolicy: the policy methods run in this order for each mapping,
    // pass by pass.
    @Test func policyMethodsRunInApplesOrder() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("ToDo.sqlite")
        try ToDoModels.seed(source, count: 2)
        let v1 = try ToDoModels.version1(), v2 = try ToDoModels.version2()
        let mapping = MappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
        for m in mapping.entityMappings { m.entityMigrationPolicyType = RecordingPolicy.self }
        RecordingPolicy.calls = []
        let manager = MigrationManager(sourceModel: v1, destinationModel: v2)
        try manager.migrateStore(from: source, type: .sqlite, with: mapping, to: directory.file("out.sqlite"), type: .sqlite)
        #expect(RecordingPolicy.calls == [
            "begin CategoryToCategory", "create Category", "create Category", "endInstanceCreation CategoryToCategory",
            "begin ToDoToToDo", "create ToDo", "create ToDo", "endInstanceCreation ToDoToToDo",
            "relate Category", "relate Category", "endRelationshipCreation CategoryToCategory",
            "relate ToDo", "relate ToDo", "endRelationshipCreation ToDoToToDo",
            "validate CategoryToCategory", "end CategoryToCategory", "validate ToDoToToDo", "end ToDoToToDo",
        ])
    }

    // Apple, NSInferMappingModelAutomaticallyOption and NSMigrationMissingMappingModelError
    // (134140): a change lightweight migration cannot infer fails, naming it.
    @Test func anImpossibleInferenceFailsWith134140() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("ToDo.sqlite")
        try ToDoModels.seed(url)
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
        let versions = try VersionedModel(versions: [("1", ToDoModels.version1()), ("2", changed)], currentVersionName: "2")
        let coordinator = PersistentStoreCoordinator(versionedModel: versions)
        let error = #expect(throws: CoreDataError.self) {
            try coordinator.addPersistentStore(type: .sqlite, at: url, options: [
                StoreOption.migratePersistentStoresAutomatically: true, StoreOption.inferMappingModelAutomatically: true,
            ])
        }
        #expect(error?.code == .migrationMissingMappingModel)
        #expect(error?.message.contains("ToDo.completed changed type from Boolean to String") == true)
        #expect(error?.message.contains("ToDo.priority is new and required") == true)
        #expect(error?.detailedErrors.first?.code == .inferredMappingModel)
        // Without inference there is no mapping model either; with no versions, no source model.
        let noInference = #expect(throws: CoreDataError.self) {
            try PersistentStoreCoordinator(versionedModel: versions).addPersistentStore(type: .sqlite, at: url, options: [StoreOption.migratePersistentStoresAutomatically: true])
        }
        #expect(noInference?.code == .migrationMissingMappingModel)
        let noVersions = #expect(throws: CoreDataError.self) {
            try PersistentStoreCoordinator(managedObjectModel: ToDoModels.version2()).addPersistentStore(type: .sqlite, at: url, options: [StoreOption.migratePersistentStoresAutomatically: true])
        }
        #expect(noVersions?.code == .migrationMissingSourceModel)
        // The store is untouched.
        #expect(try contents(of: url, type: .sqlite, model: ToDoModels.version1()).count == 7)
    }

    // Apple, NSMigratePersistentStoresAutomaticallyOption: a mapping model found for the
    // store's version is used; beyond Core Data, versions with mapping models of their own are
    // chained (v1 -> v2 custom, v2 -> v3 lightweight with renames), each step runnable alone.
    // On the main actor: the container's viewContext is a main-queue context.
    @Test @MainActor func progressiveMigrationMixesCustomAndInferredSteps() throws {
        let directory = try TemporaryDirectory()
        let v1 = try ToDoModels.version1(), v2 = try ToDoModels.version2(), v3 = try ToDoModels.v3()
        let versions = try VersionedModel(name: "ToDo", versions: [("1", v1), ("2", v2), ("3", v3)], currentVersionName: "3",
                                          mappingModels: [ToDoModels.doNotAlertMappingModel()])
        let url = directory.file("ToDo.sqlite")
        try ToDoModels.seed(url)
        let steps = try versions.migrationSteps(forStoreMetadata: PersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url))
        #expect(steps.map(\.description) == ["1 -> 2 (mapping model)", "2 -> 3 (lightweight)"])

        // Each step alone.
        let single = directory.file("Single.sqlite")
        try ToDoModels.seed(single)
        try versions.migrationStep(from: "1", to: "2").migrateStore(at: single, type: .sqlite)
        #expect(try contents(of: single, type: .sqlite, model: v2)["apply patch"]?.doNotAlert == true)
        try versions.migrationStep(from: "2", to: "3").migrateStore(at: single, type: .sqlite)
        let afterSteps = try contents(of: single, type: .sqlite, model: v3, titleKey: "name", categoryKey: "folder")
        #expect(afterSteps["apply patch"]?.doNotAlert == true)
        #expect(afterSteps["apply patch"]?.category == "Work")

        // The whole chain through a container.
        let container = PersistentContainer(name: "ToDo", versionedModel: versions)
        var steps2: Set<Int> = []
        var description = PersistentStoreDescription(url: url)
        description.migrationProgressHandler = { steps2.insert($0.step) }
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        #expect(steps2 == [1, 2])
        let folders = try container.viewContext.fetch(FetchRequest(entityName: "Folder"))
        #expect(Set(try folders.map { try $0.value(forKey: "name") as? String }) == ["Home", "Work"])
        #expect(try folders.allSatisfy { try $0.value(forKey: "colour") as? String == "grey" })
        let request = FetchRequest(entityName: "ToDo")
        request.predicate = try Predicate(format: "doNotAlert == YES AND folder.name == 'Home'")
        #expect(try container.viewContext.fetch(request).compactMap { try $0.value(forKey: "name") as? String }.sorted() == ["Answer mail"])
    }

    // Apple, cancelMigrationWithError: "causes migrateStoreFromURL:... to abort the migration
    // and return the specified error"; the source is untouched and nothing is left behind.
    @Test func cancellingStopsAndLeavesNoDestination() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("ToDo.sqlite"), destination = directory.file("Out.sqlite")
        try ToDoModels.seed(source, count: 40)
        let v1 = try ToDoModels.version1(), v2 = try ToDoModels.version2()
        let manager = MigrationManager(sourceModel: v1, destinationModel: v2)
        manager.batchSize = 5
        manager.progressHandler = { if $0.pass == 2 { manager.cancelMigration() } }
        let error = #expect(throws: CoreDataError.self) {
            try manager.migrateStore(from: source, type: .sqlite, with: ToDoModels.doNotAlertMappingModel(), to: destination, type: .sqlite)
        }
        #expect(error?.code == .migrationCancelled)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { !$0.hasPrefix("ToDo.sqlite") }.isEmpty)
        #expect(try contents(of: source, type: .sqlite, model: v1).count == 7)
    }

    // Apple, "Lightweight Migration": to-one <-> to-many changes, renames and new entities are
    // inferred; on SQLite the links move from a key column to a join table, in place.
    @Test func relationshipShapeChangesMigrateInSQL() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("ToDo.sqlite")
        try ToDoModels.seed(url)
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
                RelationshipDescription("categories", toMany: "Category", inverse: "todos", renamingIdentifier: "category")
            }
        }
        let versions = try VersionedModel(versions: [("1", ToDoModels.version1()), ("2", manyToMany)], currentVersionName: "2")
        let step = try versions.migrationStep(from: "1", to: "2")
        #expect(step.isLightweight)
        try step.migrateStore(at: url, type: .sqlite)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: manyToMany)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let request = FetchRequest(entityName: "ToDo")
        request.predicate = try Predicate(format: "ANY categories.label == 'Home'")
        #expect(try context.count(for: request) == 4)
        let todos = try context.fetch(FetchRequest(entityName: "ToDo"))
        #expect(try todos.allSatisfy { (try $0.value(forKey: "categories") as? Set<ManagedObject>)?.count == 1 })
        // New objects get keys after the old ones, in every table.
        let alarm = try context.insertNewObject(forEntityName: "Alarm")
        try alarm.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "at")
        let todo = try context.insertNewObject(forEntityName: "ToDo")
        try todo.setValue("new", forKey: "title")
        try context.save()
        #expect(todo.objectID.primaryKey == 8)
        #expect(try context.count(for: FetchRequest(entityName: "ToDo")) == 8)
    }
}

/// Records each policy call, to check Apple's order.
final class RecordingPolicy: EntityMigrationPolicy {
    nonisolated(unsafe) static var calls: [String] = []
    override func begin(_ mapping: EntityMapping, with manager: MigrationManager) throws { Self.calls.append("begin \(mapping.name)") }
    override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        Self.calls.append("create \(source.entity.name)")
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    }
    override func endInstanceCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws { Self.calls.append("endInstanceCreation \(mapping.name)") }
    override func createRelationships(forDestination destination: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        Self.calls.append("relate \(destination.entity.name)")
        try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
    }
    override func endRelationshipCreation(forMapping mapping: EntityMapping, manager: MigrationManager) throws { Self.calls.append("endRelationshipCreation \(mapping.name)") }
    override func performCustomValidation(forMapping mapping: EntityMapping, manager: MigrationManager) throws { Self.calls.append("validate \(mapping.name)") }
    override func end(_ mapping: EntityMapping, manager: MigrationManager) throws { Self.calls.append("end \(mapping.name)") }
}
