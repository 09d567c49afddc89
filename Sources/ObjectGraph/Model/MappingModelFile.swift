import Foundation

/// One mapping model file, either form: Xcode's source (an `.xcmappingmodel` folder or its
/// `xcmapping.xml`) or the compiled `.cdm`, told apart by their bytes (a binary property list,
/// or XML).
struct MappingModelFile {
    /// The bytes that were read and what they are.
    enum Contents {
        /// A compiled mapping model: a keyed archive.
        case compiled(Data)
        /// Xcode's source: compiled here against the two models it names.
        case source(XcodeMappingDocument)
    }

    /// The URL given: a folder, its `xcmapping.xml`, or a `.cdm`.
    let url: URL
    /// The `.xcmappingmodel` folder, or the `.cdm` file: where the recorded model paths of a
    /// source are resolved from.
    let location: URL
    /// What the file holds.
    let contents: Contents

    /// Reads the file at `url`; throws 260 for a missing file and 259 for one that is neither
    /// form or is malformed.
    init(url: URL) throws {
        self.url = url
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CoreDataError(
                .fileReadNoSuchFile,
                "There is no mapping model at \(url.path): give an "
                    + ".xcmappingmodel folder, its xcmapping.xml, or a compiled .cdm")
        }
        let file = isDirectory.boolValue ? url.appendingPathComponent("xcmapping.xml") : url
        location = file.lastPathComponent == "xcmapping.xml" ? file.deletingLastPathComponent() : file
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw CoreDataError(
                .fileReadNoSuchFile,
                "There is no mapping model at \(url.path): the folder has no "
                    + "readable xcmapping.xml")
        }
        if data.starts(with: Array("bplist00".utf8)) {
            contents = .compiled(data)
        } else if AtomicStoreFile.kind(of: data) == .xml {
            contents = .source(try XcodeMappingDocument(data: data, url: file))
        } else {
            throw CoreDataError(
                .fileReadCorruptFile,
                "The file \(file.path) is not a mapping model: it is neither a "
                    + "compiled mapping model (a keyed archive) nor Xcode's xcmapping.xml (a Core Data XML store)")
        }
    }

    /// The entity mappings; a source is compiled against the models `models` gives for its
    /// recorded source and destination paths (nil: not found, which is error 260).
    func entityMappings(models: (_ recordedPath: String) throws -> ManagedObjectModel?) throws -> [EntityMapping] {
        switch contents {
        case .compiled(let data):
            return try CompiledMappingModelReader(url: url).entityMappings(from: data)
        case .source(let document):
            func model(_ path: String?, _ side: String) throws -> ManagedObjectModel {
                guard let path, !path.isEmpty else {
                    throw CoreDataError(
                        .fileReadCorruptFile,
                        "The mapping model \(url.path) cannot be read: it "
                            + "records no \(side) model path")
                }
                guard let found = try models(path) else {
                    throw CoreDataError(
                        .fileReadNoSuchFile,
                        "The mapping model \(url.path) maps from its \(side) "
                            + "model \(path), which was not found relative to "
                            + "\(location.deletingLastPathComponent().path) or the folders above it")
                }
                return found
            }
            let source = try model(document.sourceModelPath, "source")
            let destination = try model(document.destinationModelPath, "destination")
            return try XcodeMappingCompiler(
                document: document, sourceModel: source, destinationModel: destination, url: url
            )
            .entityMappings()
        }
    }

    /// The model a source records at `path`, found as Xcode's project would have it: the path
    /// as it is if absolute, else relative to each folder from the mapping model's own folder
    /// up (Xcode records it from the project's folder); failing that, its `.xcdatamodeld/...`
    /// tail, then its last part, in those folders; nil if none exists.
    func modelNearby(recordedPath path: String) throws -> ManagedObjectModel? {
        let parts = path.split(separator: "/").map(String.init)
        var tails = [path]
        if let bundle = parts.lastIndex(where: { $0.hasSuffix(".xcdatamodeld") }) {
            tails.append(parts[bundle...].joined(separator: "/"))
        }
        if let last = parts.last { tails.append(last) }
        var folders: [URL] = []
        var folder = location.standardizedFileURL.deletingLastPathComponent()
        // Up to the root; the bound only guards against a path that never shortens.
        for _ in 0..<256 {
            folders.append(folder)
            let parent = folder.deletingLastPathComponent().standardizedFileURL
            if folder.path == "/" || parent.path == folder.path { break }
            folder = parent
        }
        var candidates: [URL] = path.hasPrefix("/") ? [URL(fileURLWithPath: path)] : []
        for tail in tails { candidates += folders.map { $0.appendingPathComponent(tail) } }
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            return nil
        }
        return try XcodeModelLoader().loadModel(at: found)
    }
}
