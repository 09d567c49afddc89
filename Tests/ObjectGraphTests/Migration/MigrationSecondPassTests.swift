import Foundation
import ObjectGraph
import TestSupport
import Testing
import ZarraToDo

// The second pass of a mapping-model migration (NSEntityMigrationPolicy
// createRelationshipsForDestinationInstance:entityMapping:manager:error:): Xcode's default
// relationship mappings are looked up without the evaluator, with the same answers, and a
// to-one already holding its object is not written again. On SQLite and on PostgreSQL.

/// Each migrated to-do's title with its category's name, and each row's Z_OPT, by title.
private func migratedToDos(_ store: PersistentStoreDescription) throws -> (
    categories: [String: String?], versions: [String: Int64]
) {
    let context = try MigrationStores.context(store, model: try ToDoModels.version2())
    var categories: [String: String?] = [:]
    for todo in try context.fetch(FetchRequest(entityName: "ToDo")) {
        let title = try #require(try todo.checkedValue(forKey: "title") as? String)
        categories[title] =
            try (todo.checkedValue(forKey: "category") as? ManagedObject)?.checkedValue(forKey: "name") as? String
    }
    return (categories, try MigrationStores.versions(in: "ZTODO", by: "ZTITLE", of: store))
}

private func migrate(
    _ source: PersistentStoreDescription, to destination: PersistentStoreDescription, with mapping: MappingModel
) throws {
    let manager = MigrationManager(sourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2())
    manager.batchSize = 3 // several batches, so lookups cross saved batches
    try manager.migrateStore(
        from: MigrationStores.url(source), type: source.type, with: mapping, to: MigrationStores.url(destination),
        type: destination.type)
}

/// Zarra's policy, which also gives each new to-do its category in the first pass.
final class CategoryInFirstPassPolicy: DoNotAlertForAPolicy {
    override func createDestinationInstances(
        forSource source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        guard
            let todo = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source])
                .first
        else {
            throw CoreDataError(.migration, "the to-do just created for \(source.objectID) is not associated")
        }
        guard let category = try source.checkedValue(forKey: "category") as? ManagedObject else { return }
        try todo.checkedSetValue(
            try manager.destinationInstances(forEntityMappingName: "CategoryToCategory", sourceInstances: [category])
                .first, forKey: "category")
    }
}

@Suite("The second pass of a custom migration (NSEntityMigrationPolicy createRelationships)")
struct MigrationSecondPassTests {
    @Test(
        "Xcode's default relationship expression finds what the same lookup finds evaluated (destinationInstancesForEntityMappingNamed:sourceInstances:)",
        arguments: StoreKind.allCases)
    func defaultLookupMatchesTheEvaluator(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let source = try kind.newStore(in: directory, name: "v1.sqlite"),
            let directStore = try kind.newStore(in: directory, name: "direct.sqlite"),
            let evaluatedStore = try kind.newStore(in: directory, name: "evaluated.sqlite")
        else { return }
        try ToDoModels.seed(source, count: 11)
        let direct = try ToDoModels.doNotAlertMappingModel()
        try migrate(source, to: directStore, with: direct)
        // The same lookup in a form the manager evaluates: the source's category in an array.
        let evaluated = try ToDoModels.doNotAlertMappingModel()
        let todos = try #require(evaluated.entityMappingsByName["ToDoToToDo"])
        let index = try #require(todos.relationshipMappings.firstIndex { $0.name == "category" })
        todos.relationshipMappings[index] = try PropertyMapping(
            name: "category",
            valueExpressionFormat:
                #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "CategoryToCategory", {$source.category})"#
        )
        try migrate(source, to: evaluatedStore, with: evaluated)
        let a = try migratedToDos(directStore)
        let b = try migratedToDos(evaluatedStore)
        #expect(a.categories.count == 7)
        #expect(a.categories.values.allSatisfy { $0 == "Home" || $0 == "Work" })
        #expect(a.categories == b.categories)
        #expect(a.versions == b.versions)
    }

    @Test(
        "A to-one set in the first pass is not written again by the second (Z_OPT stays 1)",
        arguments: StoreKind.allCases)
    func relationshipSetInTheFirstPassIsNotRewritten(kind: StoreKind) throws {
        let directory = try TemporaryDirectory()
        guard let source = try kind.newStore(in: directory, name: "v1.sqlite"),
            let zarraStore = try kind.newStore(in: directory, name: "zarra.sqlite"),
            let firstPassStore = try kind.newStore(in: directory, name: "first-pass.sqlite")
        else { return }
        try ToDoModels.seed(source, count: 11)
        try migrate(source, to: zarraStore, with: try ToDoModels.doNotAlertMappingModel())
        try migrate(
            source, to: firstPassStore,
            with: try ToDoModels.doNotAlertMappingModel(policy: CategoryInFirstPassPolicy.self))
        let zarra = try migratedToDos(zarraStore)
        let firstPass = try migratedToDos(firstPassStore)
        #expect(firstPass.categories == zarra.categories)
        #expect(zarra.categories.values.allSatisfy { $0 != nil })
        // Zarra's to-dos get their category in the second pass, a second write; those that
        // had it from the first pass are written once.
        #expect(zarra.versions.values.allSatisfy { $0 == 2 }, "\(zarra.versions)")
        #expect(firstPass.versions.values.allSatisfy { $0 == 1 }, "\(firstPass.versions)")
    }
}
