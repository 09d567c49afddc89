import Foundation

/// One version of a store file, as a store last read or wrote it: the file's identity and an
/// open descriptor on it.
///
/// Change detection uses the file's identity (device, inode, size, modification time), not a
/// generation counter inside the file: every save writes a new file and renames it into place,
/// so a store changed by another writer is another inode, and one `stat` of the path tells,
/// without reading a byte. An inode number can be reused once its file is gone, which is why
/// the descriptor stays open: while it is open the old inode is not freed, so a new file at
/// the path always has another number. Size and modification time catch a file edited in
/// place (by hand), which keeps its inode.
final class AtomicFileVersion {
    /// What `stat` says about a file, compared to tell versions apart.
    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            #if os(Linux)
                modifiedSeconds = Int64(info.st_mtim.tv_sec)
                modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
            #else
                modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
                modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
            #endif
        }
    }

    /// The open descriptor that keeps the inode from being reused.
    private let descriptor: Int32
    /// The file's identity when it was read or written.
    let identity: Identity

    /// Takes over an open descriptor of the file; it is closed when this version goes.
    init(descriptor: Int32) throws {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let message = String(cString: strerror(errno))
            closeDescriptor(descriptor)
            throw CoreDataError(.fileReadUnknown, "Could not read the status of a store file: \(message)")
        }
        self.descriptor = descriptor
        self.identity = Identity(info)
    }

    deinit { closeDescriptor(descriptor) }

    /// The identity of the file at `url` now; nil when there is none.
    static func identity(at url: URL) -> Identity? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return Identity(info)
    }

    /// Whether the file at `url` is still this version.
    func isCurrent(at url: URL) -> Bool { Self.identity(at: url) == identity }

    /// Opens the file at `url` and reads it whole; nil when there is no file. The version and
    /// the bytes belong together even when another writer renames a new file in meanwhile.
    static func read(_ url: URL) throws -> (version: AtomicFileVersion, data: Data)? {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw CoreDataError(
                .fileReadUnknown, "The store at \(url.path) could not be read: \(String(cString: strerror(errno)))")
        }
        let version = try AtomicFileVersion(descriptor: descriptor)
        do {
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            return (version, try handle.readToEnd() ?? Data())
        } catch {
            throw CoreDataError(
                .fileReadUnknown, "The store at \(url.path) could not be read: \(error.localizedDescription)")
        }
    }
}
