import Foundation

/// Loads Xcode's model files: an `.xcdatamodel` folder (or its `contents` XML file) and an
/// `.xcdatamodeld` bundle of versions (<doc:OpeningStoresThatCoreDataWrote>).
///
/// ```swift
/// let loader = XcodeModelLoader()
/// let model = try loader.loadModel(at: URL(fileURLWithPath: "ToDo.xcdatamodeld"))   // the current version
/// let bundle = try loader.loadBundle(at: URL(fileURLWithPath: "ToDo.xcdatamodeld"))
/// for warning in loader.warnings { print(warning) }
/// ```
///
/// Loading only reads: the files are never changed. Every model Core Data loads loads here:
/// settings ObjectGraph does not use are skipped and listed in ``warnings``, with what Xcode
/// itself warns about (a relationship without an inverse, or whose inverse points elsewhere:
/// loaded without it, see ``RelationshipDescription/unmatchedInverseName``); malformed XML, or what Core Data
/// refuses too (a relationship to an entity or inverse that does not exist, a stored attribute
/// of type Undefined), throws ``CoreDataError`` with the file and line. Entities get the classes in ``classes`` by
/// their `representedClassName`
/// (module prefix ignored), and ManagedObject otherwise.
public final class XcodeModelLoader {
    /// What was skipped while loading, in file and line order, across every load so far.
    public private(set) var warnings: [ModelFileWarning] = []
    /// Managed object subclasses by class name, for entities whose `representedClassName` names one.
    public var classes: [String: ManagedObject.Type]

    /// Makes a loader; `classes` maps class names in the file to your subclasses.
    public init(classes: [String: ManagedObject.Type] = [:]) {
        self.classes = classes
    }

    /// Loads one model: from an `.xcdatamodel` folder, its `contents` file, or the current
    /// version of an `.xcdatamodeld` bundle.
    public func loadModel(at url: URL) throws -> ManagedObjectModel {
        if Self.isBundle(url) { return try loadBundle(at: url).currentModel }
        return try loadContents(at: Self.contentsFile(of: url))
    }

