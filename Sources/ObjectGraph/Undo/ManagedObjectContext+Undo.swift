import Foundation

/// Undo: a context registers each event's changes with its undo manager, so that undo and
/// redo step through events.
extension ManagedObjectContext {
    /// The undo manager the context registers its changes with (undoManager); nil, the
    /// default as on Apple's platforms since macOS 10.12 and iOS, registers nothing.
    ///
    /// Each event (``processPendingChanges()``) registers one action that undoes the event's
    /// inserts, deletes, and attribute and relationship changes (both sides of a relationship,
    /// as they were changed together). With ``UndoManager/groupsByEvent`` that action is a group
    /// of its own; inside an open ``UndoManager/beginUndoGrouping()`` it joins that group.
    /// Saving does not clear the stack: undoing a saved change makes the objects changed again,
    /// as in Core Data. ``rollback()`` removes every action.
    public var undoManager: UndoManager? {
        get { events.undoManager }
        set {
            // Apple's own samples set a new background context's undo manager (to nil) right
            // after making it, outside perform: allowed while the context holds no objects.
            if !registered.isEmpty { checkConfinement() }
            events.undoManager?.removeCheckpointObserver(self)
            events.undoManager = newValue
            newValue?.addCheckpointObserver(self)
        }
    }

    /// Ends the current event and undoes the last group of changes (undo).
    public func undo() {
        checkConfinement()
        processPendingChanges()
        events.undoManager?.undo()
    }

    /// Ends the current event and redoes the group undone last (redo).
    public func redo() {
        checkConfinement()
        processPendingChanges()
        events.undoManager?.redo()
    }
}
