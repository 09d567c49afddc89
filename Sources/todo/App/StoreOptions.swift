import ArgumentParser
import Foundation
import ObjectGraph
import WorkbookSupport

/// The options every command shares: where the store is, its type, and the model version
/// the program runs as.
public struct StoreOptions: ParsableArguments {
    /// Creates the options with their defaults.
    public init() {}

    @Option(name: .long, help: ArgumentHelp("The store file.", discussion:
        "Default: $XDG_DATA_HOME/todo/ToDo.xml (or ToDo.sqlite), else ~/.local/share/todo/.", valueName: "path"))
    var store: String?

    @Option(name: .long, help: "The store type: xml, as in the article, or sqlite.")
    var storeType: ToDoStoreType = .xml

    @Option(name: .long, help: ArgumentHelp(
        "Run as the article's version 1 or 2 of the application.", discussion:
        "Version 1 alerts an item every minute while it is due; version 2 alerts it once. A version 1 store is migrated to version 2 the first time version 2 opens it."))
    var modelVersion: Int = 2

    /// Checks the model version.
    public func validate() throws {
        guard ToDoModels.versionNames.indices.contains(modelVersion - 1) else {
            throw ValidationError("--model-version must be 1 or 2, not \(modelVersion)")
        }
    }

    /// The store file: `--store`, else the user's data folder.
    func storeURL(in environment: ToDoEnvironment) -> URL {
        if let store { return URL(fileURLWithPath: (store as NSString).expandingTildeInPath) }
        let dataHome: URL
        if let xdg = environment.variables["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: xdg)
        } else {
            let home = environment.variables["HOME"] ?? NSHomeDirectory()
            dataHome = URL(fileURLWithPath: home).appendingPathComponent(".local/share")
        }
        return dataHome.appendingPathComponent("todo").appendingPathComponent("ToDo.\(storeType.rawValue)")
    }
}

/// The store types `todo` offers.
public enum ToDoStoreType: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Core Data's XML store, which the article uses.
    case xml
    /// The SQLite store.
    case sqlite

    var storeType: StoreType { self == .xml ? .xml : .sqlite }
}
