/// Where a migration is: what a progress bar shows.
///
/// The manager reports it to ``MigrationManager/progressHandler`` after each batch and at the end
/// of each step.
public struct MigrationProgress: Sendable, Equatable {
    /// The fraction done, from 0 to 1 (NSMigrationManager.migrationProgress).
    public var fractionCompleted: Float
    /// The pass: 1 creates instances, 2 creates relationships, 3 validates.
    public var pass: Int
    /// The entity mapping being processed (currentEntityMapping), if any.
    public var entityMappingName: String?
    /// Objects processed so far, over every pass.
    public var completedUnits: Int
    /// Objects to process in all (each object counts once per pass).
    public var totalUnits: Int
    /// For a progressive migration: the step (1-based) and how many steps there are.
    public var step: Int = 1
    /// The number of steps of a progressive migration.
    public var stepCount: Int = 1
}

/// Called with each progress report.
public typealias MigrationProgressHandler = (MigrationProgress) -> Void
