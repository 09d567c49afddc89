import Foundation

/// What a context asks of its parent store: Core Data's "parent store", which is either the
/// persistent store coordinator or, for a child context, another context.
///
/// A context never asks which kind of parent it has, nor which kind of store is behind it: it
/// asks for objects, IDs, counts and values, and hands over its changes. The coordinator
/// answers from its stores (PersistentStoreCoordinator+ParentStore.swift), merging several
/// stores and evaluating in memory what an atomic store cannot; a parent context answers with
/// its own objects, unsaved changes included (ManagedObjectContext+ParentStore.swift).
///
/// Every method runs on the asking context's queue; a parent context moves to its own queue
/// (`performAndWait`) to answer. Objects the answer describes are registered in the asking
/// context, through its one function that turns rows into objects.
protocol ParentStore: AnyObject, Sendable {
    /// The objects a request describes as this parent store sees them, sorted and windowed,
    /// registered in `context`. `context`'s own unsaved changes are not applied here.
    func objects(for request: AnyFetchRequest, in context: ManagedObjectContext) throws -> [ManagedObject]
    /// The IDs of the objects a request describes, as ``objects(for:in:)`` would return them.
    func objectIDs(for request: AnyFetchRequest, in context: ManagedObjectContext) throws -> [ManagedObjectID]
    /// How many objects ``objects(for:in:)`` would return.
    func count(for request: AnyFetchRequest, in context: ManagedObjectContext) throws -> Int
    /// Dictionary results; they reflect the stores only (NSDictionaryResultType).
    func dictionaries(for request: AnyFetchRequest, in context: ManagedObjectContext) throws -> [[String: Any]]
    /// The values of one object, or nil when this parent store does not have it.
    func row(for id: ManagedObjectID, in context: ManagedObjectContext) throws -> StoreRow?
    /// The values of several objects, by ID; those it does not have are left out.
    func rows(for ids: [ManagedObjectID], in context: ManagedObjectContext) throws -> [ManagedObjectID: StoreRow]
    /// The IDs at the other end of a to-many relationship of one object.
    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription, in context: ManagedObjectContext)
        throws -> Set<ManagedObjectID>
    /// The IDs at the other end of an ordered to-many relationship of one object, in order.
    func orderedRelatedIDs(
        of id: ManagedObjectID, relationship: RelationshipDescription, in context: ManagedObjectContext
    ) throws -> [ManagedObjectID]
    /// The IDs at the other end of a to-many relationship of several objects.
    func relatedIDs(of ids: [ManagedObjectID], relationship: RelationshipDescription, in context: ManagedObjectContext)
        throws -> [ManagedObjectID: Set<ManagedObjectID>]
    /// Commits `context`'s unsaved changes; returns the did-save notification's user info
    /// (the object IDs inserted, updated and deleted).
    func save(changesOf context: ManagedObjectContext) throws -> [String: Set<ManagedObjectID>]
    /// Permanent IDs for new objects of these entities, one each, in order; `temporaryIDs`
    /// are their IDs now, which a parent context that holds them re-keys as well.
    func obtainPermanentIDs(for temporaryIDs: [ManagedObjectID], in context: ManagedObjectContext) throws
        -> [ManagedObjectID]
}