    /// Loads every version of an `.xcdatamodeld` bundle and the name of the current one.
    ///
    /// The current version is the one `.xccurrentversion` names (`_XCCurrentVersionName`). If
    /// that file is missing or names none, it is `<bundle name>.xcdatamodel`, or the only version.
    public func loadBundle(at url: URL) throws -> ModelBundle {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CoreDataError(
                .fileReadNoSuchFile, "No model bundle at \(url.path): give the path of an .xcdatamodeld folder")
        }
        let names: [String]
        do {
            names = try fm.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".xcdatamodel") }
        } catch {
            throw CoreDataError(
                .fileReadUnknown, "Can't list the model bundle \(url.path): \(error.localizedDescription)")
        }
        guard !names.isEmpty else {
            throw CoreDataError(
                .fileReadCorruptFile,
                "\(url.path) holds no .xcdatamodel version; a model bundle has one folder per version")
        }
        let versionNames = names.map { String($0.dropLast(".xcdatamodel".count)) }
        let current = try currentVersionName(in: url, versions: versionNames)
        var versions: [(name: String, model: ManagedObjectModel)] = []
        for (folder, name) in zip(names, versionNames) {
            versions.append((name, try loadContents(at: Self.contentsFile(of: url.appendingPathComponent(folder)))))
        }
        return try ModelBundle(versions: versions, currentVersionName: current)
    }

    /// The name `.xccurrentversion` gives, without `.xcdatamodel`, or the fallback.
    private func currentVersionName(in bundle: URL, versions: [String]) throws -> String {
        let file = bundle.appendingPathComponent(".xccurrentversion")
        var named: String?
        if let data = FileManager.default.contents(atPath: file.path) {
            let plist: Any
            // Foundation's reader follows shared references without bound, and crashes on a set
            // (checkSharing).
            do { try BinaryPropertyList.checkSharing(data, asPropertyList: true) } catch let error
                as BinaryPropertyList.FormatError
            {
                throw CoreDataError(
                    .fileReadCorruptFile,
                    "\(file.path): \(error.reason); it should be a dictionary with _XCCurrentVersionName, as Xcode writes it"
                )
            }
            do { plist = try PropertyListSerialization.propertyList(from: data, format: nil) } catch {
                throw CoreDataError(
                    .fileReadCorruptFile,
                    "\(file.path): not a property list (\(error.localizedDescription)); it should be a dictionary with _XCCurrentVersionName, as Xcode writes it"
                )
            }
            named = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String
        }
        if let named, !named.isEmpty {
            let name = named.hasSuffix(".xcdatamodel") ? String(named.dropLast(".xcdatamodel".count)) : named
            guard versions.contains(name) else {
                throw CoreDataError(
                    .fileReadCorruptFile,
                    "\(file.path): the current version is \(named), which the bundle does not hold (it holds \(versions.sorted().joined(separator: ", "))); name one of those"
                )
            }
            return name
        }
        let bundleName = bundle.deletingPathExtension().lastPathComponent
        if versions.contains(bundleName) { return bundleName }
        if versions.count == 1 { return versions[0] }
        throw CoreDataError(
            .fileReadCorruptFile,
            "\(bundle.path): no .xccurrentversion names the current version among \(versions.sorted().joined(separator: ", ")); add one with _XCCurrentVersionName"
        )
    }

    /// Reads and builds the model in one `contents` file.
    private func loadContents(at file: URL) throws -> ManagedObjectModel {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw CoreDataError(
                .fileReadNoSuchFile,
                "No model at \(file.path): give the path of an .xcdatamodeld bundle, an .xcdatamodel folder or its contents file"
            )
        }
        let root = try XMLElementNode.parse(data, file: file.path)
        var reader = XcodeModelReader(file: file.path, classes: classes)
        let read: XcodeModelReader.Contents
        do { read = try reader.read(root) } catch {
            warnings += reader.warnings
            throw error
        }
        warnings += reader.warnings
        do {
            return try ManagedObjectModel(
                entities: read.entities, versionIdentifiers: read.versionIdentifiers,
                configurations: read.configurations, fetchRequestTemplates: read.fetchRequestTemplates)
        } catch let error as CoreDataError {
            // The model's own checks name the entity; add the file and the entity's line.
            let line = Self.line(of: error.message, entities: read.entities.map(\.name), reader: reader)
            throw CoreDataError(.fileReadCorruptFile, "\(file.path):\(line): \(error.message)")
        }
    }

    /// The line of the entity a model error names first (the longest name at the earliest place).
    private static func line(of message: String, entities: [String], reader: XcodeModelReader) -> Int {
        var best: (name: String, offset: Int)?
        for name in entities {
            guard let range = message.range(of: name) else { continue }
            let offset = message.distance(from: message.startIndex, to: range.lowerBound)
            if let b = best, b.offset < offset || (b.offset == offset && b.name.count >= name.count) { continue }
            best = (name, offset)
        }
        return best.flatMap { reader.line(ofEntity: $0.name) } ?? 1
    }

    /// The `contents` file of an `.xcdatamodel` folder, or the URL itself if it is a file.
    private static func contentsFile(of url: URL) throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CoreDataError(
                .fileReadNoSuchFile,
                "No model at \(url.path): give the path of an .xcdatamodeld bundle, an .xcdatamodel folder or its contents file"
            )
        }
        guard isDirectory.boolValue else { return url }
        let contents = url.appendingPathComponent("contents")
        guard FileManager.default.fileExists(atPath: contents.path) else {
            let old = FileManager.default.fileExists(atPath: url.appendingPathComponent("elements").path)
            throw CoreDataError(
                .fileReadNoSuchFile,
                old
                    ? "\(url.path) is a model from before Xcode 4 (binary elements file, no contents XML): open it in a recent Xcode and save it to convert it"
                    : "\(url.path) has no contents file: give the path of an .xcdatamodeld bundle or an .xcdatamodel folder"
            )
        }
        return contents
    }

    /// Whether the URL is a versioned bundle rather than one model.
    private static func isBundle(_ url: URL) -> Bool {
        if url.pathExtension == "xcdatamodeld" { return true }
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue,
            !fm.fileExists(atPath: url.appendingPathComponent("contents").path)
        else { return false }
        return fm.fileExists(atPath: url.appendingPathComponent(".xccurrentversion").path)
    }
}

extension ManagedObjectModel {
    /// Loads a model from an Xcode model file (`.xcdatamodel`, its `contents`, or the current
    /// version of an `.xcdatamodeld`), like `NSManagedObjectModel(contentsOf:)`, or nil when
    /// the file cannot be read or is not a valid model, as Apple's returns nil.
    ///
    /// Linux has no `NSClassFromString` to find an entity's `representedClassName`: its objects
    /// are ``ManagedObject``s. Give the classes with ``init(contentsOf:classes:)``, which also
    /// throws the error that makes this one nil.
    public convenience init?(contentsOf url: URL) {
        do { try self.init(contentsOf: url, classes: [:]) } catch { return nil }
    }

    /// Loads a model from an Xcode model file, its entities' objects of the classes given by
    /// class name (`representedClassName`), throwing ``CoreDataError`` naming the file and what
    /// is wrong.
    ///
    /// Use ``XcodeModelLoader`` to see what was skipped.
    public convenience init(contentsOf url: URL, classes: [String: ManagedObject.Type]) throws {
        let model = try XcodeModelLoader(classes: classes).loadModel(at: url)
        try self.init(
            entities: model.entities, versionIdentifiers: model.versionIdentifiers,
            configurations: model.configurationDescriptions,
            fetchRequestTemplates: model.fetchRequestTemplatesByName.keys.sorted().compactMap {
                model.fetchRequestTemplatesByName[$0]
            })
    }

    /// Every version of an `.xcdatamodeld` bundle and the current version's name.
    public static func versions(contentsOf url: URL, classes: [String: ManagedObject.Type] = [:]) throws -> ModelBundle
    {
        try XcodeModelLoader(classes: classes).loadBundle(at: url)
    }
}

extension ModelBundle {
    /// Loads an `.xcdatamodeld` bundle; use ``XcodeModelLoader`` to see what was skipped.
    public init(contentsOf url: URL, classes: [String: ManagedObject.Type] = [:]) throws {
        self = try XcodeModelLoader(classes: classes).loadBundle(at: url)
    }
}
