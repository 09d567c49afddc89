import Foundation
import ArgumentParser
import ObjectGraph

/// How `todo migrate` moves a version 1 store to version 2.
public enum ToDoMigrationPolicy: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// The default mapping between the versions, as automatic migration uses.
    case defaultMapping
    /// The article's custom policy: titles beginning with "a" get doNotAlert.
    case doNotAlertForA
}

enum ToDoMigration {
    static func migrate(storeAt url: URL, type: StoreType, from: Int, to: Int, policy: ToDoMigrationPolicy, environment: ToDoEnvironment) throws {
        throw ToDoError("TEMPORARY: migration lands with the migration branch")
    }
}
