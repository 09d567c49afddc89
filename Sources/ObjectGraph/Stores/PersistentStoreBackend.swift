import Foundation

/// A saved object as a store holds it.
struct StoreRow {
    /// The object's entity.
    var entityName: String
    /// Its primary key (`Z_PK`).
    var primaryKey: Int64
    /// Its version (`Z_OPT`), raised by one at every save that changes it.
    var version: Int64
    /// Values by property index: attributes, then to-one relationships as `ManagedObjectID?`.
    /// To-many slots are nil: stores answer them through `relatedIDs`.
    var values: [AttributeValue]
}

/// The changes of one save, as a store applies them in one transaction.
struct StoreChanges {
    /// New rows (primary keys already allocated).
    var inserted: [StoreRow] = []
    /// Changed rows, each with the version it was read at; a different version in the store
    /// is a merge conflict.
    var updated: [(row: StoreRow, expectedVersion: Int64)] = []
    /// What changed in each row of ``updated``, at the same position: a context's save knows
    /// it (its objects' committed values), and the SQLite store then writes only those
    /// columns, as Core Data's UPDATE does. Shorter than ``updated`` (or nil at a position)
    /// where the path that built the changes does not know: the row is written whole. Those
    /// paths are the atomic stores' batch requests (AtomicStore+BatchRequests, which replace
    /// whole rows in memory anyway) and an updated object without committed values (none in
    /// practice: every change records them). A save after a merge policy resolved a conflict
    /// knows it (the committed values are then the store's row); a row saved again after
    /// another context deleted it is an insert; a child context's save changes its parent's
    /// objects, whose own save then knows it.
    var updatedProperties: [UpdatedProperties?] = []
    /// Deleted rows, with the version they were read at.
    var deleted: [(id: ManagedObjectID, expectedVersion: Int64)] = []
    /// Many-to-many links to add and remove: (owner side "Entity.relationship", source, destination).
    var linksAdded: [(relationship: String, source: ManagedObjectID, destination: ManagedObjectID)] = []
    var linksRemoved: [(relationship: String, source: ManagedObjectID, destination: ManagedObjectID)] = []
    /// The order of ordered to-many relationships that changed ("Entity.relationship" of the
    /// declaring entity, the source object, its destinations in order), applied after the rows
    /// and links: the SQLite store writes it to the `Z_FOK_` columns.
    var orderings: [(relationship: String, source: ManagedObjectID, order: [ManagedObjectID])] = []

    var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && linksAdded.isEmpty && linksRemoved.isEmpty
            && orderings.isEmpty
    }

    /// What changed in the row at `position` of ``updated``, or nil when it is not known.
    func properties(ofUpdate position: Int) -> UpdatedProperties? {
        position < updatedProperties.count ? updatedProperties[position] : nil
    }
}

/// What a save changed in one row: the properties whose values differ from the ones the row
/// was read with, and those values.
struct UpdatedProperties {
    /// The changed properties, by property index (attributes, then relationships).
    var changed: PropertyIndexSet
    /// The values the row was read (or last saved) with, by property index: persistent
    /// history compares them with the new ones, as SQLite stores both, instead of reading the
    /// stored row again.
    var committed: [AttributeValue]
}

/// A set of property indexes, without a heap allocation for the first 64 properties: a save
/// builds one per changed row, and the SQLite store caches an UPDATE per set.
struct PropertyIndexSet: Hashable {
    /// Indexes below 64, one bit each.
    private var low: UInt64 = 0
    /// Indexes of 64 and above, ascending when inserted in ascending order (as saves do).
    private var high: [Int] = []

    init() {}

    /// Adds an index.
    mutating func insert(_ index: Int) {
        if index < 64 { low |= 1 << UInt64(index) } else if !high.contains(index) { high.append(index) }
    }

    /// Whether the set holds an index.
    @inline(__always)
    func contains(_ index: Int) -> Bool {
        index < 64 ? low & (1 << UInt64(index)) != 0 : high.contains(index)
    }

