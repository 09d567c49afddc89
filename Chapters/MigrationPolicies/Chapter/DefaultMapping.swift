import CoreData
import WorkbookSupport

/// Prints a mapping model as Xcode's mapping editor shows it: each entity mapping, its source
/// expression, its policy, and a value expression per destination property.
enum MappingPrinter {
    static func print(_ mapping: NSMappingModel, destinationModel: NSManagedObjectModel, to bench: Workbench) {
        for entityMapping in mapping.entityMappings {
            bench.print(entityMapping.description)
            if let source = entityMapping.sourceExpression { bench.print("  source expression  \(source)") }
            let policy =
                entityMapping.entityMigrationPolicyType.map { String(describing: $0) }
                ?? "NSEntityMigrationPolicy (the default)"
            bench.print("  policy             \(policy)")
            let destination = entityMapping.destinationEntityName.flatMap { destinationModel.entitiesByName[$0] }
            let width =
                (entityMapping.attributeMappings + entityMapping.relationshipMappings).map(\.name.count).max() ?? 0
            for property in entityMapping.attributeMappings + entityMapping.relationshipMappings {
                let name = property.name.padding(toLength: width, withPad: " ", startingAt: 0)
                if let expression = property.valueExpression {
                    bench.print("  \(name)  = \(expression)")
                } else {
                    let initial = destination?.attribute(named: property.name)?.defaultValue
                    bench.print("  \(name)  (no expression: keeps its default, \(SampleToDos.show(initial)))")
                }
            }
        }
    }
}

enum DefaultMapping {
    static func run(_ bench: Workbench) throws {
        // ANCHOR: default-mapping
        let version1 = try ToDoModels.version1()
        let version2 = try ToDoModels.version2()
        let mapping = NSMappingModel.defaultMappingModel(forSourceModel: version1, destinationModel: version2)
        // ANCHOR_END: default-mapping
        bench.print(
            "Xcode's new mapping model from version 1 to version 2 has \(mapping.entityMappings.count) entity mappings,"
        )
        bench.print("processed in this order:")
        bench.print()
        MappingPrinter.print(mapping, destinationModel: version2, to: bench)
        bench.print()
        bench.print(
            "It matches the two versions by their entity hashes: \(mapping.matches(sourceModel: version1, destinationModel: version2))"
        )
        bench.print(
            "and no other pair, such as version 2 to version 2: \(mapping.matches(sourceModel: version2, destinationModel: version2))"
        )
    }
}

enum ValueExpressions {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let source = try SampleToDos.makeVersion1Store(in: try bench.makeDataFolder())
        // ANCHOR: version-1-todos
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try ToDoModels.version1())
        try coordinator.addPersistentStore(type: .xml, at: source)
        let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true, comparator: .caseInsensitiveCompare)]
        request.fetchLimit = 3
        let todos = try context.fetch(request)
        // ANCHOR_END: version-1-todos
        // ANCHOR: evaluate-value-expression
        let formats = [
            "$source.title",
            "$source.category.name",
            #"TERNARY($source.title BEGINSWITH[c] "a", YES, NO)"#,
            "TERNARY($source.completed == YES, $source.dueDate, nil)",
        ]
        for format in formats {
            let expression = NSExpression(format: format)
            print(format)
            for todo in todos {
                let value = try expression.expressionValue(with: todo, substitutionVariables: ["source": todo])
                let title = todo.value(forKey: "title") as? String ?? ""
                print("  for \(title.padding(toLength: 16, withPad: " ", startingAt: 0))\(value ?? "nil")")
            }
        }
        // ANCHOR_END: evaluate-value-expression
    }
}
