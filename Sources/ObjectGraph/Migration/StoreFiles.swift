import Foundation

/// A store's files: the store itself and, for SQLite, its `-wal`, `-shm` and `-journal`
/// companions, which belong to it and move or go with it.
enum StoreFiles {
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// The store file and its companions.
    static func all(_ url: URL) -> [URL] {
        [url] + companionSuffixes.map { URL(fileURLWithPath: url.path + $0) }
    }

    /// Removes a store and its companions, ignoring those that are not there.
    static func remove(_ url: URL) {
        for file in all(url) { try? FileManager.default.removeItem(at: file) }
    }

    /// Puts the complete store at `replacement` in place of `url` with one rename(2), the
    /// commit point of a migration. Both stores must be closed (SQLite has then folded its WAL
    /// into the file). Companions of the old store are removed first, so they can never be
    /// applied to the new file; the new file and the directory are flushed to disk around
    /// the rename.
    static func replace(_ url: URL, with replacement: URL) throws {
        for suffix in companionSuffixes {
            let companion = URL(fileURLWithPath: replacement.path + suffix)
            if suffix != "-shm", let size = try? FileManager.default.attributesOfItem(atPath: companion.path)[.size] as? Int, size > 0 {
                throw CoreDataError(.migration, "The migrated store at \(replacement.path) still has a \(suffix) file with data; it was not closed cleanly, so it was not put in place")
            }
            try? FileManager.default.removeItem(at: companion)
        }
        try sync(replacement)
        for suffix in companionSuffixes {
            try? FileManager.default.removeItem(at: URL(fileURLWithPath: url.path + suffix))
        }
        guard rename(replacement.path, url.path) == 0 else {
            throw CoreDataError(.migration, "Could not move the migrated store into place at \(url.path): \(String(cString: strerror(errno))); the old store is unchanged")
        }
        try? sync(url.deletingLastPathComponent())
    }

    /// Flushes a file or directory to disk.
    static func sync(_ url: URL) throws {
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { return }
        defer { close(fd) }
        fsync(fd)
    }

    /// A scratch path beside a store for the migrated copy: `<name>.migrating`.
    static func migratingURL(for url: URL) -> URL {
        URL(fileURLWithPath: url.path + ".migrating")
    }
}