    /// Whether the set holds no index.
    var isEmpty: Bool { low == 0 && high.isEmpty }
}

/// What a context asks of a store. The SQLite store answers in SQL; atomic stores in memory.
protocol PersistentStoreBackend: AnyObject {
    /// The store's UUID.
    var identifier: String { get }
    /// Rows of the request's entity (and sub-entities) that match, sorted and windowed.
    func fetchRows(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [StoreRow]
    /// The IDs of the rows that match, sorted and windowed, without their values.
    func fetchIDs(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [ManagedObjectID]
    /// Dictionary results: properties, expressions, groups (NSDictionaryResultType). They
    /// reflect the store only, never a context's unsaved changes, as Apple documents.
    func fetchDictionaries(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> [[String: Any]]
    /// How many rows match.
    func count(_ request: AnyFetchRequest, model: ManagedObjectModel) throws -> Int
    /// The row of one object, or nil if it is not in the store.
    func row(for id: ManagedObjectID, model: ManagedObjectModel) throws -> StoreRow?
    /// The rows of several objects in one query (faults of a batch, prefetched destinations).
    func rows(for ids: [ManagedObjectID], model: ManagedObjectModel) throws -> [StoreRow]
    /// The IDs at the other end of a to-many relationship for several objects in one query.
    func relatedIDs(of ids: [ManagedObjectID], relationship: RelationshipDescription, model: ManagedObjectModel) throws
        -> [ManagedObjectID: Set<ManagedObjectID>]
    /// The IDs at the other end of a to-many relationship.
    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription, model: ManagedObjectModel) throws
        -> Set<ManagedObjectID>
    /// The IDs at the other end of an ordered to-many relationship, in its order.
    func orderedRelatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription, model: ManagedObjectModel)
        throws -> [ManagedObjectID]
    /// New primary keys for an entity's table.
    func allocatePrimaryKeys(for entity: EntityDescription, count: Int, model: ManagedObjectModel) throws -> [Int64]
    /// Applies one save atomically.
    func save(_ changes: StoreChanges, model: ManagedObjectModel) throws
    /// The store's metadata.
    var metadata: [String: Any] { get }
    /// Whether fetches are evaluated in memory against the context's objects (atomic stores)
    /// rather than by the store (SQLite).
    var evaluatesInMemory: Bool { get }
    /// Every row and many-to-many link, for moving the store to another type.
    func exportContents() throws -> AtomicContents
    /// Fills a new, empty store with exported contents, keeping every key.
    func importContents(_ contents: AtomicContents) throws
    /// Up to `limit` rows matching the request's entity and predicate whose keys are greater
    /// than `afterPrimaryKey`, in key order: one batch of a streaming read (a migration's).
    func fetchRows(_ request: AnyFetchRequest, afterPrimaryKey: Int64, limit: Int, model: ManagedObjectModel) throws
        -> [StoreRow]
    /// Closes the store's file, so it can be moved or replaced.
    func close() throws
    /// Keeps metadata to write with the next save (setMetadata(_:for:)): the keys given,
    /// with the store's type and version keys and its UUID kept as they are.
    func setMetadata(_ metadata: [String: Any]) throws
    /// Starts posting ``PersistentStoreCoordinator/storeRemoteChangeNotification`` for
    /// `coordinator` when the description asks for it (``StoreOption/remoteChangeNotificationPost``);
    /// the coordinator calls it once it has added the store. Stores that cannot see other
    /// writers (atomic ones) post nothing.
    func startPostingRemoteChanges(
        coordinator: PersistentStoreCoordinator, store: PersistentStore,
        description: PersistentStoreDescription) throws
    /// A snapshot of the store's data as it is now, which reads use while a context pinned to
    /// a query generation reads; nil for a store that keeps no generations (the default).
    func openGenerationSnapshot() throws -> (any StoreGenerationSnapshot)?
    /// Why the store cannot keep query generations although its kind can, or nil (the default).
    var queryGenerationRefusal: String? { get }
    /// Whether the store reads a key range in one query (PersistentStoreBackend+MigrationAbilities.swift).
    var readsKeyRanges: Bool { get }
    /// Stops or resumes waiting for the disk at each commit (PersistentStoreBackend+MigrationAbilities.swift).
    func deferDurability(_ deferring: Bool) throws
    /// The keys of an entity's rows that may fail validation, or nil when the store cannot
    /// tell (PersistentStoreBackend+MigrationAbilities.swift).
    func keysFailingSimpleValidation(of entity: EntityDescription) throws -> [Int64]?
    /// Writes a batch insert's rows in one transaction (NSBatchInsertRequest), uniqueness
    /// constraints resolved by `mergePolicy` (``BatchInsertConstraints``); returns the IDs of
    /// the objects inserted or updated, in the rows' order. A store that keeps persistent
    /// history records the request as one transaction made by `transaction`, as Apple does.
    func batchInsert(
        _ rows: [BatchInsertRow], entity: EntityDescription, mergePolicy: MergePolicyType, model: ManagedObjectModel,
        transaction: HistoryTransactionInfo
    ) throws -> [ManagedObjectID]
    /// Applies a batch update to the matching rows in one transaction, raising their versions
    /// (NSBatchUpdateRequest); the IDs only when `wantsIDs`.
    func batchUpdate(
        _ request: BatchUpdateRequest, changes: BatchUpdateChanges, wantsIDs: Bool, model: ManagedObjectModel,
        transaction: HistoryTransactionInfo
    ) throws -> BatchOutcome
    /// Deletes the targets and what their delete rules reach, in one transaction
    /// (NSBatchDeleteRequest, ``BatchDeletePlan``); the IDs only when `wantsIDs`.
    func batchDelete(
        _ targets: BatchDeleteTargets, wantsIDs: Bool, model: ManagedObjectModel, transaction: HistoryTransactionInfo
    ) throws -> BatchOutcome
}

extension PersistentStoreBackend {
    var evaluatesInMemory: Bool { false }

