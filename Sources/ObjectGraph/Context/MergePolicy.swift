import Foundation

/// The kinds of merge policy, with the raw values of NSMergePolicyType.
public enum MergePolicyType: Int, Hashable, Sendable, CustomStringConvertible {
    /// The default: a save with conflicts fails with error 133020 (NSErrorMergePolicyType).
    case error = 0
    /// Merge by property; where both sides changed a property, the store's value wins
    /// (NSMergeByPropertyStoreTrumpMergePolicyType).
    case mergeByPropertyStoreTrump = 1
    /// Merge by property; where both sides changed a property, the context's value wins
    /// (NSMergeByPropertyObjectTrumpMergePolicyType).
    case mergeByPropertyObjectTrump = 2
    /// The whole in-memory object is written over the store's (NSOverwriteMergePolicyType).
    case overwrite = 3
    /// The context's changes to the conflicting objects are discarded (NSRollbackMergePolicyType).
    case rollback = 4

    /// The policy's name as Apple's Swift API spells it.
    public var description: String {
        switch self {
        case .error: return "error"
        case .mergeByPropertyStoreTrump: return "mergeByPropertyStoreTrump"
        case .mergeByPropertyObjectTrump: return "mergeByPropertyObjectTrump"
        case .overwrite: return "overwrite"
        case .rollback: return "rollback"
        }
    }
}

/// How a context resolves the conflicts optimistic locking finds when it saves: NSMergePolicy.
///
/// A conflict is an object this context changed or deleted that another context (or another
/// coordinator) saved in the meantime: its row version (`Z_OPT`) in the store is no longer the
/// one the context read. What each policy does, following Apple's NSMergePolicy pages:
///
/// | policy | object changed here, changed in the store | changed here, deleted in the store | deleted here, changed in
/// the store |
/// |---|---|---|---|
/// | `.error` (default) | save fails, error 133020 | save fails | save fails |
/// | `.mergeByPropertyObjectTrump` | each side's changes kept; where both changed a property, this context's value |
/// the object is saved again, whole, with its key | the deletion goes ahead |
/// | `.mergeByPropertyStoreTrump` | each side's changes kept; where both changed a property, the store's value | the
/// deletion stands; the object leaves this context | the deletion is dropped; the object takes the store's values |
/// | `.overwrite` | this context's object is written whole | the object is saved again, whole | the deletion goes ahead
/// |
/// | `.rollback` | this context's changes to the object are dropped; it takes the store's values | the object leaves
/// this context | the deletion is dropped; the object takes the store's values |
///
/// Apple's pages describe the policies for changed objects; the columns about deletions are
/// this module's reading of them (Apple's NSMergeConflict reports a deleted row as
/// `newVersionNumber` 0). Only the conflicting objects are touched; the rest of the save
/// goes through as it is. To-many relationships are merged as changes (links added and
/// removed on each side), never as whole sets, as Core Data's snapshots leave them out.
///
/// Subclass and override ``resolve(optimisticLockingConflicts:)`` to resolve conflicts
/// yourself, as with NSMergePolicy.
open class MergePolicy: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: an open class cannot be checked, and its one property is a
    // constant; it resolves conflicts inside the saving context's own save. A subclass that
    // keeps state of its own must make that state safe to share.
    /// The kind of policy (mergeType).
    public let mergeType: MergePolicyType

    /// A policy of a given type (initWithMergeType:).
    public init(merge type: MergePolicyType) {
        self.mergeType = type
    }

    /// The default policy: conflicts fail the save with error 133020 (NSErrorMergePolicy).
    public static let error = MergePolicy(merge: .error)
    /// Property by property, the store's changes winning where both sides changed a property.
    public static let mergeByPropertyStoreTrump = MergePolicy(merge: .mergeByPropertyStoreTrump)
    /// Property by property, the context's changes winning where both sides changed a property.
    public static let mergeByPropertyObjectTrump = MergePolicy(merge: .mergeByPropertyObjectTrump)
    /// The in-memory object is saved whole over the store's (NSOverwriteMergePolicy).
    public static let overwrite = MergePolicy(merge: .overwrite)
    /// The context's changes to conflicting objects are discarded (NSRollbackMergePolicy).
    public static let rollback = MergePolicy(merge: .rollback)

    /// The policy's type name.
    public var description: String { "MergePolicy(\(mergeType))" }

    /// Resolves the conflicts of one save (resolveOptimisticLockingVersionConflicts:error:).
    /// The save is retried afterwards; throw to make it fail. The `.error` policy throws
    /// error 133020 naming each object and property in conflict.
    open func resolve(optimisticLockingConflicts list: [MergeConflict]) throws {
        guard mergeType != .error else { throw MergeConflict.error(for: list) }
        for conflict in list {
            try conflict.sourceObject.managedObjectContext?.resolve(conflict, type: mergeType)
        }
    }

    /// Resolves the uniqueness-constraint conflicts of one save (resolveConstraintConflicts:error:),
    /// before the store is written; throw to make the save fail. The `.error` policy throws
    /// error 133021 (NSManagedObjectConstraintMergeError) listing each conflict. The others
    /// collapse the conflicting objects into one; with a stored row it takes the row's identity
    /// (an upsert): the two merge policies merge values by property (object trump: the
    /// in-memory values win; store trump: the stored ones), overwrite saves the in-memory object
    /// whole, rollback keeps the stored row and discards the in-memory changes. What pointed at
    /// a discarded object points at the one that stays; objects of different sub-entities
    /// cannot become one, and the merging policies fail with 133021 naming both.
    open func resolve(constraintConflicts list: [ConstraintConflict]) throws {
        guard mergeType != .error else { throw ConstraintConflict.error(for: list) }
        for conflict in list {
            try conflict.conflictingObjects.first?.managedObjectContext?.resolve(conflict, type: mergeType)
        }
    }
}
