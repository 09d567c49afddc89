import ArgumentParser
import CoreData
import ObjectGraphPostgres
import WorkbookSupport

/// The options every command shares: where the store is, its type, and the model version
/// the program runs as.
public struct StoreOptions: ParsableArguments {
    /// Creates the options with their defaults.
    public init() {}

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The store file, or a postgres:// URL.",
            discussion:
                "Default: $XDG_DATA_HOME/todo/ToDo.xml (or ToDo.sqlite), else ~/.local/share/todo/. "
                + "A URL postgres://USER@HOST/DATABASE?schema=todo keeps the to-dos in that schema of a "
                + "PostgreSQL database (the password in PGPASSWORD).", valueName: "path"))
    var store: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The store type: xml, as in the article, sqlite, or postgres (read from a postgres:// --store).",
            discussion:
                "Default: an existing file's own type (a SQLite file begins with \"SQLite format 3\"); for a new file, sqlite when its name ends in .sqlite, .sqlite3 or .db, else xml."
        ))
    var storeType: ToDoStoreType?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run as the article's version 1 or 2 of the application.",
            discussion:
                "Version 1 alerts an item every minute while it is due; version 2 alerts it once. A version 1 store is migrated to version 2 the first time version 2 opens it."
        ))
    var modelVersion: Int = 2

    /// Checks the model version.
    public func validate() throws {
        guard ToDoModels.versionNames.indices.contains(modelVersion - 1) else {
            throw ValidationError("--model-version must be 1 or 2, not \(modelVersion)")
        }
    }

    /// The store file: `--store`, else the user's data folder.
    func storeURL(in environment: ToDoEnvironment) -> URL {
        if let store, let server = Self.serverURL(store) { return server }
        if let store { return URL(fileURLWithPath: (store as NSString).expandingTildeInPath) }
        let dataHome: URL
        if let xdg = environment.variables["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: xdg)
        } else {
            let home = environment.variables["HOME"] ?? NSHomeDirectory()
            dataHome = URL(fileURLWithPath: home).appendingPathComponent(".local/share")
        }
        return dataHome.appendingPathComponent("todo").appendingPathComponent("ToDo.\((storeType ?? .xml).rawValue)")
    }

    /// The type of the store at `url`: an existing file's own type, read from its first bytes
    /// (so a `.sqlite` file needs no `--store-type`), else `--store-type`, else the file name's
    /// extension. A `--store-type` that contradicts the file is an error, not a guess.
    func storeType(at url: URL) throws -> ToDoStoreType {
        if !url.isFileURL {
            if let storeType, storeType != .postgres {
                throw ToDoError(
                    "The store \(ToDoStack.describe(url)) is a PostgreSQL store, "
                        + "not \(storeType.rawValue). Leave out --store-type.")
            }
            return .postgres
        }
        if let detected = ToDoStoreType(contentsOf: url) {
            if let storeType, storeType != detected {
                throw ToDoError(
                    "The store at \(url.path) is a\(detected == .xml ? "n" : "") \(detected.rawValue) store, not \(storeType.rawValue). Leave out --store-type: todo reads the type from the file."
                )
            }
            return detected
        }
        if storeType == .postgres {
            throw ToDoError(
                "A PostgreSQL store is named by its URL: "
                    + "--store postgres://USER@HOST/DATABASE?schema=todo")
        }
        if let storeType { return storeType }
        return ["sqlite", "sqlite3", "db"].contains(url.pathExtension.lowercased()) ? .sqlite : .xml
    }

    /// A `postgres://` (or `postgresql://`) `--store`, as a URL; nil for a file path.
    static func serverURL(_ store: String) -> URL? {
        let lowered = store.lowercased()
        guard lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") else { return nil }
        return URL(string: store)
    }

    /// The command that makes a new store where these options point, for messages that say how.
    func addCommand(modelVersion: Int? = nil) -> String {
        (["todo add \"Pay rent\""] + words(modelVersion: modelVersion)).joined(separator: " ")
    }

    /// These options as a person would type them (those given, or a model version other than
    /// the default), for messages that say what to run.
    func words(modelVersion: Int? = nil) -> [String] {
        var words: [String] = []
        if let store { words.append("--store \(ToDoStack.quoted(store))") }
        if let storeType { words.append("--store-type \(storeType.rawValue)") }
        if let version = modelVersion ?? (self.modelVersion == 2 ? nil : self.modelVersion) {
            words.append("--model-version \(version)")
        }
        return words
    }
}

/// The store types `todo` offers.
public enum ToDoStoreType: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Core Data's XML store, which the article uses.
    case xml
    /// The SQLite store.
    case sqlite
    /// The PostgreSQL store, for a `postgres://` `--store`.
    case postgres

    var storeType: NSPersistentStore.StoreType {
        switch self {
        case .xml: return .xml
        case .sqlite: return .sqlite
        case .postgres:
            PostgresStoreType.register()
            return .postgres
        }
    }

    /// The type a file's first bytes tell: SQLite's header string, or an XML declaration or
    /// element; nil for a missing or empty file, or one that is neither.
    init?(contentsOf url: URL) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 16), !head.isEmpty else { return nil }
        if head == Data("SQLite format 3\0".utf8) {
            self = .sqlite
        } else if let text = String(data: head, encoding: .utf8)?.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }),
            text.hasPrefix("<")
        {
            self = .xml
        } else {
            return nil
        }
    }
}
