import Foundation
import GRDB

extension SQLiteStore {
    /// Copies the store at `source` over the store at `destination`, page by page with SQLite's
    /// online backup, so that a store in WAL mode is copied whole (its `-wal` included) and the
    /// destination is never a half-copied file: what replacePersistentStore does for SQLite.
    static func replace(_ destination: URL, withStoreAt source: URL) throws {
        _ = try metadata(at: source)
        try CoreDataError.mappingSQLite("Copying the store at \(source.path) to", destination) {
            let configuration = SQLiteConnection.configuration(timeout: StoreOption.defaultTimeout)
            let sourceFile = try SQLiteReadOnlyFile(url: source, configuration: configuration)
            defer { sourceFile.close() }
            let target = try DatabaseQueue(path: destination.path, configuration: configuration)
            try sourceFile.queue.backup(to: target)
            try target.close()
        }
    }
}
