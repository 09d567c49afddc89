import Foundation

/// Reading and writing the files of the XML and binary stores.
///
/// The XML store follows the shape of Core Data's (<doc:OpeningStores>): a `<database>`
/// with `<databaseInfo>` (version, UUID, nextObjectID, the metadata property list, and this
/// store's `<primaryKeys>`, the last key of each inheritance tree) and one
/// `<object type="Entity" id="zN">` per object, holding `<attribute>` and `<relationship>`
/// elements. N is the object's key, unique within its inheritance tree, so a Category and a
/// ToDo may both be z1: a relationship's `destination` says which tree its idrefs are in. Where Core Data upper-cases
/// entity names and lower-cases property names, this
/// store keeps the model's names, so nothing is lost reading them back. The binary store is a
/// binary property list of the same content (Apple's is a keyed archive, which Linux has no
/// use for).
///
/// Values in the XML file: an ordinary string is its own text, escaped (`&amp;`, `&lt;`,
/// `&gt;`, `&quot;`, and `&#13;` for a carriage return); a string holding anything XML 1.0
/// cannot carry (a control character other than tab, line feed and carriage return, NUL,
/// U+FFFE, U+FFFF) is written as base64 of its UTF-8 bytes in an attribute element marked
/// `encoding="base64"`, so it reads back exactly; binary data is always base64. Numbers and
/// dates are their shortest exact decimal text (`nan`, `inf`, `-0.0` included); decimals are
/// their decimal text (a Decimal NaN is refused at save, see ``AtomicValueCheck``). Reading is
/// strict: a file that is not well formed is an error naming the line, and two objects with
/// one id are an error naming the id.
enum AtomicStoreFile {
    struct Loaded {
        var identifier: String
        var metadata: [String: Any]
        var contents: AtomicContents
    }

    /// Which kind of atomic store a file is, judged from its first bytes.
    static func kind(of data: Data) -> StoreType? {
        if data.starts(with: Array("bplist00".utf8)) { return .binary }
        let head = String(decoding: data.prefix(256), as: UTF8.self)
        if head.contains("<database")
            || (head.hasPrefix("<?xml") && String(decoding: data.prefix(4096), as: UTF8.self).contains("<database"))
        {
            return .xml
        }
        if data.starts(with: Array("SQLite format 3".utf8)) { return .sqlite }
        return nil
    }

    /// A store read from the bytes of its file at `url` (named in errors).
    static func parse(_ data: Data, url: URL, type: StoreType, model: ManagedObjectModel) throws -> Loaded {
        let found = kind(of: data)
        guard found == type else {
            let what = found.map { "\($0.withArticle) store" } ?? "not a store"
            throw CoreDataError(
                found == nil ? .persistentStoreInvalidType : .persistentStoreTypeMismatch,
                "The file at \(url.path) is \(what), not \(type.withArticle) store; add it with type \(found?.kind?.swiftName ?? type.rawValue) or choose another file"
            )
        }
        do {
            switch type {
            case .xml: return try readXML(data, model: model)
            default: return try readBinary(data, model: model)
            }
        } catch let error as CoreDataError {
            throw CoreDataError(
                error.code ?? .persistentStoreOpen,
                "The \(type.rawValue) store at \(url.path) is damaged: \(error.message)")
        }
    }

    /// The metadata of a store file, read without opening the store for use.
    static func metadata(at url: URL, type: StoreType) throws -> [String: Any] {
        // Reading the whole file is the only way for an atomic store; nothing is kept.
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
        guard kind(of: data) == type else {
            throw CoreDataError(.persistentStoreInvalidType, "The file at \(url.path) is not \(type.withArticle) store")
        }
        // The readers below name what is wrong but not the file, which only this caller knows.
        do {
            if type == .xml {
                guard let info = try xmlRoot(data).firstChild(named: "databaseInfo") else {
                    throw CoreDataError(.persistentStoreOpen, "it has no <databaseInfo>")
                }
                var metadata = try plist(fromXMLElement: info.firstChild(named: "metadata"))
                metadata["NSStoreUUID"] = info.firstChild(named: "UUID")?.text ?? ""
                return metadata
            }
            let root = try binaryRoot(data)
            var metadata = root["metadata"] as? [String: Any] ?? [:]
            metadata["NSStoreUUID"] = root["NSStoreUUID"] as? String ?? ""
            return metadata
        } catch let error as CoreDataError {
            throw CoreDataError(
                error.code ?? .persistentStoreOpen,
                "The \(type.rawValue) store at \(url.path) is damaged: \(error.message)")
        }
    }

