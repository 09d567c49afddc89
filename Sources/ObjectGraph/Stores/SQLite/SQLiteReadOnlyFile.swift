import Foundation
import GRDB
import GRDBSQLite

/// Opens a store's file for reading only, without leaving any file beside it.
///
/// A plain read-only connection to a WAL-mode database creates the `-shm` index (and an
/// empty `-wal`) beside it when they are missing, and leaves them there: reading a store's
/// metadata, or inspecting a store copied from a Mac, would change its folder. So:
/// - a database in rollback-journal mode, or in WAL mode with both `-wal` and `-shm` present
///   (another connection has it open, or left them), is opened read-only as it is;
/// - a WAL-mode database with neither file, or an empty `-wal` and no `-shm`, has all its
///   rows in the main file and no connection open on it: it is opened `immutable=1` (no
///   locks, no index file), where SQLite reads URI file names;
/// - otherwise (rows only in a `-wal` that has no `-shm`, as when a store is copied without
///   it), the files are copied into a private temporary folder and read there, which is the
///   only way SQLite reads a WAL without its index; the copy goes when the reader is closed.
final class SQLiteReadOnlyFile {
    /// The connection.
    let queue: DatabaseQueue
    /// The private copy's folder, removed by ``close()``; nil when the store is read in place.
    private let scratch: URL?

    init(url: URL, configuration base: Configuration) throws {
        var configuration = base
        configuration.readonly = true
        // Another process closing the store's last connection removes its -wal and -shm while
        // they are looked at or copied: then the files are read again, as they are now.
        var attempt = 0
        while true {
            attempt += 1
            do {
                (queue, scratch) = try Self.open(url, configuration: configuration)
                return
            } catch let error as NSError
                where error.domain == NSCocoaErrorDomain
                && (error.code == CocoaError.fileReadNoSuchFile.rawValue
                    || error.code == CocoaError.fileNoSuchFile.rawValue)
            {
                guard attempt < 5, FileManager.default.fileExists(atPath: url.path) else { throw error }
            }
        }
    }

    /// Opens the store as its files are now: in place, immutable, or through a private copy.
    private static func open(_ url: URL, configuration: Configuration) throws -> (DatabaseQueue, URL?) {
        let fileManager = FileManager.default
        let wal = url.path + "-wal"
        let shm = url.path + "-shm"
        let hasWAL = fileManager.fileExists(atPath: wal)
        let walIsEmpty = ((try? fileManager.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0) == 0
        let hasSHM = fileManager.fileExists(atPath: shm)
        if !Self.isWALMode(url) || (hasWAL && hasSHM) {
            return (try DatabaseQueue(path: url.path, configuration: configuration), nil)
        } else if (!hasWAL || walIsEmpty) && !hasSHM && Self.readsURIs {
            return (try DatabaseQueue(path: Self.immutableURI(url), configuration: configuration), nil)
        } else {
            let folder = fileManager.temporaryDirectory.appendingPathComponent(
                "objectgraph-readonly-\(UUID().uuidString)")
            try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
            let copy = folder.appendingPathComponent(url.lastPathComponent)
            do {
                try fileManager.copyItem(atPath: url.path, toPath: copy.path)
                if hasWAL { try fileManager.copyItem(atPath: wal, toPath: copy.path + "-wal") }
                // The copies must be writable for SQLite to build the index of the WAL.
                for path in [copy.path, copy.path + "-wal"] where fileManager.fileExists(atPath: path) {
                    try fileManager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
                }
                return (try DatabaseQueue(path: copy.path, configuration: configuration), folder)
            } catch {
                try? fileManager.removeItem(at: folder)
                throw error
            }
        }
    }

    /// Closes the connection and removes the private copy, if any.
    func close() {
        try? queue.close()
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }

    deinit { if let scratch { try? FileManager.default.removeItem(at: scratch) } }

    /// Whether the file's header says WAL mode (bytes 18 and 19 are 2; 1 is the rollback journal).
    static func isWALMode(_ url: URL) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20 else { return false }
        return header[18] == 2 || header[19] == 2
    }

    /// Whether this SQLite reads `file:` URIs in file names (compiled with SQLITE_USE_URI).
    static let readsURIs = sqlite3_compileoption_used("USE_URI") == 1

    /// `file:<path>?immutable=1`, with the characters a URI gives a meaning escaped.
    static func immutableURI(_ url: URL) -> String {
        var path = ""
        for c in url.path.unicodeScalars {
            switch c {
            case "%", "?", "#": path += String(format: "%%%02X", c.value)
            default: path.unicodeScalars.append(c)
            }
        }
        return "file:\(path)?immutable=1"
    }
}
