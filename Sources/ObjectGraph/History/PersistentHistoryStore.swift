import Foundation

/// Who made a transaction: what a save records beside its changes.
struct HistoryTransactionInfo: Sendable {
    /// The saving context's ``ManagedObjectContext/transactionAuthor``.
    var author: String?
    /// The saving context's ``ManagedObjectContext/name``.
    var contextName: String?
    /// The application, as Core Data records it: the bundle identifier, or on Linux (where a
    /// command-line program has none) the process name.
    var bundleID: String? = HistoryTransactionInfo.processBundleID
    /// The process, by name: Core Data's own stores hold the name here (`xctest`).
    var processID: String? = HistoryTransactionInfo.processName

    static let processName = ProcessInfo.processInfo.processName

    static let processBundleID = Bundle.main.bundleIdentifier ?? processName
}

extension HistoryTransactionInfo {
    /// The transaction a context's save or batch request makes: its author and name (an
    /// extension, so that the memberwise initializer stays).
    init(by context: ManagedObjectContext) {
        self.init(author: context.transactionAuthor, contextName: context.name)
    }
}

/// A store that keeps persistent history (the SQLite store): what the history request and
/// the coordinator's current token ask of it.
protocol PersistentHistoryStore: AnyObject {
    /// The store's UUID.
    var identifier: String { get }
    /// Whether saves record history (NSPersistentHistoryTrackingKey was given).
    var tracksHistory: Bool { get }
    /// Saves like ``PersistentStoreBackend/save(_:model:)``, recording the changes as one
    /// transaction made by `transaction` when the store tracks history.
    func save(_ changes: StoreChanges, model: ManagedObjectModel, transaction: HistoryTransactionInfo) throws
    /// The transactions a fetch request's boundary selects, oldest first.
    func fetchHistory(_ boundary: PersistentHistoryChangeRequest.Boundary, withChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    /// Deletes the transactions a delete request's boundary selects; returns them (with their
    /// changes when asked).
    func deleteHistory(_ boundary: PersistentHistoryChangeRequest.Boundary, withChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    /// The number of the last transaction, or nil when the store has no history.
    func lastTransactionNumber() throws -> Int64?
}

extension PersistentStoreBackend {
    /// Saves a context's changes, recording them in persistent history with the context's
    /// author and name when the store tracks history. A store that does not costs one cast and
    /// one flag test per save, nothing per object.
    func save(_ changes: StoreChanges, model: ManagedObjectModel, by context: ManagedObjectContext) throws {
        if let store = self as? PersistentHistoryStore, store.tracksHistory {
            try store.save(changes, model: model, transaction: HistoryTransactionInfo(by: context))
        } else {
            try save(changes, model: model)
        }
    }
}
