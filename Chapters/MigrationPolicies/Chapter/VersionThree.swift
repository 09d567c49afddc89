import CoreData
import ObjectGraph
import WorkbookSupport

enum VersionThree {
    static func run(_ bench: Workbench) throws {
        let version2 = try ToDoModels.version2()
        let version3 = try PolicyModels.version3()
        // ANCHOR: infer-3
        let inferred = try NSMappingModel.inferredMappingModel(forSourceModel: version2, destinationModel: version3)
        // ANCHOR_END: infer-3
        bench.print("Lightweight migration can infer a mapping from version 2 to version 3:")
        bench.print()
        MappingPrinter.print(inferred, destinationModel: version3, to: bench)
        bench.print()

        // A version 2 store, by the inferred step from version 1.
        let url = try SampleToDos.makeVersion1Store(in: try bench.makeDataFolder())
        let versions = try PolicyModels.versionedModel(mappingModels: [])
        try versions.migrationStep(from: "ToDo", to: "ToDo 2").migrateStore(at: url, type: .xml)
        let done = try SampleToDos.withToDos(at: url, model: version2) { todos in
            todos.filter { $0.value(forKey: "completed") as? Bool == true }.count
        }
        try versions.migrationStep(from: "ToDo 2", to: "ToDo 3").migrateStore(at: url, type: .xml)
        let dated = try SampleToDos.withToDos(at: url, model: version3) { todos in
            todos.filter { $0.value(forKey: "completedDate") != nil }.count
        }
        bench.print("It runs, and forgets: the version 2 store had \(done) completed to-dos;")
        bench.print("after the inferred step, \(dated) to-dos have a completedDate, so every to-do looks undone.")
        bench.print()

        let renamed = try PolicyModels.version3RenamingCompleted()
        bench.print("Telling Core Data that completedDate is completed renamed does not help:")
        do {
            _ = try NSMappingModel.inferredMappingModel(forSourceModel: version2, destinationModel: renamed)
            bench.print("  inferred")
        } catch {
            bench.print("  \(error)")
        }
        bench.print()

        bench.print("So version 3 gets a mapping model of its own, Xcode's default with a custom policy:")
        bench.print()
        MappingPrinter.print(try PolicyModels.completedDateMappingModel(), destinationModel: version3, to: bench)
    }
}

enum Progressive {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let url = try SampleToDos.makeVersion1Store(in: try bench.makeDataFolder())
        // ANCHOR: migration-steps
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: url)
        let lightweightOnly = try PolicyModels.versionedModel(mappingModels: [])
        let versions = try PolicyModels.versionedModel(mappingModels: [PolicyModels.completedDateMappingModel()])
        let steps = try versions.migrationSteps(forStoreMetadata: metadata)
        // ANCHOR_END: migration-steps
        print("A version 1 store, and the three versions with no mapping model: one inferred step.")
        for step in try lightweightOnly.migrationSteps(forStoreMetadata: metadata) { print("  " + step.description) }
        print("")
        print("With the mapping model from version 2 to version 3, the store goes through version 2:")
        for step in steps { print("  " + step.description) }
        print("")

        for (i, step) in steps.enumerated() {
            print("Step \(i + 1): \(step.description)")
            // ANCHOR: run-step
            try step.migrateStore(at: url, type: .xml)
            // ANCHOR_END: run-step
            let now = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: url)
            print("  the store is now version \(versions.versionName(forStoreMetadata: now) ?? "unknown"):")
            for line in try SampleToDos.describe(storeAt: url, model: step.destinationModel) { print("    " + line) }
        }
        print("")

        print("What addPersistentStore does with the same versions, on another version 1 store:")
        let other = try SampleToDos.makeVersion1Store(in: try bench.makeDataFolder())
        // ANCHOR: automatic
        var step = 0
        let report: MigrationProgressHandler = { progress in
            if progress.step != step { print("  step \(progress.step) of \(progress.stepCount)") }
            step = progress.step
        }
        let coordinator = NSPersistentStoreCoordinator(versionedModel: versions)
        try coordinator.addPersistentStore(
            type: .xml, at: other,
            options: [
                NSMigratePersistentStoresAutomaticallyOption: true,
                NSInferMappingModelAutomaticallyOption: true,
                StoreOption.migrationProgressHandler: report,
            ])
        // ANCHOR_END: automatic
        let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
        request.predicate = NSPredicate(format: "completedDate != nil")
        let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        print("  completed to-dos, by completedDate: \(try context.count(for: request))")
    }
}
