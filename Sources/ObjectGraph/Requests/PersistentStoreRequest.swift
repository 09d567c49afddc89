import Foundation

/// A request a context hands to its persistent stores whole, without loading objects
/// (NSPersistentStoreRequest): the batch requests and the persistent history change request.
///
/// ```swift
/// let result = try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Item")))
/// ```
public protocol PersistentStoreRequest {
    /// Runs the request on behalf of a context, on that context's queue; contexts call this
    /// from ``ManagedObjectContext/execute(_:)->PersistentStoreResult``.
    func execute(in context: ManagedObjectContext) throws -> any PersistentStoreResult
}

/// What a ``PersistentStoreRequest`` returns (NSPersistentStoreResult); each request's
/// result type says what ``result`` holds.
public protocol PersistentStoreResult {
    /// The result in the form the request asked for (result), or nil when it asked for none.
    var result: Any? { get }
}

extension ManagedObjectContext {
    /// Runs a request against the context's persistent stores (execute(_:)): a batch insert,
    /// update or delete, or a persistent history change request.
    ///
    /// The request works on the stores directly: objects the context holds are not changed,
    /// and a batch request's object IDs merge into live contexts through
    /// ``mergeChanges(fromRemoteContextSave:into:)``.
    public func execute(_ request: any PersistentStoreRequest) throws -> any PersistentStoreResult {
        checkConfinement()
        return try request.execute(in: self)
    }
}
