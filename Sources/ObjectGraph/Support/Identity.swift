import Foundation

// Contexts, coordinators, stores and models compare by identity, as Apple's, which are
// NSObjects: `context == otherContext` and a `Set<NSManagedObjectContext>` work as on a Mac.

extension ManagedObjectContext: Hashable {
    /// Whether two contexts are the same context.
    public static func == (lhs: ManagedObjectContext, rhs: ManagedObjectContext) -> Bool { lhs === rhs }
    /// Hashes the context's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension PersistentStoreCoordinator: Hashable {
    /// Whether two coordinators are the same coordinator.
    public static func == (lhs: PersistentStoreCoordinator, rhs: PersistentStoreCoordinator) -> Bool { lhs === rhs }
    /// Hashes the coordinator's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension PersistentStore: Hashable {
    /// Whether two stores are the same store object.
    public static func == (lhs: PersistentStore, rhs: PersistentStore) -> Bool { lhs === rhs }
    /// Hashes the store's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
