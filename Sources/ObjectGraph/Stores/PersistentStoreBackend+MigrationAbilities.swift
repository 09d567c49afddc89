import Foundation

/// What a migration may ask of the stores it reads and writes beyond a context's fetches and
/// saves: abilities a store has or does without. The defaults are those of a store without
/// them (an atomic store, held whole in memory); SQL stores answer in SQL.
extension PersistentStoreBackend {
    /// Whether ``fetchRows(_:afterPrimaryKey:limit:model:)`` reads a key range in one query, so
    /// that a migration reads its batches' source rows by key range instead of as faults.
    var readsKeyRanges: Bool { false }

    /// Stops (or resumes) waiting for the disk at each commit: a migration's destination is a
    /// scratch store until it is complete, flushed once when it closes. Stores that write
    /// whole files do nothing.
    func deferDurability(_ deferring: Bool) throws {}

    /// The keys of an entity's rows (not its sub-entities') that may fail the model's
    /// validation, found by the store itself; nil when the store cannot tell, and every
    /// object has to be validated in memory.
    func keysFailingSimpleValidation(of entity: EntityDescription) throws -> [Int64]? { nil }
}
