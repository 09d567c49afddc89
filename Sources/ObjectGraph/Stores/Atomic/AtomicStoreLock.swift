import Foundation

/// The advisory lock that makes a file-backed atomic store safe with several writers:
/// `flock(2)` on a sidecar file `<store>.lock` beside the store.
///
/// A sidecar, not the store file itself: every save renames a new file over the store, so a
/// lock taken on the store file's descriptor would lock an inode that the next save unlinks,
/// and two writers could each hold "the" lock on a different inode. The sidecar is never
/// replaced and never removed (removing a lock file races with a process about to lock it).
///
/// `flock`, not `fcntl`: flock locks belong to the open file description, so two coordinators
/// of one process, each with its own descriptor, exclude each other exactly as two processes
/// do; fcntl locks belong to the process and would not.
final class AtomicStoreLock {
    /// The sidecar file.
    let url: URL
    /// The store it guards, for messages.
    let storeURL: URL
    /// How long ``acquire()`` waits (StoreOption.timeout).
    let timeout: TimeInterval
    private var descriptor: Int32 = -1
    /// Whether this store holds the lock now.
    private(set) var isHeld = false

    /// The lock of the store at `storeURL`; nothing is opened until it is first taken.
    init(storeURL: URL, timeout: TimeInterval) {
        self.storeURL = storeURL
        self.url = storeURL.deletingLastPathComponent().appendingPathComponent(storeURL.lastPathComponent + ".lock")
        self.timeout = timeout
    }

    deinit {
        if descriptor >= 0 { closeDescriptor(descriptor) }
    }

    private func openDescriptor() throws {
        guard descriptor < 0 else { return }
        descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CoreDataError(
                .persistentStoreSave,
                "Could not open the lock file \(url.path) of the store at \(storeURL.path): \(String(cString: strerror(errno)))"
            )
        }
    }

    /// Takes the lock, waiting up to ``timeout`` seconds for another process or coordinator to
    /// release it; then fails with 134030 naming the file. Does nothing if already held.
    func acquire() throws {
        if isHeld { return }
        try openDescriptor()
        let deadline = Date().addingTimeInterval(timeout)
        var pause: useconds_t = 500
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                throw CoreDataError(
                    .persistentStoreSave,
                    "Could not lock \(url.path) for the store at \(storeURL.path): \(String(cString: strerror(code)))")
            }
            if Date() >= deadline {
                throw CoreDataError(
                    .persistentStoreTimeout,
                    "The store at \(storeURL.path) stayed locked by another process or coordinator (\(url.lastPathComponent)) for \(timeout) seconds (StoreOption.timeout); nothing was written"
                )
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        isHeld = true
    }

    /// Takes the lock if it is free at once; false if another writer holds it or the
    /// sidecar cannot be made (a read-only folder).
    func tryAcquire() -> Bool {
        if isHeld { return true }
        guard (try? openDescriptor()) != nil, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        isHeld = true
        return true
    }

    // MARK: Key reservations

    /// The last primary key each inheritance tree has handed out, as the sidecar records it for
    /// the store with UUID `store`; empty when it records none, another store's, or cannot be
    /// read. Called with the lock held.
    ///
    /// Keys are reserved here, not only counted from the store file, because a save that meets a
    /// merge conflict releases the lock while its merge policy runs, then saves again with the
    /// keys it was given: another writer must not hand them out meanwhile.
    func reservations(store: String) -> [String: Int64] {
        guard isHeld else { return [:] }
        var bytes = [UInt8](repeating: 0, count: 64 * 1024)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return [:] }
        let lines = String(decoding: bytes[0..<count], as: UTF8.self).split(separator: "\n")
        guard lines.first == "store \(store)" else { return [:] }
        var result: [String: Int64] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: " ")
            if parts.count == 2, let key = Int64(parts[1]) { result[String(parts[0])] = key }
        }
        return result
    }

    /// Records the reservations of the store with UUID `store` (a few bytes: a torn write
    /// reads as none, and the store file's own keys are then the floor). Called with the lock
    /// held.
    func setReservations(_ reservations: [String: Int64], store: String) {
        guard isHeld else { return }
        let text =
            (["store \(store)"] + reservations.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }).joined(
                separator: "\n") + "\n"
        let bytes = Array(text.utf8)
        _ = ftruncate(descriptor, 0)
        _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// Releases the lock if held.
    func release() {
        guard isHeld else { return }
        _ = flock(descriptor, LOCK_UN)
        isHeld = false
    }

    /// Releases the lock and closes the sidecar.
    func close() {
        release()
        if descriptor >= 0 {
            closeDescriptor(descriptor)
            descriptor = -1
        }
    }
}

/// Closes a file descriptor (the `close(2)` call, by a name that a type's own `close()` does
/// not hide).
func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
