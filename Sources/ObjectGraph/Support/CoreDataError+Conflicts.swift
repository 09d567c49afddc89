import Foundation

/// The conflicts a 133020 or 133021 error reports, as Apple's error carries them in its
/// userInfo under `conflictList` (NSPersistentStoreSaveConflictsErrorKey).
///
/// They are the saving context's objects, not values: two errors are equal whatever their
/// conflicts (as they were before the list was kept), and the list crosses queues as Apple's
/// NSError's userInfo does; read the conflicts' objects on their context's queue.
struct ConflictList: Hashable, @unchecked Sendable {
    /// ``MergeConflict``s or ``ConstraintConflict``s; empty for every other error.
    var list: [AnyObject] = []

    /// Always equal: the conflicts do not make two errors different.
    static func == (a: ConflictList, b: ConflictList) -> Bool { true }

    /// Adds nothing, as equality ignores the list.
    func hash(into hasher: inout Hasher) {}
}

extension CoreDataError {
    /// The user-info key of ``conflictList`` (NSPersistentStoreSaveConflictsErrorKey).
    public static let conflictListKey = "conflictList"

    /// The conflicts of a 133020 error (``MergeConflict``s, one per object) or of a 133021
    /// error (``ConstraintConflict``s, one per constraint and values); empty otherwise.
    public var conflictList: [AnyObject] { conflicts.list }

    /// This error with `list` as its ``conflictList``.
    func reporting(_ list: [AnyObject]) -> CoreDataError {
        var error = self
        error.conflicts = ConflictList(list: list)
        return error
    }
}
