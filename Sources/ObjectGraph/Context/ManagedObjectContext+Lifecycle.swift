import Foundation

/// Calling the objects' lifecycle hooks: willSave and didSave around a save, prepareForDeletion,
/// awakeFromFetch, willTurnIntoFault and didTurnIntoFault. See <doc:ObjectLifecycle>.
///
/// A plain ManagedObject overrides no hook, so the context skips the calls for it: a model
/// without subclasses (the benchmark's, most chapters') pays one class comparison per object.
extension ManagedObjectContext {
    /// How many rounds of willSave a save runs before giving up on objects that keep changing.
    ///
    /// Apple's willSave documentation warns that a willSave which changes a value every time is
    /// called again "until your program crashes"; Core Data stops with
    /// NSInternalInconsistencyException, "the context is still dirty after 100 attempts". Here
    /// the save throws ``CoreDataError`` with that exception name after 100 rounds, and
    /// nothing is written.
    public static let willSaveAttemptLimit = 100

    /// Whether an object's class can override a hook.
    @inline(__always)
    static func mayOverrideHooks(_ object: ManagedObject) -> Bool { type(of: object) != ManagedObject.self }

    /// The objects a save will write, whose willSave runs: inserted, changed and deleted, but not
    /// those inserted and deleted again before the save (they never reach the store).
    private func objectsToSave() -> [ManagedObject] {
        var objects: [ManagedObject] = []
        for object in insertedList where Self.mayOverrideHooks(object) && !deletedList.contains(object) {
            objects.append(object)
        }
        for object in updatedList
        where Self.mayOverrideHooks(object) && !deletedList.contains(object) && !insertedList.contains(object) {
            objects.append(object)
        }
        for object in deletedList where Self.mayOverrideHooks(object) && !insertedList.contains(object) {
            objects.append(object)
        }
        return objects
    }

    /// Runs willSave on each object a save will write, then again on each object that changed
    /// during the round (and on objects a willSave inserted, changed or deleted), until a round
    /// changes nothing: Core Data "will observe the resultant change notification and so invoke
    /// willSave again" (Apple's willSave). After ``willSaveAttemptLimit`` rounds the save fails.
    func runWillSave() throws {
        var objects = objectsToSave()
        var pending = objects
        for round in 1... {
            if pending.isEmpty { return }
            guard round <= Self.willSaveAttemptLimit else {
                let names = pending.prefix(3).map(\.objectID.uriString).joined(separator: ", ")
                throw CoreDataError(
                    exception: .internalInconsistency,
                    "Failed to process pending changes before save: \(displayName) is still dirty after \(Self.willSaveAttemptLimit) rounds of willSave (\(pending.count) object\(pending.count == 1 ? "" : "s") changed again, among them \(names)). A willSave that sets a value each time it runs never ends: compare with the current value first, as Apple's willSave documentation says",
                    objectURI: pending.first?.objectID.uriString)
            }
            // Setting a value replaces the object's storage array, which the snapshot shares:
            // an object whose buffer is no longer the snapshot's changed during the round.
            var snapshots: [ObjectIdentifier: [AttributeValue]] = [:]
            snapshots.reserveCapacity(objects.count)
            for object in objects { snapshots[ObjectIdentifier(object)] = object.storage }
            for object in pending where object.managedObjectContext === self { object.willSave() }
            objects = objectsToSave()
            // Next round: objects that changed, and objects a willSave brought into the save.
            pending = objects.filter { object in
                guard let snapshot = snapshots[ObjectIdentifier(object)] else { return true }
                return !Self.sameStorage(snapshot, object.storage)
            }
        }
    }

    /// Whether two storage arrays are one buffer (no value was set in between).
    private static func sameStorage(_ a: [AttributeValue], _ b: [AttributeValue]) -> Bool {
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in pa.baseAddress == pb.baseAddress && pa.count == pb.count }
        }
    }

    /// Runs didSave on each object a save wrote, after the store (or the parent context) has
    /// it; the sense of "save" is a database commit's, so deleted objects are told too.
    func runDidSave(_ groups: [ManagedObject]...) {
        for group in groups {
            for object in group where Self.mayOverrideHooks(object) { object.didSave() }
        }
    }

    /// Tells an object it is about to be deleted, before the delete rules change its
    /// relationships ("custom propagation before relationships are torn down", Apple's
    /// prepareForDeletion).
    @inline(__always)
    func runPrepareForDeletion(_ object: ManagedObject) {
        if Self.mayOverrideHooks(object) { object.prepareForDeletion() }
    }

    /// awakeFromFetch on an object just fulfilled from its store. Apple: "change processing is
    /// explicitly disabled around this method", so values it sets don't make the object changed.
    @inline(__always)
    func runAwakeFromFetch(_ object: ManagedObject) {
        guard Self.mayOverrideHooks(object) else { return }
        let wasUpdated = updatedList.contains(object)
        let wasInEvent = events.updated.contains(object)
        object.awakeFromFetch()
        if !wasUpdated && updatedList.contains(object) {
            // Its values as set are its committed ones: nothing to save, nothing to roll back.
            updatedList.remove(object)
            object.committedStorage = nil
        }
        if !wasInEvent && events.updated.contains(object) {
            // Nor anything to announce or undo.
            events.updated.remove(object)
            events.snapshots[ObjectIdentifier(object)] = nil
        }
    }

    /// Turns a loaded object into a fault with willTurnIntoFault before (its values still
    /// readable) and didTurnIntoFault after.
    func turnIntoFault(_ object: ManagedObject) {
        let hooks = Self.mayOverrideHooks(object) && !object.isFault
        if hooks { object.willTurnIntoFault() }
        object.isFault = true
        object.loadedToMany = []
        object.committedStorage = nil
        updatedList.remove(object)
        if hooks { object.didTurnIntoFault() }
    }
}
