import Foundation

/// A generation of the stores' data that a context reads: NSQueryGenerationToken.
///
/// A context pinned to a generation sees the stores as they were at one moment, whatever
/// other contexts and processes save afterwards, until it moves to a later generation (Apple's
/// "Accessing data when the store changes"). Pin a context with
/// ``ManagedObjectContext/setQueryGenerationFrom(_:)``:
///
/// ```swift
/// try viewContext.setQueryGenerationFrom(.current)   // pinned at its next read
/// let token = viewContext.queryGenerationToken        // the generation it reads
/// try other.setQueryGenerationFrom(token)             // the same generation
/// ```
///
/// Two tokens are equal when they name the same generation. A generation holds one SQLite
/// read transaction per store open for as long as a context or token uses it, as Core Data's
/// does: SQLite cannot checkpoint the write-ahead log past it, so the `-wal` file grows while
/// an old generation is kept.
public final class QueryGenerationToken: Hashable, Sendable, CustomStringConvertible {
    /// The token that pins a context to the generation current when it next reads from its
    /// stores (NSQueryGenerationToken.current).
    public static let current = QueryGenerationToken(generation: nil)

    /// The generation this token names; nil for ``current``.
    let generation: QueryGeneration?

    init(generation: QueryGeneration?) {
        self.generation = generation
    }

    /// Whether two tokens name the same generation.
    public static func == (lhs: QueryGenerationToken, rhs: QueryGenerationToken) -> Bool {
        lhs.generation === rhs.generation
    }

    /// Hashes the generation's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(generation.map(ObjectIdentifier.init))
    }

    /// `QueryGenerationToken(current)`, or the generation's number in this process.
    public var description: String {
        generation.map { "QueryGenerationToken(generation \($0.number))" } ?? "QueryGenerationToken(current)"
    }
}

/// The stores of one coordinator as they were at one moment: a snapshot of each store that
/// keeps generations (SQLite in WAL mode). Stores without generations are read as they are now.
final class QueryGeneration: Sendable {
    private static let counter = AtomicCounter()

    /// Numbers the generations of this process in the order they were taken, for descriptions.
    let number: Int
    /// The coordinator whose stores were snapshotted.
    let coordinator: ObjectIdentifier
    /// Each snapshot by its store's identifier.
    let snapshots: [String: any StoreGenerationSnapshot]

    /// Takes a snapshot of each of `coordinator`'s stores that keeps generations.
    init(of coordinator: PersistentStoreCoordinator) throws {
        var snapshots: [String: any StoreGenerationSnapshot] = [:]
        for store in coordinator.persistentStores {
            snapshots[store.identifier] = try store.backend.openGenerationSnapshot()
        }
        self.snapshots = snapshots
        self.coordinator = ObjectIdentifier(coordinator)
        number = Self.counter.next()
    }
}

/// One store's data as it was when a generation was taken; the store reads through it while a
/// pinned context reads (SQLiteGenerationSnapshot).
protocol StoreGenerationSnapshot: AnyObject, Sendable {}

/// The generation that store reads on the current thread use. A pinned context binds it around
/// each read it asks of the coordinator; a save suspends it, as "query generations are for
/// fetched data only; they are not used during saving" (NSManagedObjectContext.h).
enum QueryGenerationScope {
    /// The generation reads use, or nil for the stores' current data.
    @TaskLocal static var generation: QueryGeneration?
    /// Set while a save runs: its reads (conflict checks, constraint lookups) see the stores now.
    @TaskLocal static var isSuspended = false

    /// The snapshot of the store `identifier` that a read on this thread uses, or nil.
    static func snapshot(forStore identifier: String) -> (any StoreGenerationSnapshot)? {
        generation?.snapshots[identifier]
    }
}
