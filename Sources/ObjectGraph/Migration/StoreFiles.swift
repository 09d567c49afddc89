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
            if suffix != "-shm",
                let size = try? FileManager.default.attributesOfItem(atPath: companion.path)[.size] as? Int, size > 0
            {
                throw CoreDataError(
                    .migration,
                    "The migrated store at \(replacement.path) still has a \(suffix) file with data; it was not closed cleanly, so it was not put in place"
                )
            }
            try? FileManager.default.removeItem(at: companion)
        }
        try sync(replacement)
        for suffix in companionSuffixes {
            try? FileManager.default.removeItem(at: URL(fileURLWithPath: url.path + suffix))
        }
        guard rename(replacement.path, url.path) == 0 else {
            throw CoreDataError(
                .migration,
                "Could not move the migrated store into place at \(url.path): \(String(cString: strerror(errno))); the old store is unchanged"
            )
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

    /// Whether the file at `url` exists but holds no byte: what a process killed while
    /// creating a store leaves. It is no store yet, as a missing file is.
    static func isEmpty(_ url: URL) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            let size = attributes[.size] as? NSNumber
        else { return false }
        return size.intValue == 0
    }

    /// The start of an association table's scratch file name; the process's id follows, so
    /// that another process can tell whether the migration that made it is still running.
    static let associationsPrefix = ".objectgraph-migration-"

    /// A new association table's scratch file in `directory`:
    /// `.objectgraph-migration-pid<pid>-<uuid>.associations`.
    static func associationsURL(in directory: URL) -> URL {
        directory.appendingPathComponent("\(associationsPrefix)pid\(getpid())-\(UUID().uuidString).associations")
    }

    /// How old a scratch file without a process id (made before ids were part of the name)
    /// must be before it is taken for abandoned.
    static let unattributedScratchAge: TimeInterval = 3600

    /// Removes the scratch files that interrupted migrations left in `directory` (association
    /// tables and their journals), never those of a migration still running: a file names its
    /// process, and a file of a live process, this one included, is left alone. Returns the
    /// files removed. Errors are ignored: a scratch file that stays is only wasted space.
    @discardableResult
    static func removeAbandonedScratchFiles(in directory: URL) -> [URL] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var removed: [URL] = []
        for name in names where name.hasPrefix(associationsPrefix) && name.contains(".associations") {
            let url = directory.appendingPathComponent(name)
            let rest = name.dropFirst(associationsPrefix.count)
            if rest.hasPrefix("pid") {
                guard let pid = Int32(rest.dropFirst(3).prefix { $0.isNumber }), !isRunning(pid) else { continue }
            } else {
                // An older file without a process id: abandoned once nothing wrote it for an hour.
                guard
                    let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate]
                        as? Date,
                    Date().timeIntervalSince(modified) > unattributedScratchAge
                else { continue }
            }
            if (try? FileManager.default.removeItem(at: url)) != nil { removed.append(url) }
        }
        return removed
    }

    /// Whether a process with this id is running (this one included).
    static func isRunning(_ pid: Int32) -> Bool {
        if pid == getpid() { return true }
        // Signal 0 checks without signalling; EPERM means it exists but is another user's.
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// Where a migration into `url` keeps its scratch files (association tables): beside a
    /// store file, in the temporary directory for a store on a server.
    static func scratchDirectory(for url: URL) -> URL {
        url.isFileURL ? url.deletingLastPathComponent() : FileManager.default.temporaryDirectory
    }

    /// A scratch path beside a store for the migrated copy: `<name>.migrating`.
    static func migratingURL(for url: URL) -> URL {
        URL(fileURLWithPath: url.path + ".migrating")
    }
}
