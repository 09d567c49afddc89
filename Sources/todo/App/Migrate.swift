import ArgumentParser
import Foundation
import ObjectGraph

extension ToDoCommand {
    /// `todo migrate [--policy doNotAlertForA]`: migrates a version 1 store to version 2,
    /// by the default mapping or by the article's custom policy.
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Migrate a version 1 store to version 2.",
            discussion: """
                Without --policy the store is migrated as opening it with version 2 would: the \
                default mapping, which adds lastAlertDate (empty) and doNotAlert (NO). With \
                --policy doNotAlertForA the article's custom migration policy runs instead: \
                to-dos whose title begins with "a" get doNotAlert = YES.
                """)

        @Option(help: "defaultMapping, or doNotAlertForA for the article's custom policy.") var policy: ToDoMigrationPolicy = .defaultMapping
        @OptionGroup var options: StoreOptions

        func validate() throws {
            if options.modelVersion != 2 { throw ValidationError("migrate moves a store to version 2; leave out --model-version") }
        }

        func run() throws {
            let environment = ToDoEnvironment.current
            let url = options.storeURL(in: environment)
            let type = options.storeType.storeType
            guard ToDoStack.storeExists(at: url) else {
                throw ToDoError("There is no store at \(url.path) to migrate. Create one as version 1: todo add \"Pay rent\" --model-version 1")
            }
            let version = try ToDoStack.version(ofStoreAt: url, type: type)
            guard version < 2 else {
                environment.write("The store at \(url.path) is already at version 2; nothing to do.")
                return
            }
            try ToDoMigration.migrate(storeAt: url, type: type, from: version, to: 2, policy: policy, environment: environment)
        }
    }
}
