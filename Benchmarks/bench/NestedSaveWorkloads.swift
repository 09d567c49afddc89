import Foundation
import ObjectGraph

/// Saving through a child context: the child's save pushes its objects into the parent
/// context, whose save writes them to the store. Measured against one context saving the same
/// objects to the store directly.
let nestedSaveWorkloads: [Workload] = [
    Workload(
        name: "nested-save",
        summary:
            "save 100k new Books through a child context into its parent, then the parent into the store, vs one direct save; target: <= 1.3x direct",
        run: runNestedSave)
]

private func runNestedSave(_ settings: BenchSettings) throws -> WorkloadResult {
    let count = settings.rows ?? max(1, 100_000 / settings.scaleDown)
    let books = Books.make(count: count)
    let model = try Books.model()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var files = 0
    /// A coordinator on a new empty store (made before the clock starts).
    func emptyStack() throws -> (PersistentStoreCoordinator, URL) {
        files += 1
        let url = directory.file("Nested-\(files).sqlite")
        try Books.createEmptyStore(at: url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        return (coordinator, url)
    }
    /// Checks the store holds every book, then removes it.
    func verify(_ coordinator: PersistentStoreCoordinator, _ url: URL, _ who: String) throws {
        let stored = try ManagedObjectContext(coordinator: coordinator).count(
            for: FetchRequest(entityName: Books.entityName))
        guard stored == count else { throw BenchError("nested-save: \(who) stored \(stored) books, expected \(count)") }
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
    let timings = try interleavedMedians(
        settings,
        [
            (
                "nested",
                {
                    let (coordinator, url) = try emptyStack()
                    let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
                    let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
                    try child.performAndWait { try Books.insert(books, into: child) }
                    let t = try timed {
                        try child.performAndWait { try child.save() }
                        try parent.performAndWait { try parent.save() }
                    }
                    try verify(coordinator, url, "the child and parent")
                    return t.seconds
                }
            ),
            (
                "direct",
                {
                    let (coordinator, url) = try emptyStack()
                    let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
                    try context.performAndWait { try Books.insert(books, into: context) }
                    let t = try timed { try context.performAndWait { try context.save() } }
                    try verify(coordinator, url, "the direct save")
                    return t.seconds
                }
            ),
        ])
    return WorkloadResult(
        ours: timings[0], baselines: [("direct", timings[1])], unit: "s per save of \(count) new rows",
        details: [("rows", String(count)), ("repetitions", String(settings.repetitions))],
        targets: [(baseline: "direct", maximumRatio: 1.3)])
}
