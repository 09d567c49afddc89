import Foundation

/// A scratch pad of managed objects: NSManagedObjectContext.
///
/// ```swift
/// let context = ManagedObjectContext(coordinator: coordinator)
/// let book = try context.insertNewObject(forEntityName: "Book")
/// try book.checkedSetValue("Fetch, Clarus, Fetch", forKey: "title")
/// try context.save()
/// ```
///
/// A context holds one instance per object ID. Changes stay in the context until `save()`
/// commits them to its parent store in one step: the coordinator's stores, in one transaction,
/// or for a child context (``init(concurrencyType:parent:)``) its parent context, which saves
/// them on. A context and its objects are used from one thread or task at a time, as Core
/// Data's confinement rule says: a `.privateQueue` or `.mainQueue` context only inside its
/// `perform`/`performAndWait` blocks (checked in debug builds), a context made with
/// ``init(coordinator:)`` wherever its caller keeps it to one thread at a time. Several
/// contexts on one coordinator save one at a time; conflicts between them are resolved by
/// ``mergePolicy``. See <doc:NestedContextsAndConcurrency>.
///
/// The context's jobs live in one file each: objects and faults (`+Objects`), values and
/// relationships (`+Relationships`), deleting (`+Deleting`), change tracking (`+Changes`),
/// fetching (`+Fetching`), saving (`+Saving`, `+StoreSave`, `+ChildSave`, `+PermanentIDs`),
/// merging (`+Merging`, `+Refreshing`, `+ConflictResolution`, `+ChangeNotifications`), query
/// generations (`+QueryGenerations`), the parent store (ParentStore and its two conformances)
/// and concurrency (ContextQueue, ConfinementWatchdog).
public final class ManagedObjectContext: @unchecked Sendable {
    // @unchecked Sendable: a context crosses threads only to be used on its own queue. Its
    // mutable state is touched by one thread at a time because every use runs on the context's
    // queue (`perform`, `performAndWait`; checked in debug builds for queue contexts by
    // ConfinementWatchdog) or, for a context made with init(coordinator:), on the one thread
    // its caller confines it to, as Core Data's confinement contexts are. The few properties
    // other contexts read (`concurrencyType`, `parent`, `parentStore`, the coordinator, the
    // queue) are constants.

    /// The coordinator whose stores the context reads and writes; for a child context, its
    /// parent's (persistentStoreCoordinator).
    ///
    /// Apple's stacks set it (or ``parent``) after `init(concurrencyType:)`, before the context
    /// is first used; so may this one. It is implicitly unwrapped: nil only until it is set,
    /// and Apple's code reads it either way (`context.persistentStoreCoordinator?.…` or `!`).
    /// Setting it on a context that has a parent, or to another coordinator once set, stops
    /// the program, as Apple's raises.
    public var persistentStoreCoordinator: PersistentStoreCoordinator! {
        get { coordinatorStorage }
        set { connect(coordinator: newValue, parent: nil) }
    }
    /// The context this one saves into, or nil when its parent store is the coordinator
    /// (parent). Set it after `init(concurrencyType:)`, before first use, as Apple's stacks do.
    public var parent: ManagedObjectContext? {
        get { parentStorage }
        set { connect(coordinator: newValue?.persistentStoreCoordinator, parent: newValue) }
    }
    private var coordinatorStorage: PersistentStoreCoordinator?
    private var parentStorage: ManagedObjectContext?
    private var parentStoreStorage: (any ParentStore)?
    /// Where fetches, faults and saves go: the parent context, or the coordinator. A context
    /// used before either is set stops the program, as Apple's raises.
    var parentStore: any ParentStore {
        if let parentStoreStorage { return parentStoreStorage }
        Self.raiseNoParentStore(self)
    }
    /// How the context is confined to a queue (concurrencyType).
    public let concurrencyType: ConcurrencyType
    /// A name for messages and debugging (name).
    public var name: String?
    /// Who the context's saves are by, recorded in persistent history (transactionAuthor).
    public var transactionAuthor: String?
    var model: ManagedObjectModel { coordinator.managedObjectModel }
    /// The coordinator, for the context's own work: the program stops if none is set.
    var coordinator: PersistentStoreCoordinator {
        if let coordinatorStorage { return coordinatorStorage }
        Self.raiseNoParentStore(self)
    }

