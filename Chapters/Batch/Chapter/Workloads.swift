import CoreData
import WorkbookSupport

/// The six ways the chart compares, on 1,000 quakes: an insert, an update and a delete, each
/// through a context (one managed object per quake, then a save) and as a batch request. Each
/// run gets a fresh store, filled before it starts when the way changes or deletes.
public struct Workload: Sendable {
    /// `insert`, `update` or `delete`.
    public let operation: String
    /// How: `context save` or the batch request's class.
    public let way: String
    /// Whether the store starts with the quakes (for an update or delete).
    let needsQuakes: Bool
    /// The work, on a background context of a container on a fresh store; returns how many
    /// managed objects it made (inserted or fetched), which a batch request leaves at none.
    let body: @Sendable (NSManagedObjectContext) throws -> Int

    /// How many quakes each way works on.
    public static let size = 1_000

    /// What one run did: the managed objects its context made, the SQL statements the store ran,
    /// and the notifications the context posted.
    public struct Counts: Sendable, Equatable {
        /// Managed objects the work made in its context.
        public var objects = 0
        /// SQL statements run, each execution counted.
        public var statements = 0
        /// Did-save and objects-did-change notifications.
        public var notifications = 0
    }

    /// The six ways, in the chart's order.
    public static let all: [Workload] = [
        Workload(operation: "insert", way: "context save", needsQuakes: false) { context in
            let quakes = Feed.quakes(count: Workload.size).map { values in
                let quake = NSEntityDescription.insertNewObject(forEntityName: "Quake", into: context)
                for (key, value) in values { quake.setValue(value, forKey: key) }
                return quake
            }
            try context.save()
            return quakes.count
        },
        Workload(operation: "insert", way: "NSBatchInsertRequest", needsQuakes: false) { context in
            _ = try context.execute(
                NSBatchInsertRequest(entityName: "Quake", objects: Feed.quakes(count: Workload.size)))
            return context.registeredObjects.count
        },
        Workload(operation: "update", way: "fetch, change, save", needsQuakes: true) { context in
            let quakes = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Quake"))
            for quake in quakes { quake.setValue(true, forKey: "reviewed") }
            try context.save()
            return quakes.count
        },
        Workload(operation: "update", way: "NSBatchUpdateRequest", needsQuakes: true) { context in
            let request = NSBatchUpdateRequest(entityName: "Quake")
            request.propertiesToUpdate = ["reviewed": true]
            _ = try context.execute(request)
            return context.registeredObjects.count
        },
        Workload(operation: "delete", way: "fetch, delete, save", needsQuakes: true) { context in
            let quakes = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Quake"))
            for quake in quakes { context.delete(quake) }
            try context.save()
            return quakes.count
        },
        Workload(operation: "delete", way: "NSBatchDeleteRequest", needsQuakes: true) { context in
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Quake")
            _ = try context.execute(NSBatchDeleteRequest(fetchRequest: fetch))
            return context.registeredObjects.count
        },
    ]

    /// Runs the way once on a fresh store in `folder`, counting what it did; `clock` is
    /// called just before and just after the work, to time it.
    public func run(in folder: URL, clock: () -> Void = {}) throws -> Counts {
        let container = try Feed.makeContainer(in: folder)
        if needsQuakes {
            let filler = container.newBackgroundContext()
            try filler.performAndWait {
                _ = try filler.execute(
                    NSBatchInsertRequest(entityName: "Quake", objects: Feed.quakes(count: Self.size)))
            }
        }
        let statements = StatementCounter()
        container.persistentStoreCoordinator.sqlLog.includesTimings = false
        container.persistentStoreCoordinator.sqlLog.handler = { line in statements.count(line) }
        let context = container.newBackgroundContext()
        let notices = Notices(of: context)
        clock()
        let objects = try context.performAndWait { try body(context) }
        clock()
        return Counts(
            objects: objects,
            statements: statements.total, notifications: notices.total)
    }
}

/// Counts the statements of an SQL log.
private final class StatementCounter: @unchecked Sendable {
    // @unchecked Sendable: `value` is changed and read under `lock` only.
    private let lock = NSLock()
    private var value = 0

    func count(_ line: String) {
        guard line.hasPrefix("CoreData: sql: ") else { return }
        lock.lock()
        value += 1
        lock.unlock()
    }

    var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
