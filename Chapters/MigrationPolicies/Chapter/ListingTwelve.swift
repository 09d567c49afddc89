import CoreData
import WorkbookSupport

/// How the traced policies print: through the function the migration puts in the manager's
/// `userInfo["print"]` (Apple's dictionary for a migration's own state), so that two
/// migrations running at once (as tests do) never mix their lines.
enum PolicyTrace {
    /// Prints `text` after the mapping's name, if the manager was given a function to print with.
    static func log(_ manager: NSMigrationManager, _ mapping: NSEntityMapping, _ text: String) {
        let print = manager.userInfo["print"] as? (String) -> Void
        print?("  " + mapping.name.padding(toLength: 20, withPad: " ", startingAt: 0) + text)
    }

    /// `"Ask for a raise"`, or `"Work"`: what names the object.
    static func name(_ object: NSManagedObject?) -> String {
        guard let object else { return "none" }
        let key = object.entity.attribute(named: "title") != nil ? "title" : "name"
        return SampleToDos.show(object.value(forKey: key))
    }
}

/// Zarra's policy, with each of Apple's seven policy methods saying when it runs.
final class TracedDoNotAlertPolicy: DoNotAlertForAPolicy {
    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {
        PolicyTrace.log(manager, mapping, "begin")
        try super.begin(mapping, with: manager)
    }
    // ANCHOR: traced-create
    /// Listing 12's method, then a line saying what it made.
    override func createDestinationInstances(
        forSource source: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        let made = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source])
        let title = source.value(forKey: "title") as? String ?? ""
        let doNotAlert = made.first?.value(forKey: "doNotAlert") as? Bool == true
        let print = manager.userInfo["print"] as? (String) -> Void
        let name = mapping.name.padding(toLength: 20, withPad: " ", startingAt: 0)
        print?("  \(name)createDestinationInstances \"\(title)\": doNotAlert \(doNotAlert ? "YES" : "NO")")
    }
    // ANCHOR_END: traced-create
    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        PolicyTrace.log(manager, mapping, "endInstanceCreation")
        try super.endInstanceCreation(forMapping: mapping, manager: manager)
    }
    override func createRelationships(
        forDestination destination: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager
    ) throws {
        try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
        let category = destination.value(forKey: "category") as? NSManagedObject
        PolicyTrace.log(
            manager, mapping,
            "createRelationships \(PolicyTrace.name(destination)): category \(PolicyTrace.name(category))")
    }
    override func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        PolicyTrace.log(manager, mapping, "endRelationshipCreation")
        try super.endRelationshipCreation(forMapping: mapping, manager: manager)
    }
    override func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        PolicyTrace.log(manager, mapping, "performCustomValidation")
        try super.performCustomValidation(forMapping: mapping, manager: manager)
    }
    override func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        PolicyTrace.log(manager, mapping, "end")
        try super.end(mapping, manager: manager)
    }
}

/// The default policy, traced the same way, for the Category mapping.
final class TracedPolicy: NSEntityMigrationPolicy {
    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {
        PolicyTrace.log(manager, mapping, "begin")
    }
    override func createDestinationInstances(
        forSource source: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager
    ) throws {
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        PolicyTrace.log(manager, mapping, "createDestinationInstances \(PolicyTrace.name(source))")
    }
    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        PolicyTrace.log(manager, mapping, "endInstanceCreation")
    }
    override func createRelationships(
        forDestination destination: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager
    ) throws {
        try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
        PolicyTrace.log(manager, mapping, "createRelationships \(PolicyTrace.name(destination))")
    }
    override func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        PolicyTrace.log(manager, mapping, "endRelationshipCreation")
    }
    override func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        PolicyTrace.log(manager, mapping, "performCustomValidation")
    }
    override func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        PolicyTrace.log(manager, mapping, "end")
    }
}

enum ListingTwelve {
    static func run(_ bench: Workbench) throws {
        // The listings print with `print`, as a reader's own code would; here it goes to the
        // section's output. `folder` is a fresh temporary folder.
        let print = bench.print
        let folder = try bench.makeDataFolder()
        let source = try SampleToDos.makeVersion1Store(in: folder)
        print("The version 1 store, as the first application left it:")
        for line in try SampleToDos.describe(storeAt: source, model: ToDoModels.version1()) { print("  " + line) }
        print("")

        // ANCHOR: traced-mapping
        let mapping = try ToDoModels.doNotAlertMappingModel(policy: TracedDoNotAlertPolicy.self)
        mapping.entityMappingsByName["CategoryToCategory"]?.entityMigrationPolicyType = TracedPolicy.self
        // ANCHOR_END: traced-mapping
        print("The article's mapping model: Xcode's, with one entity mapping made custom:")
        for entityMapping in mapping.entityMappings { print("  " + entityMapping.description) }
        print("")

        print("The migration, as the policies and the progress handler see it:")
        // ANCHOR: migrate
        let destination = folder.appendingPathComponent("ToDo 2.xml")
        let manager = NSMigrationManager(
            sourceModel: try ToDoModels.version1(), destinationModel: try ToDoModels.version2())
        var shown: Float = -1
        manager.progressHandler = { progress in
            guard progress.fractionCompleted != shown else { return } // only when it moves
            shown = progress.fractionCompleted
            print(
                "  progress \(Int((progress.fractionCompleted * 100).rounded()))% (pass \(progress.pass), \(progress.completedUnits) of \(progress.totalUnits))"
            )
        }
        manager.userInfo = ["print": print] // where the traced policies print their lines
        try manager.migrateStore(from: source, type: .xml, mapping: mapping, to: destination, type: .xml)
        // ANCHOR_END: migrate
        print("")

        print("The version 2 store:")
        for line in try SampleToDos.describe(storeAt: destination, model: ToDoModels.version2()) { print("  " + line) }
        print(
            "The version 1 store is only read: it still opens with version 1 and holds "
                + "\(try SampleToDos.withToDos(at: source, model: ToDoModels.version1()) { $0.count }) to-dos.")
    }
}
