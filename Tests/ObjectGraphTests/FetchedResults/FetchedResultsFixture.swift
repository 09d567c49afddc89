import Foundation

@testable import ObjectGraph

/// Writes down each delegate call, in order, as a line a test compares exactly:
/// `will`, `section insert 2 C`, `delete a2 [0, 1] -> nil`, `did`.
final class RecordingResultsDelegate: FetchedResultsControllerDelegate {
    var lines: [String] = []
    /// Section index titles to give instead of the default, by section name.
    var indexTitles: [String: String] = [:]

    func controllerWillChangeContent(_ controller: FetchedResultsController) { lines.append("will") }
    func controllerDidChangeContent(_ controller: FetchedResultsController) { lines.append("did") }
    func controller(
        _ controller: FetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
    ) {
        lines.append("section \(type) \(sectionIndex) \(sectionInfo.name)")
    }
    func controller(
        _ controller: FetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        let name = (try? (anObject as? ManagedObject)?.checkedValue(forKey: "name")) as? String ?? "?"
        lines.append("\(type) \(name) \(Self.text(indexPath)) -> \(Self.text(newIndexPath))")
    }
    func controller(_ controller: FetchedResultsController, sectionIndexTitleForSectionName sectionName: String)
        -> String?
    {
        indexTitles[sectionName]
    }

    static func text(_ path: IndexPath?) -> String { path.map { "[\($0.section), \($0.row)]" } ?? "nil" }

    /// The lines so far, and none kept.
    func take() -> [String] {
        defer { lines = [] }
        return lines
    }
}

/// A delegate that takes the diffable form: each snapshot, in order.
final class SnapshotResultsDelegate: FetchedResultsControllerSnapshotDelegate {
    var snapshots: [FetchedResultsSnapshot] = []
    var otherCalls = 0

    func controller(_ controller: FetchedResultsController, didChangeContentWith snapshot: FetchedResultsSnapshot) {
        snapshots.append(snapshot)
    }
    func controllerWillChangeContent(_ controller: FetchedResultsController) { otherCalls += 1 }
    func controllerDidChangeContent(_ controller: FetchedResultsController) { otherCalls += 1 }
    func controller(
        _ controller: FetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) { otherCalls += 1 }
}

/// A store of items in groups: A holds a1, a2, a3 (ranks 1 to 3), B holds b1, b2 (ranks 1, 2).
struct FetchedResultsFixture {
    let directory: TemporaryDirectory
    let coordinator: PersistentStoreCoordinator
    let context: ManagedObjectContext

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Item") {
                AttributeDescription("name", .string)
                AttributeDescription("group", .string)
                AttributeDescription("rank", .integer32)
            }
            EntityDescription("Other") {
                AttributeDescription("name", .string)
            }
        }
    }

    init(
        _ type: StoreType = .sqlite, context makeContext: ((PersistentStoreCoordinator) -> ManagedObjectContext)? = nil
    ) throws {
        directory = try TemporaryDirectory()
        coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(
            type: type, at: type == .inMemory ? nil : directory.file("Items.\(type.rawValue.lowercased())"))
        let seed = ManagedObjectContext(coordinator: coordinator)
        for (name, group, rank) in [("a1", "A", 1), ("a2", "A", 2), ("a3", "A", 3), ("b1", "B", 1), ("b2", "B", 2)] {
            try Self.insert(name, group: group, rank: rank, in: seed)
        }
        try seed.save()
        context = makeContext?(coordinator) ?? ManagedObjectContext(coordinator: coordinator)
    }

    @discardableResult
    static func insert(_ name: String, group: String?, rank: Int, in context: ManagedObjectContext) throws
        -> ManagedObject
    {
        let item = try context.insertNewObject(forEntityName: "Item")
        try item.checkedSetValue(name, forKey: "name")
        try item.checkedSetValue(group, forKey: "group")
        try item.checkedSetValue(rank, forKey: "rank")
        return item
    }

    /// A request for items by group, then rank.
    static func request(predicate: ObjectGraph.Predicate? = nil) -> FetchRequest<ManagedObject> {
        let request = FetchRequest(entityName: "Item")
        request.predicate = predicate
        request.sortDescriptors = [SortDescriptor(key: "group"), SortDescriptor(key: "rank")]
        return request
    }

    /// A controller on the fixture's context, sectioned by group, fetched.
    func controller(
        sectioned: Bool = true, predicate: ObjectGraph.Predicate? = nil,
        delegate: (any FetchedResultsControllerDelegate)?
    ) throws -> FetchedResultsController {
        let controller = FetchedResultsController(
            fetchRequest: Self.request(predicate: predicate), managedObjectContext: context,
            sectionNameKeyPath: sectioned ? "group" : nil, cacheName: nil)
        controller.delegate = delegate
        try controller.performFetch()
        return controller
    }

    /// The item of a name in the fixture's context.
    func item(_ name: String) throws -> ManagedObject {
        let request = FetchRequest(entityName: "Item")
        request.predicate = try Predicate(checkedFormat: "name == %@", name)
        guard let item = try context.fetch(request).first else {
            throw CoreDataError(.validation, "no item named \(name)")
        }
        return item
    }

    /// The names in each section of a controller's results.
    static func names(_ controller: FetchedResultsController) -> [[String]] {
        (controller.sections ?? []).map { section in
            (section.objects ?? []).map { (try? $0.checkedValue(forKey: "name")) as? String ?? "?" }
        }
    }
}