    // The identity map and change lists are read for every object fetched and every value set.
    var registered: [ManagedObjectID: ManagedObject] = [:]
    /// Objects in the order they were inserted, updated or deleted, for stable saves.
    var insertedList = ObjectList.inserted()
    var updatedList = ObjectList.updated()
    var deletedList = ObjectList.deleted()
    /// The current event's changes and the undo manager (ContextEvents, +Events).
    var events = ContextEvents()
    /// What inserting an object of the last entity inserted needs, so that inserting many
    /// objects of one entity looks it up once (see ``InsertTemplate``).
    var insertTemplate: InsertTemplate?
    /// The template `init(context:)` used last, with the class it was for: finding a class's
    /// entity in the model compares every entity's class, once per run of inserts of one class.
    var classInsertTemplate: (managedObjectClass: ObjectIdentifier, template: InsertTemplate)?
    /// Temporary IDs of objects that have a permanent one now (after a save or
    /// `obtainPermanentIDs(for:)`), so that a temporary ID kept elsewhere still finds them.
    var temporaryIDs: [ManagedObjectID: ManagedObjectID] = [:]
    /// For objects fetched with a batch size: the batch each belongs to, loaded together when
    /// any of them is first used.
    var pendingBatches: [ManagedObjectID: [ManagedObjectID]] = [:]
    static let temporaryCounter = AtomicCounter()
    /// How the context departs from an ordinary one as a migration's destination, or nil:
    /// one value the migration sets, which saves and relationship setters read.
    var migrationRole: MigrationDestinationRole?
    /// Whether `save()` validates first: a migration's destination validates only in its
    /// third pass, as Core Data disables validation while it migrates.
    var validatesOnSave: Bool { migrationRole?.validatesOnSave ?? true }
    /// Whether setting a to-one relationship also adds the object to the destination's
    /// to-many inverse set. A migration's destination does not: the link is stored on the
    /// to-one side only, and loading the inverse sets would grow with the store.
    var updatesToManyInverses: Bool { migrationRole == nil }
    /// Whether the context is reset right after each save and no one observes it (a
    /// migration's destination saving a batch): a save then only gives the inserted objects
    /// their permanent IDs, without re-registering them or posting the did-save notification.
    var isResetAfterEachSave: Bool { migrationRole?.resetsAfterEachSave ?? false }
    /// The serial queue `perform` and `performAndWait` run blocks on.
    let contextQueue: ContextQueue
    /// How a save resolves conflicts with changes another context saved first; `.error` (the
    /// default) makes such a save fail with error 133020. See ``MergePolicy``.
    public var mergePolicy: MergePolicy = .error
    /// The query generation the context reads (+QueryGenerations); locked, since a child
    /// context's reads, on the child's queue, ask for its root's.
    let queryGenerationState = Lock(QueryGenerationState.unpinned)
    /// The observer of the parent's saves while ``automaticallyMergesChangesFromParent`` is on.
    var parentSaveObserver: NSObjectProtocol?
    /// Told instead of stopping the program when a queue context is used off its queue (debug
    /// builds); tests set it to see the check fire without a crash.
    var confinementViolationHandler: (@Sendable (String) -> Void)?

    /// A context on a coordinator, confined by its caller (Core Data's confinement type): use
    /// it from one thread at a time; `perform` and `performAndWait` run blocks on a queue of its
    /// own.
    public convenience init(coordinator: PersistentStoreCoordinator) {
        self.init(concurrencyType: .confinement, coordinator: coordinator)
    }

    /// A context of a concurrency type whose parent store is a coordinator
    /// (init(concurrencyType:) and persistentStoreCoordinator).
    ///
    /// ```swift
    /// let background = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    /// try background.performAndWait { try background.save() }
    /// ```
    public convenience init(concurrencyType: ConcurrencyType, coordinator: PersistentStoreCoordinator) {
        self.init(concurrencyType: concurrencyType)
        connect(coordinator: coordinator, parent: nil)
    }

    /// A child context: its fetches see the parent's unsaved changes, and its `save()` pushes
    /// its changes into the parent, not the store (init(concurrencyType:) and parent).
    ///
    /// ```swift
    /// let editor = ManagedObjectContext(concurrencyType: .privateQueue, parent: container.viewContext)
    /// try editor.performAndWait {
    ///     editor.insertNewObject(forEntityName: "Book").setValue("Draft", forKey: "title")
    ///     try editor.save()                    // now in viewContext, unsaved there
    /// }
    /// ```
    public convenience init(concurrencyType: ConcurrencyType, parent: ManagedObjectContext) {
        self.init(concurrencyType: concurrencyType)
        connect(coordinator: parent.persistentStoreCoordinator, parent: parent)
    }

    /// A context with no parent store yet (init(concurrencyType:)): set
    /// ``persistentStoreCoordinator`` or ``parent`` before using it, as Apple's stacks do.
    ///
    /// ```swift
    /// let context = ManagedObjectContext(concurrencyType: .mainQueue)
    /// context.persistentStoreCoordinator = coordinator
    /// ```
    public init(concurrencyType: ConcurrencyType) {
        self.concurrencyType = concurrencyType
        self.contextQueue = ContextQueue(concurrencyType)
    }

    /// Gives the context its parent store: a coordinator, or a parent context and its coordinator.
    ///
    /// Apple's NSManagedObjectContext raises when a context that has one is given another; the
    /// same assignment again is allowed.
    private func connect(coordinator: PersistentStoreCoordinator?, parent: ManagedObjectContext?) {
        guard let coordinator else {
            Self.raise(
                parent == nil
                    ? "a context's persistentStoreCoordinator and parent cannot be set to nil"
                    : "\(parent!.displayName) has no persistent store coordinator yet: give it one before its children")
        }
        if coordinatorStorage == nil {
            coordinatorStorage = coordinator
            parentStorage = parent
            parentStoreStorage = parent ?? coordinator
            return
        }
        guard coordinatorStorage === coordinator, parentStorage === parent else {
            Self.raise(
                "\(displayName) already has a \(parentStorage == nil ? "coordinator" : "parent context"); "
                    + "set persistentStoreCoordinator or parent once, before the context is used")
        }
    }

    /// Stops the program for a context used before it has a parent store.
    static func raiseNoParentStore(_ context: ManagedObjectContext) -> Never {
        raise(
            "\(context.displayName) has no persistent store coordinator and no parent: "
                + "set persistentStoreCoordinator or parent before using it")
    }

    /// Ends the program with NSInternalInconsistencyException's message, where Apple raises.
    static func raise(_ message: String) -> Never {
        fatalError("NSInternalInconsistencyException: \(message)")
    }

    deinit {
        if let parentSaveObserver { NotificationCenter.default.removeObserver(parentSaveObserver) }
    }

    /// The context as messages name it: its name, or its concurrency type.
    var displayName: String { name.map { "the context \"\($0)\"" } ?? "a \(concurrencyType) context" }
}
