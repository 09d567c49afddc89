/// How a migration's destination context saves, where it differs from an ordinary context:
/// set once by the migration (MigrationState) and changed between its passes.
struct MigrationDestinationRole {
    /// Whether a save validates the objects: off for the first two passes, on for the third,
    /// as Core Data validates a migration's objects in its third pass.
    var validatesOnSave = false
    /// Whether the context is reset right after each save: while a pass saves in batches.
    var resetsAfterEachSave = false
}
