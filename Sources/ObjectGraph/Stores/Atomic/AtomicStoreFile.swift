import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reading and writing the files of the XML and binary stores.
///
/// The XML store follows the shape of Core Data's (<doc:OpeningStores>): a `<database>`
/// with `<databaseInfo>` (version, UUID, nextObjectID, the metadata property list, and this
/// store's `<primaryKeys>`, the last key of each inheritance tree) and one
/// `<object type="Entity" id="zN">` per object, holding `<attribute>` and `<relationship>`
/// elements. N is the object's key, unique within its inheritance tree, so a Category and a
/// ToDo may both be z1: a relationship's `destination` says which tree its idrefs are in. Where Core Data upper-cases entity names and lower-cases property names, this
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
        if head.contains("<database") || (head.hasPrefix("<?xml") && String(decoding: data.prefix(4096), as: UTF8.self).contains("<database")) { return .xml }
        if data.starts(with: Array("SQLite format 3".utf8)) { return .sqlite }
        return nil
    }

    /// A store read from the bytes of its file at `url` (named in errors).
    static func parse(_ data: Data, url: URL, type: StoreType, model: ManagedObjectModel) throws -> Loaded {
        let found = kind(of: data)
        guard found == type else {
            let what = found.map { "\($0.withArticle) store" } ?? "not a store"
            throw CoreDataError(found == nil ? .persistentStoreInvalidType : .persistentStoreTypeMismatch, "The file at \(url.path) is \(what), not \(type.withArticle) store; add it with type \(found?.kind?.swiftName ?? type.rawValue) or choose another file")
        }
        do {
            switch type {
            case .xml: return try readXML(data, model: model)
            default: return try readBinary(data, model: model)
            }
        } catch let error as CoreDataError {
            throw CoreDataError(error.code ?? .persistentStoreOpen, "The \(type.rawValue) store at \(url.path) is damaged: \(error.message)")
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
            throw CoreDataError(.fileReadNoSuchFile, "There is no store at \(url.path) yet (the file is empty; adding it makes a new store)")
        }
        guard kind(of: data) == type else {
            throw CoreDataError(.persistentStoreInvalidType, "The file at \(url.path) is not \(type.withArticle) store")
        }
        // The readers below name what is wrong but not the file, which only this caller knows.
        do {
            if type == .xml {
                let document = try xmlDocument(data)
                guard let info = document.rootElement()?.elements(forName: "databaseInfo").first else {
                    throw CoreDataError(.persistentStoreOpen, "it has no <databaseInfo>")
                }
                var metadata = try plist(fromXMLElement: info.elements(forName: "metadata").first)
                metadata["NSStoreUUID"] = info.elements(forName: "UUID").first?.stringValue ?? ""
                return metadata
            }
            let root = try binaryRoot(data)
            var metadata = root["metadata"] as? [String: Any] ?? [:]
            metadata["NSStoreUUID"] = root["NSStoreUUID"] as? String ?? ""
            return metadata
        } catch let error as CoreDataError {
            throw CoreDataError(error.code ?? .persistentStoreOpen, "The \(type.rawValue) store at \(url.path) is damaged: \(error.message)")
        }
    }

    /// How the file's version hashes match the model; error 134100 when they do not.
    static func checkCompatibility(_ metadata: [String: Any], model: ManagedObjectModel, url: URL) throws -> ManagedObjectModel.StoreHashMatch {
        guard let match = model.hashMatch(withStoreMetadata: metadata) else {
            throw model.incompatibleStoreError(metadata, url: url)
        }
        return match
    }

    /// Writes the whole store to a new file beside `url`, flushes it, renames it into place
    /// and flushes the folder; returns the new file's version, kept open. Called with the
    /// store's lock held, so the scratch file's name (by process id) is this writer's alone.
    @discardableResult
    static func write(_ contents: AtomicContents, identifier: String, metadata: [String: Any], to url: URL, type: StoreType, model: ManagedObjectModel) throws -> AtomicFileVersion {
        let data = type == .xml
            ? try xmlData(contents, identifier: identifier, metadata: metadata, model: model)
            : try binaryData(contents, identifier: identifier, metadata: metadata, model: model)
        let temporary = AtomicScratchFiles.url(for: url)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CoreDataError(.persistentStoreSave, "Could not write the store at \(url.path): \(temporary.path): \(String(cString: strerror(errno)))")
        }
        do {
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            try handle.write(contentsOf: data)
            try handle.synchronize()
            guard rename(temporary.path, url.path) == 0 else {
                throw CoreDataError(.persistentStoreSave, "Could not move the new store file into place at \(url.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            closeDescriptor(descriptor)
            try? FileManager.default.removeItem(at: temporary)
            if let error = error as? CoreDataError { throw error }
            throw CoreDataError(.persistentStoreSave, "Could not write the store at \(url.path): \(error.localizedDescription)")
        }
        // The rename itself survives a power cut only once the folder is flushed.
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if folder >= 0 { _ = fsync(folder); closeDescriptor(folder) }
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
        func bad() -> CoreDataError { CoreDataError(.persistentStoreOpen, "\"\(text)\" is not a valid \(type.xcodeName) value") }
        switch type {
        case .integer16, .integer32, .integer64: guard let i = Int(text) else { throw bad() }; return i
        case .boolean: return text == "1" || text.lowercased() == "true"
        case .double, .float: guard let d = Double(text) else { throw bad() }; return d
        case .decimal: guard let d = Decimal(string: text) else { throw bad() }; return d
        case .string: return text
        case .date: guard let t = Double(text) else { throw bad() }; return Date(timeIntervalSinceReferenceDate: t)
        case .binaryData:
            // Core Data's XML store (and Xcode's xcmapping.xml) breaks base64 into lines.
            guard let d = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { throw bad() }
            return d
        case .uuid: guard let u = UUID(uuidString: text) else { throw bad() }; return u
        case .uri: guard let u = URL(string: text) else { throw bad() }; return u
        case .undefined, .transformable, .objectID, .composite:
            throw CoreDataError(.persistentStoreOpen, "The store holds a \(type.xcodeName) value, which ObjectGraph's atomic stores do not read yet")
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
                    if let id = row.values[entity.attributes.count + n].objectID { object.toOne[r.name] = id.primaryKey }
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

    static func contents(from objects: [FileObject], lastKeys: [String: Int64], model: ManagedObjectModel) throws -> AtomicContents {
        for (root, last) in lastKeys where last > largestKey {
            throw CoreDataError(.persistentStoreOpen, "the last key of \(root) is \(last), beyond the largest a store may hold (\(largestKey))")
        }
        for object in objects where object.key > largestKey || object.version > largestKey {
            throw CoreDataError(.persistentStoreOpen, "object z\(object.key) (\(object.entity), version \(object.version)) has a key or version beyond the largest a store may hold (\(largestKey))")
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
                throw CoreDataError(.persistentStoreOpen, "the id z\(object.key) is used twice (a \(first) and a \(object.entity)); every object needs its own id")
            }
            entityOfKey[root, default: [:]][object.key] = object.entity
        }
        func destination(_ r: RelationshipDescription, _ key: Int64) -> String? {
            model.entitiesByName[r.destinationEntityName].flatMap { entityOfKey[$0.rootEntityName]?[key] }
        }
        for object in objects {
            guard let entity = model.entitiesByName[object.entity] else {
                throw CoreDataError(.persistentStoreOpen, "object z\(object.key) is of the entity \(object.entity), which the model does not have")
            }
            var values = [AttributeValue](repeating: .null, count: entity.attributes.count + entity.relationships.count)
            for (i, a) in entity.attributes.enumerated() { values[i] = AttributeValue(object.attributes[a.name]) }
            for (n, r) in entity.relationships.enumerated() where !r.isToMany {
                guard let key = object.toOne[r.name] else { continue }
                guard let destination = destination(r, key) else {
                    throw CoreDataError(.persistentStoreOpen, "object z\(object.key) (\(object.entity)) has \(r.name) pointing to z\(key), which is not in the store")
                }
                values[entity.attributes.count + n] = .objectID(ManagedObjectID(entityName: destination, storeIdentifier: "", primaryKey: key))
            }
            for (name, keys) in object.toMany {
                guard let r = entity.relationship(named: name) else { continue }
                let (linkKey, _) = model.manyToManyKey(entity: object.entity, relationship: r)
                for key in keys where destination(r, key) != nil { contents.links[linkKey, default: []].insert([object.key, key]) }
            }
            contents.rows[entity.rootEntityName, default: [:]][object.key] = StoreRow(entityName: object.entity, primaryKey: object.key, version: object.version, values: values)
            contents.lastKeys[entity.rootEntityName] = max(contents.lastKeys[entity.rootEntityName, default: 0], object.key)
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
                    return .objectID(ManagedObjectID(entityName: id.entityName, storeIdentifier: identifier, primaryKey: id.primaryKey))
                }
                stamped.rows[root]![key] = row
            }
        }
        return stamped
    }

    // MARK: XML

    /// Checks that XML is well formed, naming the line of the first error: XMLDocument alone
    /// recovers from some damage silently.
    final class WellFormedness: NSObject, XMLParserDelegate {
        var failure: String?
        private var depth = 0
        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            depth += 1
            guard depth > XMLText.maximumDepth else { return }
            if failure == nil { failure = "line \(parser.lineNumber): elements nested deeper than \(XMLText.maximumDepth)" }
            parser.abortParsing()
        }
        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?) {
            depth -= 1
        }
        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if failure == nil { failure = "line \(parser.lineNumber): \(parseError.localizedDescription)" }
        }
    }

    static func xmlDocument(_ data: Data) throws -> XMLDocument {
        let parseable: Data
        do {
            parseable = try XMLText.parseable(data)
        } catch {
            throw CoreDataError(.persistentStoreOpen, "line \(error.line): \(error.reason), which Core Data's XML store never is or holds")
        }
        // From a stream: swift-corelibs-foundation's XMLParser(data:) hands libxml2 the whole
        // document at once and fails on any document over 10 MB; a stream goes in pieces.
        let parser = XMLParser(stream: InputStream(data: parseable))
        let checker = WellFormedness()
        parser.delegate = checker
        // swift-corelibs-foundation's parse() can return true after reporting an error.
        if !parser.parse() || checker.failure != nil {
            throw CoreDataError(.persistentStoreOpen, "the XML is not well formed at \(checker.failure ?? "line \(parser.lineNumber)")")
        }
        do {
            // Never load an external entity, even if one got past XMLText.parseable.
            return try XMLDocument(data: parseable, options: [.nodeLoadExternalEntitiesNever])
        } catch {
            throw CoreDataError(.persistentStoreOpen, "the XML does not parse: \(error.localizedDescription)")
        }
    }

    static func plist(fromXMLElement element: XMLElement?) throws -> [String: Any] {
        guard let plistElement = element?.elements(forName: "plist").first else { return [:] }
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + plistElement.xmlString
        guard let value = try? PropertyListSerialization.propertyList(from: Data(text.utf8), options: [], format: nil) as? [String: Any] else {
            throw CoreDataError(.persistentStoreOpen, "the metadata is not a property list")
        }
        return value
    }

    static func xmlData(_ contents: AtomicContents, identifier: String, metadata: [String: Any], model: ManagedObjectModel) throws -> Data {
        var stored = metadata
        stored["NSStoreUUID"] = nil
        let plistData = try propertyListData(stored, format: .xml)
        var plistText = String(decoding: plistData, as: UTF8.self)
        if let start = plistText.range(of: "<plist") { plistText = String(plistText[start.lowerBound...]) }
        var out = "<?xml version=\"1.0\" standalone=\"yes\"?>\n<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">\n\n<database>\n"
        out += "    <databaseInfo>\n        <version>134481920</version>\n        <UUID>\(identifier)</UUID>\n"
        out += "        <nextObjectID>\(contents.lastKey + 1)</nextObjectID>\n"
        out += primaryKeysXML(contents.lastKeys)
        out += "        <metadata>\(plistText.trimmingCharacters(in: .whitespacesAndNewlines))</metadata>\n    </databaseInfo>\n"
        for object in fileObjects(contents, model: model) {
            let entity = model.entitiesByName[object.entity]!
            out += "    <object type=\"\(escape(object.entity))\" id=\"z\(object.key)\" version=\"\(object.version)\">\n"
            for a in entity.attributes where object.attributes[a.name] != nil {
                let value = text(object.attributes[a.name]!, type: a.attributeType)
                if a.attributeType == .string && !XMLText.canCarry(value) {
                    out += "        <attribute name=\"\(escape(a.name))\" type=\"string\" encoding=\"base64\">\(Data(value.utf8).base64EncodedString())</attribute>\n"
                } else {
                    out += "        <attribute name=\"\(escape(a.name))\" type=\"\(xmlTypeName(a.attributeType))\">\(escape(value))</attribute>\n"
                }
            }
            for r in entity.relationships {
                if let key = object.toOne[r.name] {
                    out += "        <relationship name=\"\(escape(r.name))\" type=\"1/1\" destination=\"\(escape(r.destinationEntityName))\" idrefs=\"z\(key)\"></relationship>\n"
                } else if let keys = object.toMany[r.name] {
                    out += "        <relationship name=\"\(escape(r.name))\" type=\"0/0\" destination=\"\(escape(r.destinationEntityName))\" idrefs=\"\(keys.map { "z\($0)" }.joined(separator: " "))\"></relationship>\n"
                }
            }
            out += "    </object>\n"
        }
        out += "</database>\n"
        return Data(out.utf8)
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static func readXML(_ data: Data, model: ManagedObjectModel) throws -> Loaded {
        let document = try xmlDocument(data)
        guard let root = document.rootElement(), root.name == "database",
              let info = root.elements(forName: "databaseInfo").first,
              let uuid = info.elements(forName: "UUID").first?.stringValue else {
            throw CoreDataError(.persistentStoreOpen, "it has no <database> with <databaseInfo> and <UUID>")
        }
        let metadata = try plist(fromXMLElement: info.elements(forName: "metadata").first)
        let nextObjectID = Int64(info.elements(forName: "nextObjectID").first?.stringValue ?? "") ?? 1
        let lastKeys = try lastKeys(info, nextObjectID: nextObjectID, model: model)
        var objects: [FileObject] = []
        for element in root.elements(forName: "object") {
            guard let type = element.attribute(forName: "type")?.stringValue,
                  let idText = element.attribute(forName: "id")?.stringValue, idText.hasPrefix("z"),
                  let key = Int64(idText.dropFirst()) else {
                throw CoreDataError(.persistentStoreOpen, "an <object> has no type or no id of the form zN")
            }
            guard let entity = model.entitiesByName[type] else {
                throw CoreDataError(.persistentStoreOpen, "object \(idText) is of the entity \(type), which the model does not have")
            }
            var object = FileObject(entity: type, key: key, version: Int64(element.attribute(forName: "version")?.stringValue ?? "") ?? 1)
            for attribute in element.elements(forName: "attribute") {
                guard let name = attribute.attribute(forName: "name")?.stringValue, let a = entity.attribute(named: name) else { continue }
                if let encoding = attribute.attribute(forName: "encoding")?.stringValue {
                    guard encoding == "base64", a.attributeType == .string else {
                        throw CoreDataError(.persistentStoreOpen, "\(name) of object \(idText) has encoding=\"\(encoding)\", which only a string attribute may have, as base64")
                    }
                    guard let bytes = Data(base64Encoded: attribute.stringValue ?? ""), let text = String(data: bytes, encoding: .utf8) else {
                        throw CoreDataError(.persistentStoreOpen, "\(name) of object \(idText) is not base64 of UTF-8 text")
                    }
                    object.attributes[name] = text
                    continue
                }
                object.attributes[name] = try value(attribute.stringValue ?? "", type: a.attributeType)
            }
            for relationship in element.elements(forName: "relationship") {
                guard let name = relationship.attribute(forName: "name")?.stringValue, let r = entity.relationship(named: name) else { continue }
                let keys = (relationship.attribute(forName: "idrefs")?.stringValue ?? "").split(separator: " ").compactMap { Int64($0.dropFirst()) }
                if r.isToMany { object.toMany[name] = keys } else if let first = keys.first { object.toOne[name] = first }
            }
            objects.append(object)
        }
        let contents = stamp(try self.contents(from: objects, lastKeys: lastKeys, model: model), identifier: uuid)
        var full = metadata
        full["NSStoreUUID"] = uuid
        return Loaded(identifier: uuid, metadata: full, contents: contents)
    }

    /// The `<primaryKeys>` element of `<databaseInfo>`: the last key handed out in each
    /// inheritance tree, as SQLite's `Z_PRIMARYKEY.Z_MAX`. Keys count per tree (an atomic
    /// store's reference object "must be unique for an instance within its entity's
    /// inheritance hierarchy", NSAtomicStore `newReferenceObject(for:)`), so the first three
    /// to-dos are 1, 2 and 3 whatever else the store holds; `nextObjectID`, one number for the
    /// whole file as Core Data's XML store writes it, would make every tree skip the keys the
    /// others took. A tree's count stays when its last object is deleted: a deleted object's
    /// key is never handed out again while the store lives.
    static func primaryKeysXML(_ lastKeys: [String: Int64]) -> String {
        let counted = lastKeys.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        guard !counted.isEmpty else { return "" }
        var out = "        <primaryKeys>\n"
        for (root, last) in counted {
            out += "            <primaryKey entity=\"\(escape(root))\" max=\"\(last)\"></primaryKey>\n"
        }
        return out + "        </primaryKeys>\n"
    }

    /// The last key of each tree, from `<primaryKeys>`. A file without it (written before
    /// keys counted per tree, or by Core Data) numbered all objects with one count, and which
    /// tree a deleted key belonged to is not known: every tree continues after
    /// `nextObjectID`, so no deleted object's key is reused and every object keeps its own.
    static func lastKeys(_ info: XMLElement, nextObjectID: Int64, model: ManagedObjectModel) throws -> [String: Int64] {
        guard let element = info.elements(forName: "primaryKeys").first else {
            let roots = model.entities.filter { $0.parentEntityName == nil }
            // Not nextObjectID - 1 first: the file may say Int64.min, and that would trap.
            let last = nextObjectID > 0 ? nextObjectID - 1 : 0
            return Dictionary(uniqueKeysWithValues: roots.map { ($0.name, last) })
        }
        var lastKeys: [String: Int64] = [:]
        for (n, entry) in element.elements(forName: "primaryKey").enumerated() {
            let entity = entry.attribute(forName: "entity")?.stringValue ?? ""
            let text = entry.attribute(forName: "max")?.stringValue ?? ""
            guard !entity.isEmpty, let last = Int64(text), last >= 0 else {
                throw CoreDataError(.persistentStoreOpen, "<primaryKey> \(n + 1) in <primaryKeys> needs an entity and a max of 0 or more (entity=\"\(entity)\" max=\"\(text)\")")
            }
            // Keys of an entity the model no longer has are kept: a later version may have it.
            lastKeys[entity] = max(lastKeys[entity, default: 0], last)
        }
        return lastKeys
    }

    // MARK: Binary

    static func binaryRoot(_ data: Data) throws -> [String: Any] {
        // Foundation's reader follows shared references without bound, and crashes on a set
        // (checkSharing).
        do { try BinaryPropertyList.checkSharing(data, asPropertyList: true) } catch let error as BinaryPropertyList.FormatError {
            throw CoreDataError(.persistentStoreOpen, error.reason)
        }
        guard let root = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any],
              root["NSStoreUUID"] is String else {
            throw CoreDataError(.persistentStoreInvalidType, "it is a property list but not a binary store")
        }
        return root
    }

    static func plistValue(_ value: Any, type: AttributeType) -> Any {
        switch value {
        case let d as Decimal: return d.description
        case let u as UUID: return u.uuidString
        case let u as URL: return u.absoluteString
        default: return value
        }
    }

    static func binaryData(_ contents: AtomicContents, identifier: String, metadata: [String: Any], model: ManagedObjectModel) throws -> Data {
        var stored = metadata
        stored["NSStoreUUID"] = nil
        let objects: [[String: Any]] = fileObjects(contents, model: model).map { object in
            let entity = model.entitiesByName[object.entity]!
            var attributes: [String: Any] = [:]
            for (name, value) in object.attributes { attributes[name] = plistValue(value, type: entity.attribute(named: name)!.attributeType) }
            return ["entity": object.entity, "id": object.key, "version": object.version, "attributes": attributes,
                    "toOne": object.toOne, "toMany": object.toMany]
        }
        let root: [String: Any] = ["NSStoreUUID": identifier, "metadata": stored, "lastKeys": contents.lastKeys, "objects": objects]
        return try propertyListData(root, format: .binary)
    }

    /// Foundation's property list data for a store file; its NSError, for a value no property
    /// list holds (a keyed archive's UID that a damaged file held, found by Fuzz/run.sh
    /// binarystore, whose check saves what it reads), as the save's CoreDataError.
    static func propertyListData(_ value: Any, format: PropertyListSerialization.PropertyListFormat) throws -> Data {
        do {
            return try PropertyListSerialization.data(fromPropertyList: value, format: format, options: 0)
        } catch {
            throw CoreDataError(.persistentStoreSave, "The store's contents cannot be written as a property list: \(error.localizedDescription) (a value the file held when it was read, or metadata set since, is of a type no property list holds)")
        }
    }

    static func readBinary(_ data: Data, model: ManagedObjectModel) throws -> Loaded {
        let root = try binaryRoot(data)
        guard let uuid = root["NSStoreUUID"] as? String else {
            throw CoreDataError(.persistentStoreInvalidType, "it is a property list but not a binary store (it has no NSStoreUUID)")
        }
        var objects: [FileObject] = []
        for entry in root["objects"] as? [[String: Any]] ?? [] {
            guard let name = entry["entity"] as? String, let key = (entry["id"] as? NSNumber)?.int64Value,
                  let entity = model.entitiesByName[name] else {
                throw CoreDataError(.persistentStoreOpen, "an object has no entity the model knows, or no id")
            }
            var object = FileObject(entity: name, key: key, version: (entry["version"] as? NSNumber)?.int64Value ?? 1)
            for (attributeName, raw) in entry["attributes"] as? [String: Any] ?? [:] {
                guard let a = entity.attribute(named: attributeName) else { continue }
                switch (a.attributeType, raw) {
                case (.decimal, let s as String), (.uuid, let s as String), (.uri, let s as String):
                    object.attributes[attributeName] = try value(s, type: a.attributeType)
                case (.boolean, let n as NSNumber): object.attributes[attributeName] = n.boolValue
                case (.integer16, let n as NSNumber), (.integer32, let n as NSNumber), (.integer64, let n as NSNumber):
                    object.attributes[attributeName] = n.intValue
                case (.double, let n as NSNumber), (.float, let n as NSNumber): object.attributes[attributeName] = n.doubleValue
                case (.string, let s as String): object.attributes[attributeName] = s
                case (.date, let d as Date): object.attributes[attributeName] = d
                case (.binaryData, let d as Data), (.transformable, let d as Data): object.attributes[attributeName] = d
                case (.string, _), (.date, _), (.binaryData, _), (.transformable, _), (.boolean, _), (.integer16, _), (.integer32, _),
                     (.integer64, _), (.double, _), (.float, _), (.decimal, _), (.uuid, _), (.uri, _):
                    // A value of another type (a keyed archive's UID, say) read as it was, and the
                    // next save failed to write it with Foundation's error (found by Fuzz/run.sh
                    // binarystore, whose check saves what it reads).
                    throw CoreDataError(.persistentStoreOpen, "\(attributeName) of object z\(key) (\(name)) holds \(Swift.type(of: raw)), not a \(a.attributeType.xcodeName) value")
                default: object.attributes[attributeName] = raw
                }
            }
            for (relationshipName, raw) in entry["toOne"] as? [String: Any] ?? [:] {
                if let n = raw as? NSNumber { object.toOne[relationshipName] = n.int64Value }
            }
            for (relationshipName, raw) in entry["toMany"] as? [String: Any] ?? [:] {
                object.toMany[relationshipName] = (raw as? [NSNumber] ?? []).map(\.int64Value)
            }
            objects.append(object)
        }
        let lastKeys = (root["lastKeys"] as? [String: NSNumber] ?? [:]).mapValues(\.int64Value)
        let contents = stamp(try self.contents(from: objects, lastKeys: lastKeys, model: model), identifier: uuid)
        var metadata = root["metadata"] as? [String: Any] ?? [:]
        metadata["NSStoreUUID"] = uuid
        return Loaded(identifier: uuid, metadata: metadata, contents: contents)
    }
}
