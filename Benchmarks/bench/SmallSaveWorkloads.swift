import Foundation
import ObjectGraph

/// Many small saves on one store: what an app does (a save per user action), where the cost of
/// a save's fixed work, such as preparing its statements, shows rather than the rows'.
let smallSaveWorkloads: [Workload] = [
    Workload(
        name: "small-saves",
        summary:
            "2,000 saves of one context, each inserting one Book and changing another; no baseline (before/after comparisons)",
        run: runSmallSaves)
]

private func runSmallSaves(_ settings: BenchSettings) throws -> WorkloadResult {
    let saves = max(1, 2_000 / settings.scaleDown)
    let books = Books.make(count: saves + 1)
    let model = try Books.model()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var files = 0
    let timings = try interleavedMedians(
        settings,
        [
            (
                "ours",
                {
                    files += 1
                    let url = directory.file("Small-\(files).sqlite")
                    let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
                    let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
                    let context = ManagedObjectContext(coordinator: coordinator)
                    // One saved object to change in every save.
                    try Books.insert([books[saves]], into: context)
                    try context.save()
                    let changed = try context.fetch(FetchRequest(entityName: Books.entityName))[0]
                    let t = try timed {
                        for k in 0..<saves {
                            try Books.insert([books[k]], into: context)
                            try changed.checkedSetValue(k, forKey: "salesRank")
                            try context.save()
                        }
                    }
                    let stored = try ManagedObjectContext(coordinator: coordinator).count(
                        for: FetchRequest(entityName: Books.entityName))
                    try coordinator.remove(store)
                    guard stored == saves + 1 else {
                        throw BenchError("small-saves: stored \(stored) books, expected \(saves + 1)")
                    }
                    return t.seconds
                }
            )
        ])
    return WorkloadResult(
        ours: timings[0], unit: "s per \(saves) saves",
        details: [("saves", String(saves)), ("repetitions", String(settings.repetitions))])
}
