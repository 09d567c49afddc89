import ArgumentParser
import CoreData
import WorkbookSupport

// ObjectGraph's MigrationStep too: one step of the versioned model's migration, run on its own
// with a progress handler, where Apple's Core Data migrates only inside addPersistentStore.
import struct ObjectGraph.MigrationStep

/// How `todo migrate` moves a version 1 store to version 2.
public enum ToDoMigrationPolicy: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// What opening the store with version 2 does: a lightweight migration, with a mapping
    /// model inferred from the two versions.
    case defaultMapping
    /// The article's custom policy: titles beginning with "a" get doNotAlert.
    case doNotAlertForA
}

/// Migrates the program's store from one model version to the next, drawing a progress bar
/// for a person at a terminal, and says in one line what happened.
enum ToDoMigration {
    static func migrate(
        storeAt url: URL, type: NSPersistentStore.StoreType, from: Int, to: Int, policy: ToDoMigrationPolicy,
        environment: ToDoEnvironment
    ) throws {
        let names = ToDoModels.versionNames
        let versions = try ToDoModels.versionedModel()
        let step: MigrationStep
        switch policy {
        case .defaultMapping:
            step = try versions.migrationStep(from: names[from - 1], to: names[to - 1])
        case .doNotAlertForA:
            step = MigrationStep(
                sourceVersionName: names[from - 1], destinationVersionName: names[to - 1],
                sourceModel: try ToDoModels.model(version: from), destinationModel: try ToDoModels.model(version: to),
                mappingModel: try ToDoModels.doNotAlertMappingModel())
        }
        let bar = ProgressBar(isShown: environment.isTerminal)
        try step.migrateStore(at: url, type: type, progress: { bar.update($0.fractionCompleted) })
        bar.finish()
        let (todos, categories) = try counts(at: url, type: type, model: step.destinationModel)
        let how = policy == .defaultMapping ? "a lightweight migration" : "the doNotAlertForA policy"
        environment.write(
            "Migrated \(url.lastPathComponent) from version \(from) to version \(to) of the ToDo model by \(how): \(Self.count(todos, "to-do", "to-dos")), \(Self.count(categories, "category", "categories"))."
        )
        // A migration through a mapping model writes a new store, whose objects get new keys,
        // as Core Data's do: the numbers `todo list` shows are not the old ones.
        if !(step.isLightweight && type == NSSQLiteStoreType) {
            environment.write("The to-dos were numbered afresh; `todo list` shows their new numbers.")
        }
    }

    /// "1 to-do", "3 to-dos".
    static func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }

    /// How many to-dos and categories the migrated store holds.
    static func counts(at url: URL, type: NSPersistentStore.StoreType, model: NSManagedObjectModel) throws -> (Int, Int)
    {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: url)
        let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (
            try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "ToDo")),
            try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Category"))
        )
    }
}

/// A one-line progress bar on standard error, redrawn in place, for a person at a terminal.
final class ProgressBar {
    let isShown: Bool
    private var lastDrawn = -1

    init(isShown: Bool) { self.isShown = isShown }

    /// Redraws the bar when the fraction has moved by a whole percent.
    func update(_ fraction: Float) {
        let percent = Int((max(0, min(1, fraction)) * 100).rounded(.down))
        guard isShown, percent != lastDrawn else { return }
        lastDrawn = percent
        FileHandle.standardError.write(Data(("\r" + Self.render(fraction)).utf8))
    }

    /// Ends the bar's line.
    func finish() {
        guard isShown, lastDrawn >= 0 else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }

    /// `Migrating [##########          ]  50%`.
    static func render(_ fraction: Float, width: Int = 30) -> String {
        let clamped = max(0, min(1, fraction))
        let filled = Int((clamped * Float(width)).rounded(.down))
        let percent = Int((clamped * 100).rounded(.down))
        return "Migrating [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            + "] "
            + String(repeating: " ", count: 3 - String(percent).count) + "\(percent)%"
    }
}
