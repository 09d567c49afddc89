import Foundation

/// The scratch files of interrupted saves: a save writes `.<store name>.<pid>.tmp` beside the
/// store and renames it into place, so a process killed between the two leaves it behind.
enum AtomicScratchFiles {
    /// The scratch file this process writes for the store at `url`.
    static func url(for storeURL: URL) -> URL {
        storeURL.deletingLastPathComponent().appendingPathComponent(
            ".\(storeURL.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
    }

    /// Removes the scratch files of the store at `url` that no save is writing. Called with the
    /// store's lock held: every writer of this implementation writes its scratch file only
    /// while holding it, so none is being written; still, a file of another live process that
    /// is newer than the store (a writer that takes no lock) is left alone.
    static func removeStale(besides storeURL: URL) {
        let directory = storeURL.deletingLastPathComponent()
        let prefix = ".\(storeURL.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        let storeModified = modified(storeURL)
        let me = ProcessInfo.processInfo.processIdentifier
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            guard let pid = Int32(name.dropFirst(prefix.count).dropLast(4)) else { continue }
            let file = directory.appendingPathComponent(name)
            // This process's own scratch file is stale too: the lock is held, so no save of
            // this process is writing it.
            let alive = pid != me && StoreFiles.isRunning(pid)
            if alive, let storeModified, let fileModified = modified(file), fileModified > storeModified { continue }
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// Removes the lock sidecar a migration's scratch store (`<store>.migrating`) leaves once
    /// the migrated file was renamed into place: when no scratch store is there and no one
    /// holds its lock, no one can be using it.
    static func removeMigrationLeftovers(besides storeURL: URL) {
        let scratch = StoreFiles.migratingURL(for: storeURL)
        guard !FileManager.default.fileExists(atPath: scratch.path) else { return }
        let lock = AtomicStoreLock(storeURL: scratch, timeout: 0)
        guard FileManager.default.fileExists(atPath: lock.url.path), lock.tryAcquire() else { return }
        try? FileManager.default.removeItem(at: lock.url)
        lock.close()
    }

    private static func modified(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }
}