    /// Stores that keep no order (the atomic ones, for now) give the destinations in key order.
    func orderedRelatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription, model: ManagedObjectModel)
        throws -> [ManagedObjectID]
    {
        try relatedIDs(of: id, relationship: relationship, model: model).sorted { $0.primaryKey < $1.primaryKey }
    }

    func fetchRows(_ request: AnyFetchRequest, afterPrimaryKey: Int64, limit: Int, model: ManagedObjectModel) throws
        -> [StoreRow]
    {
        let copy = request.copy()
        copy.sortDescriptors = []
        copy.fetchLimit = 0
        copy.fetchOffset = 0
        var rows = try fetchRows(copy, model: model).filter { $0.primaryKey > afterPrimaryKey }
        rows.sort { $0.primaryKey < $1.primaryKey }
        return Array(rows.prefix(limit))
    }

    func close() throws {}

    func startPostingRemoteChanges(
        coordinator: PersistentStoreCoordinator, store: PersistentStore,
        description: PersistentStoreDescription
    ) throws {}

    func setMetadata(_ metadata: [String: Any]) throws {
        throw CoreDataError(
            .persistentStoreUnsupportedRequestType, "This kind of store keeps no metadata of an application's own")
    }
}

extension PersistentStoreDescription {
    /// Whether the store is to post remote change notifications
    /// (NSPersistentStoreRemoteChangeNotificationPostOptionKey, a Boolean or an NSNumber).
    var postsRemoteChanges: Bool {
        guard let wanted = options[StoreOption.remoteChangeNotificationPost] else { return false }
        return (wanted as? Bool) ?? ((wanted as? NSNumber)?.boolValue ?? false)
    }
}

/// Stores keep no query generations unless they say so: a pinned context reads them as they
/// are now (only Apple's SQLite store keeps generations, and ours).
extension PersistentStoreBackend {
    func openGenerationSnapshot() throws -> (any StoreGenerationSnapshot)? { nil }
    var queryGenerationRefusal: String? { nil }
}
