import Foundation
import ObjectGraph
import Testing
import WorkbookSupport

@testable import MigrationPoliciesChapter

// Every behaviour the migration-policies chapter states, asserted through the API (the book
// test checks the printed outputs). Each test names the text it comes from:
//   Zarra, "Core Data Versioning" (MacTech, 2009), its custom migration and Listing 12;
//   Apple, NSMappingModel, NSEntityMapping, NSPropertyMapping, NSMigrationManager and
//     NSEntityMigrationPolicy references, and "Core Data Model Versioning and Data Migration
//     Programming Guide" ("Mapping Overview", "The Migration Process", "Customizing the
//     Migration Process", "Lightweight Migration");
//   reference/migration.md, sections 3.1 to 3.5, for Xcode's defaults and the policy's order.
@Suite struct MigrationPoliciesChapterTests {
    let bench = Workbench { _ in }

    /// The XML store at `url`, read with `model`: title -> the to-do's values by key, and its
    /// category's name under "category".
    func contents(_ url: URL, _ model: ManagedObjectModel) throws -> [String: [String: Any?]] {
        try SampleToDos.withToDos(at: url, model: model) { todos in
            var result: [String: [String: Any?]] = [:]
            for todo in todos {
                var values: [String: Any?] = [:]
                for a in todo.entity.attributes { values[a.name] = try todo.checkedValue(forKey: a.name) }
                values["category"] = try (todo.checkedValue(forKey: "category") as? ManagedObject)?.checkedValue(
                    forKey: "name")
                result[try #require(todo.checkedValue(forKey: "title") as? String)] = values
            }
            return result
        }
    }

    func migrateVersion1(with mapping: MappingModel, manager: MigrationManager? = nil) throws -> (
        source: URL, destination: URL
    ) {
        let source = try SampleToDos.makeVersion1Store(in: bench.makeDataFolder())
        let destination = SampleToDos.sibling(of: source, named: "ToDo 2.xml")
        let manager =
            try manager ?? MigrationManager(sourceModel: ToDoModels.version1(), destinationModel: ToDoModels.version2())
        try manager.migrateStore(from: source, type: .xml, with: mapping, to: destination, type: .xml)
        return (source, destination)
    }

    // Apple, "Mapping Overview" and reference/migration.md 3.2: Xcode's new mapping model has
    // one mapping <Source>To<Destination> per entity, attributes $source.<name>, relationships
    // through destinationInstancesForEntityMappingNamed:sourceInstances:, and no expression for
    // a new attribute, which keeps its default value.
    @Test func theDefaultMappingModelIsXcodes() throws {
        let v1 = try ToDoModels.version1()
        let v2 = try ToDoModels.version2()
        let mapping = MappingModel.defaultMappingModel(forSourceModel: v1, destinationModel: v2)
        #expect(mapping.entityMappings.map(\.name) == ["CategoryToCategory", "ToDoToToDo"])
        #expect(
            mapping.entityMappings.allSatisfy { $0.mappingType == .transform && $0.entityMigrationPolicyType == nil })
        let todo = try #require(mapping.entityMappingsByName["ToDoToToDo"])
        let expressions = Dictionary(
            uniqueKeysWithValues: (todo.attributeMappings + todo.relationshipMappings).map {
                ($0.name, $0.valueExpression?.description)
            })
        #expect(expressions["title"] == "$source.title")
        #expect(expressions["completed"] == "$source.completed")
        #expect(expressions["lastAlertDate"] == .some(nil))
        #expect(expressions["doNotAlert"] == .some(nil))
        #expect(
            expressions["category"]
                == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "CategoryToCategory", $source.category)"#
        )
        #expect(
            todo.sourceExpression?.description.hasPrefix(
                #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:" , "ToDo", "TRUEPREDICATE")"#
            ) == true)
        #expect(mapping.matches(sourceModel: v1, destinationModel: v2))
        #expect(!mapping.matches(sourceModel: v2, destinationModel: v2))
        // The article's mapping model changes one entity mapping only.
        let custom = try ToDoModels.doNotAlertMappingModel()
        #expect(custom.entityMappingsByName["ToDoToToDo"]?.mappingType == .custom)
        #expect(custom.entityMappingsByName["ToDoToToDo"]?.entityMigrationPolicyType == DoNotAlertForAPolicy.self)
        #expect(custom.entityMappingsByName["CategoryToCategory"]?.mappingType == .transform)
    }

    // Apple, NSPropertyMapping and NSEntityMigrationPolicy.h: value expressions are
    // NSExpressions evaluated with $source bound to the source object; TERNARY makes a value
    // of a predicate.
    @Test func valueExpressionsEvaluateAgainstTheSource() throws {
        let url = try SampleToDos.makeVersion1Store(in: bench.makeDataFolder())
        try SampleToDos.withToDos(at: url, model: ToDoModels.version1()) { (todos: [ManagedObject]) throws -> Void in
            func value(_ format: String, _ title: String) throws -> Any? {
                let todo = try #require(todos.first { try $0.checkedValue(forKey: "title") as? String == title })
                return try Expression(checkedFormat: format).expressionValue(
                    with: todo, substitutionVariables: ["source": todo])
            }
            #expect(try value("$source.category.name", "apply patch") as? String == "Work")
            #expect(
                try value(#"TERNARY($source.title BEGINSWITH[c] "a", YES, NO)"#, "Ask for a raise") as? Bool == true)
            #expect(try value(#"TERNARY($source.title BEGINSWITH[c] "a", YES, NO)"#, "Buy milk") as? Bool == false)
            #expect(
                try value("TERNARY($source.completed == YES, $source.dueDate, nil)", "apply patch") as? Date
                    == Workbench.date(days: -1))
            #expect(try value("TERNARY($source.completed == YES, $source.dueDate, nil)", "Buy milk") == nil)
        }
    }

    // Zarra, Listing 12: doNotAlert is set for to-dos whose title begins with "a" (the Swift
    // listing lowercases first); the categories are kept because the policy associates each
    // new to-do with its source. Apple: the source store is only read.
    @Test func listing12SetsDoNotAlertAndKeepsCategories() throws {
        let (source, destination) = try migrateVersion1(with: ToDoModels.doNotAlertMappingModel())
        let migrated = try contents(destination, ToDoModels.version2())
        #expect(migrated.count == 5)
        for (title, values) in migrated {
            #expect(values["doNotAlert"] as? Bool == title.lowercased().hasPrefix("a"), "\(title)")
            #expect(values["lastAlertDate"] as? Date == nil)
            let original = try #require(SampleToDos.todos.first { $0.title == title })
            #expect(values["category"] as? String == original.category)
            #expect(values["completed"] as? Bool == original.completed)
            #expect(values["dueDate"] as? Date == original.due.flatMap(ISO8601DateFormatter().date(from:)))
        }
        #expect(try contents(source, ToDoModels.version1()).count == 5)
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: source)
        #expect(try ToDoModels.version1().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }

    // Apple, NSEntityMigrationPolicy and "The Migration Process": for each entity mapping in
    // order, begin, one createDestinationInstances per source object and endInstanceCreation
    // (pass 1); then createRelationships per destination object and endRelationshipCreation
    // (pass 2); then performCustomValidation and end (pass 3). Progress rises to 1 over the
    // three passes.
    @Test func policyMethodsRunInApplesOrderOverThreePasses() throws {
        var lines: [String] = []
        let mapping = try ToDoModels.doNotAlertMappingModel(policy: TracedDoNotAlertPolicy.self)
        mapping.entityMappingsByName["CategoryToCategory"]!.entityMigrationPolicyType = TracedPolicy.self
        let manager = MigrationManager(
            sourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2())
        manager.userInfo["print"] = { (line: String) -> Void in lines.append(line) }
        var reports: [MigrationProgress] = []
        manager.progressHandler = {
            reports.append($0)
            lines.append("progress \($0.completedUnits)")
        }
        _ = try migrateVersion1(with: mapping, manager: manager)
        // Pass 3 validates the objects against the model (16 = 14 + the 2 categories) before
        // the first performCustomValidation.
        let validated = try #require(lines.firstIndex(of: "progress 16"))
        let custom = try #require(lines.firstIndex { $0.contains("performCustomValidation") })
        #expect(validated < custom)
        lines.removeAll { $0.hasPrefix("progress ") }
        let calls = lines.map { line -> String in
            let words = line.split(separator: " ")
            return "\(words[0]) \(words[1])"
        }
        let perObject = { (mapping: String, method: String, count: Int) in
            Array(repeating: "\(mapping) \(method)", count: count)
        }
        #expect(
            calls == ["CategoryToCategory begin"] + perObject("CategoryToCategory", "createDestinationInstances", 2)
                + ["CategoryToCategory endInstanceCreation", "ToDoToToDo begin"]
                + perObject("ToDoToToDo", "createDestinationInstances", 5)
                + ["ToDoToToDo endInstanceCreation"] + perObject("CategoryToCategory", "createRelationships", 2)
                + ["CategoryToCategory endRelationshipCreation"] + perObject("ToDoToToDo", "createRelationships", 5)
                + [
                    "ToDoToToDo endRelationshipCreation", "CategoryToCategory performCustomValidation",
                    "CategoryToCategory end",
                    "ToDoToToDo performCustomValidation", "ToDoToToDo end",
                ])
        #expect(reports.map(\.pass) == reports.map(\.pass).sorted())
        #expect(Set(reports.map(\.pass)) == [1, 2, 3])
        #expect(reports.map(\.fractionCompleted) == reports.map(\.fractionCompleted).sorted())
        #expect(reports.last?.fractionCompleted == 1 && reports.last?.totalUnits == 21)
        #expect(manager.migrationProgress == 1)
    }

    // Zarra, Listing 12, as printed: the method's parameters are src and mgr, but its body
    // says source and manager. In Swift, as in Objective-C, the parameter names are the
    // implementation's own choice (the labels forSource:in:manager: are the API): the listing
    // is right once its body uses the names it declared, as AsWrittenPolicy does.
    @Test func theParameterNamesAreTheImplementationsOwn() throws {
        final class SrcMgrPolicy: EntityMigrationPolicy {
            override func createDestinationInstances(
                forSource src: ManagedObject, in mapping: EntityMapping, manager mgr: MigrationManager
            ) throws {
                try super.createDestinationInstances(forSource: src, in: mapping, manager: mgr)
                let todo = try mgr.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [src])[0]
                try todo.checkedSetValue(true, forKey: "doNotAlert")
            }
        }
        let mapping = try ToDoModels.doNotAlertMappingModel()
        mapping.entityMappingsByName["ToDoToToDo"]!.entityMigrationPolicyType = SrcMgrPolicy.self
        let (_, destination) = try migrateVersion1(with: mapping)
        #expect(
            try contents(destination, ToDoModels.version2()).values.allSatisfy { $0["doNotAlert"] as? Bool == true })
    }

    // Zarra, Listing 12, stores the string @"YES" in doNotAlert, a Boolean attribute. Core Data
    // rejects a value of the wrong class for an attribute ("Unacceptable type of value for
    // attribute"); a Boolean takes a boolean (NSNumber YES, here true) or the numbers 0 and 1.
    @Test func aStringInABooleanAttributeIsRejected() throws {
        let context = try bench.makeContext(model: ToDoModels.version2(), type: .inMemory)
        let todo = try context.insertNewObject(forEntityName: "ToDo")
        for value: Any in ["YES", "true", 2] {
            let error = #expect(throws: CoreDataError.self) { try todo.checkedSetValue(value, forKey: "doNotAlert") }
            #expect(error?.exceptionName == .invalidArgument)
            #expect(error?.code == nil)
            #expect(
                error?.message.hasPrefix(
                    #"Unacceptable type of value for attribute: property = "doNotAlert"; desired type = Boolean"#)
                    == true)
        }
        try todo.checkedSetValue(true, forKey: "doNotAlert")
        #expect(try todo.checkedValue(forKey: "doNotAlert") as? Bool == true)
        try todo.checkedSetValue(0, forKey: "doNotAlert")
        #expect(try todo.checkedValue(forKey: "doNotAlert") as? Bool == false)
    }

    // The same in a migration: Listing 12 as written stops the migration with that error, the
    // half-made destination is removed and the source is untouched (Apple, NSMigrationManager:
    // the source store is only read). In a value expression a quoted "YES" is a string and a
    // bare YES a Boolean.
    @Test func listing12AsWrittenStopsTheMigration() throws {
        let mapping = try ToDoModels.doNotAlertMappingModel()
        mapping.entityMappingsByName["ToDoToToDo"]!.entityMigrationPolicyType = AsWrittenPolicy.self
        let source = try SampleToDos.makeVersion1Store(in: bench.makeDataFolder())
        let destination = SampleToDos.sibling(of: source, named: "ToDo 2.xml")
        let manager = MigrationManager(
            sourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2())
        let error = #expect(throws: CoreDataError.self) {
            try manager.migrateStore(from: source, type: .xml, with: mapping, to: destination, type: .xml)
        }
        #expect(error?.message.contains(#"given = String "YES""#) == true)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try contents(source, ToDoModels.version1()).count == 5)

        #expect(try Expression(checkedFormat: #""YES""#).expressionValue(with: nil) as? String == "YES")
        #expect(try Expression(checkedFormat: "YES").expressionValue(with: nil) as? Bool == true)
        for (format, works) in [(#""YES""#, false), ("YES", true)] {
            let mapping = MappingModel.defaultMappingModel(
                forSourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2())
            let todos = mapping.entityMappingsByName["ToDoToToDo"]!
            todos.attributeMappings[todos.attributeMappings.firstIndex { $0.name == "doNotAlert" }!] =
                try PropertyMapping(name: "doNotAlert", valueExpressionFormat: format)
            if works {
                let (_, out) = try migrateVersion1(with: mapping)
                #expect(
                    try contents(out, ToDoModels.version2()).values.allSatisfy { $0["doNotAlert"] as? Bool == true })
            } else {
                #expect(throws: CoreDataError.self) { _ = try migrateVersion1(with: mapping) }
            }
        }
    }

    // Apple, "Lightweight Migration": removing an attribute and adding an optional one can be
    // inferred, so version 2 to 3 infers, and loses who was done; a renaming identifier that
    // changes the type cannot be inferred (NSInferredMappingModelError, 134190).
    @Test func inferenceToVersion3RunsButForgetsCompletion() throws {
        let v2 = try ToDoModels.version2()
        let v3 = try PolicyModels.version3()
        let inferred = try MappingModel.inferredMappingModel(forSourceModel: v2, destinationModel: v3)
        let todo = try #require(inferred.entityMappingsByName["IEM_Transform_ToDo"])
        #expect(todo.attributeMappings.first { $0.name == "completedDate" }?.valueExpression == nil)
        let url = try SampleToDos.makeVersion1Store(in: bench.makeDataFolder())
        let versions = try PolicyModels.versionedModel(mappingModels: [])
        try versions.migrationStep(from: "ToDo", to: "ToDo 2").migrateStore(at: url, type: .xml)
        let step = try versions.migrationStep(from: "ToDo 2", to: "ToDo 3")
        #expect(step.isLightweight)
        try step.migrateStore(at: url, type: .xml)
        #expect(try contents(url, v3).values.allSatisfy { $0["completedDate"] as? Date == nil })

        let renamed = try PolicyModels.version3RenamingCompleted()
        let error = #expect(throws: CoreDataError.self) {
            try MappingModel.inferredMappingModel(forSourceModel: v2, destinationModel: renamed)
        }
        #expect(error?.code == .inferredMappingModel)
        #expect(error?.message.contains("ToDo.completedDate changed type from Boolean to Date") == true)
    }

    // Apple, NSEntityMigrationPolicy, createDestinationInstancesForSourceInstance: the default
    // creates the instance from the attribute mappings and associates it, so a policy may call
    // super and then adjust. The version 2 to 3 step, alone: completed to-dos get their due
    // date, or the migration's date when they have none; the others none.
    @Test func theVersion3StepAloneSetsCompletedDates() throws {
        let versions = try PolicyModels.versionedModel(mappingModels: [PolicyModels.completedDateMappingModel()])
        let url = try SampleToDos.makeVersion1Store(in: bench.makeDataFolder())
        try versions.migrationStep(from: "ToDo", to: "ToDo 2").migrateStore(at: url, type: .xml)
        let step = try versions.migrationStep(from: "ToDo 2", to: "ToDo 3")
        #expect(!step.isLightweight)
        #expect(step.description == "ToDo 2 -> ToDo 3 (mapping model)")
        try step.migrateStore(at: url, type: .xml)
        let migrated = try contents(url, PolicyModels.version3())
        for item in SampleToDos.todos {
            let values = try #require(migrated[item.title])
            let expected =
                item.completed
                ? (item.due.flatMap(ISO8601DateFormatter().date(from:)) ?? CompletedDatePolicy.migrationDate) : nil
            #expect(values["completedDate"] as? Date == expected, "\(item.title)")
            #expect(values["category"] as? String == item.category)
        }
        #expect(CompletedDatePolicy.migrationDate == Workbench.now)
    }

    // Beyond Core Data (reference/migration.md 1.4, ObjectGraph's VersionedModel): with no
    // mapping models the chain is one inferred step; with a mapping model for version 2 to 3,
    // the store goes through version 2, inferred, then 3, custom; addPersistentStore runs the
    // same steps. After each step the metadata names the new version, so an interrupted chain
    // resumes with the steps that remain.
    @Test func theProgressiveChainGoesThroughVersion2() throws {
        let url = try SampleToDos.makeVersion1Store(in: bench.makeDataFolder())
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: url)
        let plain = try PolicyModels.versionedModel(mappingModels: [])
        #expect(
            try plain.migrationSteps(forStoreMetadata: metadata).map(\.description) == ["ToDo -> ToDo 3 (lightweight)"])
        let versions = try PolicyModels.versionedModel(mappingModels: [PolicyModels.completedDateMappingModel()])
        let steps = try versions.migrationSteps(forStoreMetadata: metadata)
        #expect(steps.map(\.description) == ["ToDo -> ToDo 2 (lightweight)", "ToDo 2 -> ToDo 3 (mapping model)"])
        for (i, step) in steps.enumerated() {
            try step.migrateStore(at: url, type: .xml)
            let now = try PersistentStoreCoordinator.metadataForPersistentStore(type: .xml, at: url)
            #expect(versions.versionName(forStoreMetadata: now) == PolicyModels.versionNames[i + 1])
            // Stopped here, the store would resume with the steps that remain.
            #expect(
                try versions.migrationSteps(forStoreMetadata: now).map(\.description)
                    == steps.dropFirst(i + 1).map(\.description))
        }
        #expect(
            try contents(url, PolicyModels.version3()).values.filter { $0["completedDate"] as? Date != nil }.count == 3)

        let other = try SampleToDos.makeVersion1Store(in: bench.makeDataFolder())
        var stepsSeen: Set<Int> = []
        let coordinator = PersistentStoreCoordinator(versionedModel: versions)
        try coordinator.addPersistentStore(
            type: .xml, at: other,
            options: [
                StoreOption.migratePersistentStoresAutomatically: true,
                StoreOption.inferMappingModelAutomatically: true,
                StoreOption.migrationProgressHandler: { (p: MigrationProgress) in stepsSeen.insert(p.step) }
                    as MigrationProgressHandler,
            ])
        #expect(stepsSeen == [1, 2])
        let request = FetchRequest(entityName: "ToDo")
        request.predicate = try Predicate(checkedFormat: "completedDate != nil")
        #expect(try ManagedObjectContext(coordinator: coordinator).count(for: request) == 3)
    }

    // The diagrams: one model per version, the third without completed.
    @Test func theChapterDrawsEachVersion() throws {
        #expect(MigrationPoliciesChapter.models.keys.sorted() == ["todo-1", "todo-2", "todo-3"])
        let v3 = try PolicyModels.version3()
        let todo = try #require(v3.entitiesByName["ToDo"])
        #expect(todo.attribute(named: "completed") == nil)
        #expect(todo.attribute(named: "completedDate")?.isOptional == true)
        #expect(
            v3.entityVersionHashesByName["Category"]
                == (try ToDoModels.version2()).entityVersionHashesByName["Category"])
    }

    // The executable takes the options every chapter takes (built by `swift build --build-tests`).
    @Test(.enabled(if: Executables.url("migration-policies") != nil))
    func theExecutableListsAndRunsSections() throws {
        let list = try Executables.run("migration-policies", ["--list"])
        #expect(list.status == 0)
        #expect(list.output == ChapterRunner.list(MigrationPoliciesChapter.self) + "\n")
        let one = try Executables.run("migration-policies", ["--section", "listing-12-errors"])
        #expect(one.status == 0)
        #expect(one.output.contains("## What Listing 12 gets wrong: a string in a Boolean  [listing-12-errors]"))
        #expect(!one.output.contains("[listing-12]"))
    }

    // Every section runs and prints the same bytes twice (fixed clock, fixed data, no paths).
    @Test(arguments: MigrationPoliciesChapter.sections.map(\.name))
    func sectionsAreDeterministic(_ name: String) throws {
        let section = try ChapterRunner.section(named: name, in: MigrationPoliciesChapter.self)
        let first = try ChapterRunner.output(of: section)
        #expect(first == (try ChapterRunner.output(of: section)))
        #expect(!first.contains("/tmp") && !first.contains("workbook-"))
    }

    // makeVersion1Store(in:), shown in the book: the store is written into the folder given,
    // named after its type, closed again, and holds every to-do of the listing with its due
    // date (a date that failed to parse would be nil).
    @Test(arguments: [StoreType.xml, .sqlite])
    func theVersion1StoreHoldsTheListedToDos(type: StoreType) throws {
        let folder = try bench.makeDataFolder()
        let url = try SampleToDos.makeVersion1Store(in: folder, type: type)
        #expect(url == folder.appendingPathComponent(type == .xml ? "ToDo.xml" : "ToDo.sqlite"))
        let dates = ISO8601DateFormatter()
        let due = try SampleToDos.withToDos(at: url, model: ToDoModels.version1(), type: type) { todos in
            try Dictionary(
                uniqueKeysWithValues: todos.map {
                    (
                        try $0.checkedValue(forKey: "title") as? String ?? "",
                        try $0.checkedValue(forKey: "dueDate") as? Date
                    )
                })
        }
        #expect(due.count == SampleToDos.todos.count)
        for item in SampleToDos.todos {
            #expect(due[item.title] == .some(item.due.flatMap(dates.date(from:))), "\(item.title)")
        }
        #expect(due["Water the plants"] == .some(nil))
    }

    // The traced policies print through the function in the manager's userInfo["print"], and
    // a migration without one prints nothing and still migrates.
    @Test func theTracedPoliciesPrintOnlyWhereTheyAreTold() throws {
        let mapping = try ToDoModels.doNotAlertMappingModel(policy: TracedDoNotAlertPolicy.self)
        let quiet = MigrationManager(
            sourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2())
        let (_, destination) = try migrateVersion1(with: mapping, manager: quiet)
        #expect(try contents(destination, ToDoModels.version2()).count == SampleToDos.todos.count)
        var lines: [String] = []
        let told = MigrationManager(sourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2())
        told.userInfo["print"] = { (line: String) -> Void in lines.append(line) }
        _ = try migrateVersion1(
            with: try ToDoModels.doNotAlertMappingModel(policy: TracedDoNotAlertPolicy.self), manager: told)
        #expect(lines.contains("  ToDoToToDo          createDestinationInstances \"apply patch\": doNotAlert YES"))
        #expect(lines.filter { $0.contains("createDestinationInstances") }.count == SampleToDos.todos.count)
    }
}
