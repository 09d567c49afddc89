// conflicts-3: Read the conflict
//
// From a failed save's 133020 error, return the version of the book the context read, the
// version the store holds, and the number of copies the store holds.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// conflicts-3. objectSnapshot is what the context read; persistedSnapshot is the store's row.
func whatTheStoreHolds(after error: NSError) throws -> (read: Int, stored: Int, copies: Int) {
    let conflicts = error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict] ?? []
    guard let conflict = conflicts.first else { return (0, 0, 0) }
    let copies = conflict.persistedSnapshot?["copies"] as? Int ?? 0
    return (conflict.oldVersionNumber, conflict.newVersionNumber, copies)
}
