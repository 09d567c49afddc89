import Foundation

/// A file of the XML or binary store: where it is and which format holds the store in it
/// (``AtomicFileFormat``). It reads and writes the whole store, names the file in every error,
/// and writes a new file beside the old one that is renamed into place, so a crash leaves the
/// old store or the new one, never half of either.
struct AtomicStoreFile {
    /// A store as its file holds it.
    struct Loaded {
        var identifier: String
        var metadata: [String: Any]
        var contents: AtomicContents
    }

    /// A store file's metadata and its objects' entity names (one per object), for inspecting
    /// a file without opening it.
    struct Outline {
        var metadata: [String: Any]
        var entityNames: [String]
    }

    /// The formats, in the order their first bytes are tried: a binary property list is told
    /// by its header alone, so it goes before the XML store, which is looked for in the text.
    static let formats: [any AtomicFileFormat] = [BinaryStoreFormat(), XMLStoreFormat()]

    /// The file's place.
    let url: URL
    /// The format of the file's bytes.
    let format: any AtomicFileFormat

    /// The file at `url` of a store of `type`; an error for a type that is not kept in a file
    /// of its own (SQLite, in-memory).
    init(url: URL, type: StoreType) throws {
        guard let format = Self.formats.first(where: { $0.type == type }) else {
            throw CoreDataError(
                .persistentStoreInvalidType, "\(type.rawValue) is not an atomic store type with a file of its own")
        }
        self.url = url
        self.format = format
    }

    /// Which kind of store a file is, judged from its first bytes.
    static func kind(of data: Data) -> StoreType? {
        if let format = formats.first(where: { $0.recognizes(data) }) { return format.type }
        if data.starts(with: Array("SQLite format 3".utf8)) { return .sqlite }
        return nil
    }

    /// The store the file holds, read from `data`, the file's bytes.
    func read(_ data: Data, model: ManagedObjectModel) throws -> Loaded {
        let type = format.type
        let found = Self.kind(of: data)
        guard found == type else {
            let what = found.map { "\($0.withArticle) store" } ?? "not a store"
            throw CoreDataError(
                found == nil ? .persistentStoreInvalidType : .persistentStoreTypeMismatch,
                "The file at \(url.path) is \(what), not \(type.withArticle) store; add it with type \(found?.kind?.swiftName ?? type.rawValue) or choose another file"
            )
        }
        return try namingTheFile { try format.decode(data, model: model) }
    }

    /// The metadata of the store, read without opening the store for use.
    func metadata() throws -> [String: Any] {
        try outline().metadata
    }

    /// The file's metadata and its objects' entity names. Reading the whole file is the only
    /// way for an atomic store; nothing is kept.
    func outline() throws -> Outline {
        guard let data = try AtomicFileVersion.read(url)?.data else {
            throw CoreDataError(.fileReadNoSuchFile, "There is no store at \(url.path)")
        }
        // An empty file is what a process killed while creating a store may leave: adding it
        // makes a new store, so it has no metadata yet, like a missing file.
        guard !data.isEmpty else {
            throw CoreDataError(
                .fileReadNoSuchFile,
                "There is no store at \(url.path) yet (the file is empty; adding it makes a new store)")
        }
        guard Self.kind(of: data) == format.type else {
            throw CoreDataError(
                .persistentStoreInvalidType, "The file at \(url.path) is not \(format.type.withArticle) store")
        }
        return try namingTheFile { try format.outline(of: data) }
    }

    /// Runs a format's reader, whose errors say what is wrong but not the file.
    private func namingTheFile<T>(_ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch let error as CoreDataError {
            throw CoreDataError(
                error.code ?? .persistentStoreOpen,
                "The \(format.type.rawValue) store at \(url.path) is damaged: \(error.message)")
        }
    }

    /// Writes the whole store to a new file beside `url`, flushes it, renames it into place
    /// and flushes the folder; returns the new file's version, kept open. Called with the
    /// store's lock held, so the scratch file's name (by process id) is this writer's alone.
    @discardableResult
    func write(
        _ contents: AtomicContents, identifier: String, metadata: [String: Any], model: ManagedObjectModel
    ) throws -> AtomicFileVersion {
        let data = try format.encode(contents, identifier: identifier, metadata: metadata, model: model)
        let temporary = AtomicScratchFiles.url(for: url)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CoreDataError(
                .persistentStoreSave,
                "Could not write the store at \(url.path): \(temporary.path): \(String(cString: strerror(errno)))")
        }
        do {
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            try handle.write(contentsOf: data)
            try handle.synchronize()
            guard rename(temporary.path, url.path) == 0 else {
                throw CoreDataError(
                    .persistentStoreSave,
                    "Could not move the new store file into place at \(url.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            closeDescriptor(descriptor)
            try? FileManager.default.removeItem(at: temporary)
            if let error = error as? CoreDataError { throw error }
            throw CoreDataError(
                .persistentStoreSave, "Could not write the store at \(url.path): \(error.localizedDescription)")
        }
        // The rename itself survives a power cut only once the folder is flushed.
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            closeDescriptor(folder)
        }
        // Kept open, with the identity the complete file has (size and time of the last write).
        return try AtomicFileVersion(descriptor: descriptor)
    }
}
