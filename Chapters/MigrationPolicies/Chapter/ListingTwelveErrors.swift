import CoreData
import WorkbookSupport

/// Listing 12 as the article prints it, with its two slips put right in one of them only:
/// the parameters keep the article's names, `src` and `mgr`, and the body uses those names
/// (the article's body says `source` and `manager`, which are not defined there); but the
/// flag is still set to the string "YES".
final class AsWrittenPolicy: NSEntityMigrationPolicy {
    // ANCHOR: as-written
    override func createDestinationInstances(
        forSource src: NSManagedObject, in mapping: NSEntityMapping,
        manager mgr: NSMigrationManager
    ) throws {
        let todo = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: mgr.destinationContext)
        for key in ["title", "dueDate", "completed"] {
            todo.setValue(src.value(forKey: key), forKey: key)
        }
        let title = (src.value(forKey: "title") as? String ?? "").lowercased()
        if title.hasPrefix("a") {
            try todo.checkedSetValue("YES", forKey: "doNotAlert") // the article: @"YES"
        }
        mgr.associate(sourceInstance: src, withDestinationInstance: todo, for: mapping)
    }
    // ANCHOR_END: as-written
}

enum ListingTwelveErrors {
    static func run(_ bench: Workbench) throws {
        bench.print("Values set on doNotAlert, a Boolean attribute, in a version 2 context:")
        let context = try bench.makeContext(model: ToDoModels.version2(), type: .inMemory)
        let todo = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: context)
        let values: [(String, Any)] = [("\"YES\"", "YES"), ("\"true\"", "true"), ("true", true), ("1", 1), ("2", 2)]
        for (shown, value) in values {
            let label = "  \(shown)".padding(toLength: 10, withPad: " ", startingAt: 0)
            do {
                try todo.checkedSetValue(value, forKey: "doNotAlert")
                bench.print(label + "stored as \(SampleToDos.show(todo.value(forKey: "doNotAlert")))")
            } catch {
                bench.print(label + "\(error)")
            }
        }
        bench.print()

        let folder = try bench.makeDataFolder()
        let source = try SampleToDos.makeVersion1Store(in: folder)
        let destination = folder.appendingPathComponent("ToDo 2.xml")
        bench.print("Migrating with Listing 12 as written, the string and all:")
        let asWritten = try ToDoModels.doNotAlertMappingModel()
        asWritten.entityMappingsByName["ToDoToToDo"]?.entityMigrationPolicyType = AsWrittenPolicy.self
        let manager = NSMigrationManager(
            sourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2())
        do {
            try manager.migrateStore(from: source, type: .xml, mapping: asWritten, to: destination, type: .xml)
            bench.print("  it migrated")
        } catch {
            bench.print("  \(error)")
        }
        bench.print("  the destination was removed: \(!FileManager.default.fileExists(atPath: destination.path))")
        bench.print(
            "  the source still opens with version 1: "
                + "\(try SampleToDos.withToDos(at: source, model: ToDoModels.version1()) { $0.count }) to-dos")
        bench.print()

        bench.print("The same slip in a mapping model: a quoted \"YES\" in a value expression is a string,")
        bench.print("a bare YES is a Boolean:")
        for format in [#""YES""#, "YES"] {
            let value = try NSExpression(format: format).expressionValue(with: nil)
            bench.print(
                "  \(format.padding(toLength: 6, withPad: " ", startingAt: 0)) evaluates to \(type(of: value!)) \(String(reflecting: value!))"
            )
        }
        for format in [#""YES""#, "YES"] {
            let mapping = NSMappingModel.defaultMappingModel(
                forSourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2())
            // ANCHOR: value-expression-yes
            if let todos = mapping.entityMappingsByName["ToDoToToDo"],
                let i = todos.attributeMappings.firstIndex(where: { $0.name == "doNotAlert" })
            {
                todos.attributeMappings[i] = try NSPropertyMapping(name: "doNotAlert", valueExpressionFormat: format)
            }
            // ANCHOR_END: value-expression-yes
            let out = folder.appendingPathComponent("ToDo 2 (\(format)).xml")
            do {
                try NSMigrationManager(
                    sourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2()
                )
                .migrateStore(from: source, type: .xml, mapping: mapping, to: out, type: .xml)
                let flags = try SampleToDos.withToDos(at: out, model: ToDoModels.version2()) { todos in
                    todos.map { SampleToDos.show($0.value(forKey: "doNotAlert")) }
                }
                bench.print(
                    "  doNotAlert = \(format): migrated, every to-do has doNotAlert \(Set(flags).sorted().joined(separator: ", "))"
                )
            } catch {
                bench.print("  doNotAlert = \(format): \(error)")
            }
        }
    }
}
