import Foundation

/// What changed in a context during the current event: the objects inserted, updated and
/// deleted since the last ``ManagedObjectContext/processPendingChanges()``, the values each
/// updated object had when the event began, and the context's undo manager.
///
/// Recording a change costs a bit test on the object (the lists are ``ObjectList``s with bits
/// of their own in `listMembership`), and, the first time in an event, appending the object:
/// an idle context (no observer, no undo manager) does no more than that per change.
struct ContextEvents {
    /// The bits of the event lists in `ManagedObject.listMembership`.
    static let insertedBit: UInt8 = 8
    static let updatedBit: UInt8 = 16
    static let deletedBit: UInt8 = 32
    /// An object with either bit needs no recording when it changes again in the same event:
    /// an object inserted in this event has no earlier values to keep.
    static let recordedBits: UInt8 = insertedBit | updatedBit

    /// Objects inserted (or brought back by undo) in this event.
    var inserted = ObjectList.eventInserted()
    /// Objects changed in this event.
    var updated = ObjectList.eventUpdated()
    /// Objects deleted (or removed by undo) in this event.
    var deleted = ObjectList.eventDeleted()
    /// Objects refreshed in this event (refresh(_:mergeChanges:)).
    var refreshed: [ManagedObject] = []
    /// The values of updated objects when the event began, for those whose committed values
    /// are not the same thing (objects changed in an earlier event too, or inserted in one).
    var snapshots: [ObjectIdentifier: ValueSnapshot] = [:]
    /// The undo manager the context registers each event's changes with (undoManager).
    var undoManager: UndoManager?
    /// Whether processPendingChanges is running: an undo manager's checkpoint during it must
    /// not start it again.
    var isProcessing = false

    /// Whether anything was recorded in this event.
    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty }

    /// Forgets the event: after it was processed, saved, rolled back or reset.
    mutating func clear() {
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        refreshed = []
        if !snapshots.isEmpty { snapshots = [:] }
    }
}

/// An object's values and to-many orders at one moment.
struct ValueSnapshot {
    let storage: [AttributeValue]
    let orders: [Int: ToManyOrder]
}

/// One processed event: what undoing it restores (its objects' values before it) and
/// reverses (its inserts and deletes).
struct EventRecord {
    let inserted: [ManagedObject]
    let deleted: [ManagedObject]
    let updated: [(object: ManagedObject, before: ValueSnapshot)]
}
