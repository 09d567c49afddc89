import ArgumentParser
import CoreData

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

        @Option(help: "defaultMapping, or doNotAlertForA for the article's custom policy.") var policy:
            ToDoMigrationPolicy = .defaultMapping
        @OptionGroup var options: StoreOptions

        func validate() throws {
            if options.modelVersion != 2 {
                throw ValidationError("migrate moves a store to version 2; leave out --model-version")
            }
        }

        func run() throws {
            let environment = ToDoEnvironment.current
            let url = options.storeURL(in: environment)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
                throw ToDoError(
                    "\(url.path) is a folder, not a store file. Name the store file: --store \(ToDoStack.quoted(url.appendingPathComponent("ToDo.xml").path))"
                )
            }
            guard ToDoStack.storeExists(at: url) else {
                throw ToDoError(
                    "There is no store at \(url.path) to migrate. Check the path; to make a version 1 store there: \(options.addCommand(modelVersion: 1))"
                )
            }
            let type = try options.storeType(at: url).storeType
            let version = try ToDoStack.version(ofStoreAt: url, type: type)
            guard version < 2 else {
                environment.write("The store at \(url.path) is already at version 2; nothing to do.")
                return
            }
            try ToDoMigration.migrate(
                storeAt: url, type: type, from: version, to: 2, policy: policy, environment: environment)
        }
    }
}