    /// How the file's version hashes match the model; error 134100 when they do not.
    static func checkCompatibility(_ metadata: [String: Any], model: ManagedObjectModel, url: URL) throws
        -> ManagedObjectModel.StoreHashMatch
    {
        guard let match = model.hashMatch(withStoreMetadata: metadata) else {
            throw model.incompatibleStoreError(metadata, url: url)
        }
        return match
    }

    /// Writes the whole store to a new file beside `url`, flushes it, renames it into place
    /// and flushes the folder; returns the new file's version, kept open. Called with the
    /// store's lock held, so the scratch file's name (by process id) is this writer's alone.
    @discardableResult
    static func write(
        _ contents: AtomicContents, identifier: String, metadata: [String: Any], to url: URL, type: StoreType,
        model: ManagedObjectModel
    ) throws -> AtomicFileVersion {
        let data =
            type == .xml
            ? try xmlData(contents, identifier: identifier, metadata: metadata, model: model)
            : try binaryData(contents, identifier: identifier, metadata: metadata, model: model)
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

    // MARK: Values

    /// An attribute value as text, for the XML store.
    static func text(_ value: Any, type: AttributeType) -> String {
        switch (type, value) {
        case (.boolean, let b as Bool): return b ? "1" : "0"
        case (_, let d as Double): return d.description
        case (_, let d as Date): return d.timeIntervalSinceReferenceDate.description
        case (_, let d as Data): return d.base64EncodedString()
        case (_, let u as UUID): return u.uuidString
        case (_, let u as URL): return u.absoluteString
        default: return "\(value)"
        }
    }

    /// An attribute value read back from text.
    static func value(_ text: String, type: AttributeType) throws -> Any {
        func bad() -> CoreDataError {
            CoreDataError(.persistentStoreOpen, "\"\(text)\" is not a valid \(type.xcodeName) value")
        }
        switch type {
        case .integer16, .integer32, .integer64:
            guard let i = Int(text) else { throw bad() }
            return i
        case .boolean: return text == "1" || text.lowercased() == "true"
        case .double, .float:
            guard let d = Double(text) else { throw bad() }
            return d
        case .decimal:
            guard let d = Decimal(string: text) else { throw bad() }
            return d
        case .string: return text
        case .date:
            guard let t = Double(text) else { throw bad() }
            return Date(timeIntervalSinceReferenceDate: t)
        case .binaryData:
            // Core Data's XML store (and Xcode's xcmapping.xml) breaks base64 into lines.
            guard let d = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { throw bad() }
            return d
        case .uuid:
            guard let u = UUID(uuidString: text) else { throw bad() }
            return u
        case .uri:
            guard let u = URL(string: text) else { throw bad() }
            return u
        case .undefined, .transformable, .objectID, .composite:
            throw CoreDataError(
                .persistentStoreOpen,
                "The store holds a \(type.xcodeName) value, which ObjectGraph's atomic stores do not read yet")
        }
    }

    /// The XML store's name for a type, as Core Data's XML files write it.
    static func xmlTypeName(_ type: AttributeType) -> String {
        switch type {
        case .integer16: return "int16"
        case .integer32: return "int32"
        case .integer64: return "int64"
        case .decimal: return "decimal"
        case .double: return "double"
        case .float: return "float"
        case .string: return "string"
        case .boolean: return "bool"
        case .date: return "date"
        case .binaryData: return "binary"
        case .uuid: return "uuid"
        case .uri: return "uri"
        case .undefined: return "undefined"
        case .transformable: return "transformable"
        case .objectID: return "objectid"
        case .composite: return "composite"
        }
    }

    // MARK: Objects, format-neutral

    /// One object as the files hold it.
    struct FileObject {
        var entity: String
        var key: Int64
        var version: Int64
        var attributes: [String: Any] = [:]
        /// To-one relationships: destination key.
        var toOne: [String: Int64] = [:]
        /// Many-to-many relationships, on the side that names the pair: destination keys.
        var toMany: [String: [Int64]] = [:]
    }

    static func fileObjects(_ contents: AtomicContents, model: ManagedObjectModel) -> [FileObject] {
        var objects: [FileObject] = []
        let allRows = contents.rows.values.flatMap(\.values).sorted { $0.primaryKey < $1.primaryKey }
        for row in allRows {
            guard let entity = model.entitiesByName[row.entityName] else { continue }
            var object = FileObject(entity: row.entityName, key: row.primaryKey, version: row.version)
            for (i, a) in entity.attributes.enumerated() where !a.isTransient {
                if let v = row.values[i].any { object.attributes[a.name] = v }
            }
            for (n, r) in entity.relationships.enumerated() {
                if !r.isToMany {
                    if let id = row.values[entity.attributes.count + n].objectID {
                        object.toOne[r.name] = id.primaryKey
                    }
                    continue
                }
                guard let inverse = model.inverseRelationship(of: r), inverse.isToMany else { continue }
                let (key, isOwner) = model.manyToManyKey(entity: row.entityName, relationship: r)
                guard isOwner else { continue }
                let keys = (contents.links[key] ?? []).filter { $0[0] == row.primaryKey }.map { $0[1] }.sorted()
                if !keys.isEmpty { object.toMany[r.name] = keys }
            }
            objects.append(object)
        }
        return objects
    }

    /// The largest key, version or last key a file may hold. Each counts up from what the file
    /// says (the next insert's key, the next save's version), so one near Int64.max trapped on
    /// overflow at the first insert or save after reading (found while making the store fuzzers
    /// write what they read); 2^62 leaves as many again.
    static let largestKey: Int64 = 1 << 62

    static func contents(from objects: [FileObject], lastKeys: [String: Int64], model: ManagedObjectModel) throws
        -> AtomicContents
    {
        for (root, last) in lastKeys where last > largestKey {
            throw CoreDataError(
                .persistentStoreOpen,
                "the last key of \(root) is \(last), beyond the largest a store may hold (\(largestKey))")
        }
        for object in objects where object.key > largestKey || object.version > largestKey {
            throw CoreDataError(
                .persistentStoreOpen,
                "object z\(object.key) (\(object.entity), version \(object.version)) has a key or version beyond the largest a store may hold (\(largestKey))"
            )
        }
        var contents = AtomicContents()
        contents.lastKeys = lastKeys
        // Keys are unique within an inheritance tree (a store moved from SQLite numbers each
        // table on its own), so a relationship's key is looked up in its destination's tree.
        var entityOfKey: [String: [Int64: String]] = [:]
        for object in objects {
            guard let root = model.entitiesByName[object.entity]?.rootEntityName else { continue }
            // Two objects with one id would be merged into one, silently losing the other.
            if let first = entityOfKey[root]?[object.key] {
                throw CoreDataError(
                    .persistentStoreOpen,
                    "the id z\(object.key) is used twice (a \(first) and a \(object.entity)); every object needs its own id"
                )
            }
            entityOfKey[root, default: [:]][object.key] = object.entity
        }
        func destination(_ r: RelationshipDescription, _ key: Int64) -> String? {
            model.entitiesByName[r.destinationEntityName].flatMap { entityOfKey[$0.rootEntityName]?[key] }
        }
        for object in objects {
            guard let entity = model.entitiesByName[object.entity] else {
                throw CoreDataError(
                    .persistentStoreOpen,
                    "object z\(object.key) is of the entity \(object.entity), which the model does not have")
            }
            var values = [AttributeValue](repeating: .null, count: entity.attributes.count + entity.relationships.count)
            for (i, a) in entity.attributes.enumerated() { values[i] = AttributeValue(object.attributes[a.name]) }
            for (n, r) in entity.relationships.enumerated() where !r.isToMany {
                guard let key = object.toOne[r.name] else { continue }
                guard let destination = destination(r, key) else {
                    throw CoreDataError(
                        .persistentStoreOpen,
                        "object z\(object.key) (\(object.entity)) has \(r.name) pointing to z\(key), which is not in the store"
                    )
                }
                values[entity.attributes.count + n] = .objectID(
                    ManagedObjectID(entityName: destination, storeIdentifier: "", primaryKey: key))
            }
            for (name, keys) in object.toMany {
                guard let r = entity.relationship(named: name) else { continue }
                let (linkKey, _) = model.manyToManyKey(entity: object.entity, relationship: r)
                for key in keys where destination(r, key) != nil {
                    contents.links[linkKey, default: []].insert([object.key, key])
                }
            }
            contents.rows[entity.rootEntityName, default: [:]][object.key] = StoreRow(
                entityName: object.entity, primaryKey: object.key, version: object.version, values: values)
            contents.lastKeys[entity.rootEntityName] = max(
                contents.lastKeys[entity.rootEntityName, default: 0], object.key)
        }
        return contents
    }

    /// Store IDs inside rows carry the store's UUID once it is known.
    static func stamp(_ contents: AtomicContents, identifier: String) -> AtomicContents {
        var stamped = contents
        for (root, rows) in contents.rows {
            for (key, row) in rows {
                var row = row
                row.values = row.values.map { value in
                    guard let id = value.objectID else { return value }
                    return .objectID(
                        ManagedObjectID(
                            entityName: id.entityName, storeIdentifier: identifier, primaryKey: id.primaryKey))
                }
                stamped.rows[root]![key] = row
            }
        }
        return stamped
    }
}
