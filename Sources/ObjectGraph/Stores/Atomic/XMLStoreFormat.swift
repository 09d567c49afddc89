import Foundation

/// The XML store's file: Core Data's `<database>` document, read into `XMLElementNode`s and
/// written as text.
///
/// Its shape follows Core Data's (<doc:OpeningStores>): a `<database>` with `<databaseInfo>`
/// (version, UUID, nextObjectID, the metadata property list, and this store's
/// `<primaryKeys>`, the last key of each inheritance tree) and one
/// `<object type="Entity" id="zN">` per object, holding `<attribute>` and `<relationship>`
/// elements. N is the object's key, unique within its inheritance tree, so a Category and a
/// ToDo may both be z1: a relationship's `destination` says which tree its idrefs are in.
/// Where Core Data upper-cases entity names and lower-cases property names, this store keeps
/// the model's names, so nothing is lost reading them back.
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
struct XMLStoreFormat: AtomicFileFormat {
    let type = StoreType.xml

    /// A `<database>` element near the start: the file may begin with an XML declaration and
    /// a doctype, which Core Data's does.
    func recognizes(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(256), as: UTF8.self)
        return head.contains("<database")
            || (head.hasPrefix("<?xml") && String(decoding: data.prefix(4096), as: UTF8.self).contains("<database"))
    }

    func outline(of data: Data) throws -> AtomicStoreFile.Outline {
        let root = try root(of: data)
        guard let info = root.firstChild(named: "databaseInfo") else {
            throw CoreDataError(.persistentStoreOpen, "it has no <databaseInfo>")
        }
        var metadata = try plist(fromXMLElement: info.firstChild(named: "metadata"))
        metadata["NSStoreUUID"] = info.firstChild(named: "UUID")?.text ?? ""
        return AtomicStoreFile.Outline(
            metadata: metadata, entityNames: root.children(named: "object").map { $0.attributes["type"] ?? "?" })
    }

    /// The XML store file's root element, or an error naming the line of what is wrong.
    func root(of data: Data) throws -> XMLElementNode {
        do {
            return try XMLElementNode.parse(data)
        } catch .refused(let refusal) {
            throw CoreDataError(
                .persistentStoreOpen,
                "line \(refusal.line): \(refusal.reason), which Core Data's XML store never is or holds")
        } catch .malformed(let line, _, let reason) {
            throw CoreDataError(.persistentStoreOpen, "the XML is not well formed at line \(line): \(reason)")
        } catch .empty {
            throw CoreDataError(.persistentStoreOpen, "it has no XML element")
        }
    }

    /// The property list in a `<metadata>` element, or an empty one when there is none.
    func plist(fromXMLElement element: XMLElementNode?) throws -> [String: Any] {
        guard let plistElement = element?.firstChild(named: "plist") else { return [:] }
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + plistElement.xmlString
        guard
            let value = try? PropertyListSerialization.propertyList(from: Data(text.utf8), options: [], format: nil)
                as? [String: Any]
        else {
            throw CoreDataError(
                .persistentStoreOpen, "the metadata at line \(plistElement.line) is not a property list")
        }
        return value
    }

    func encode(
        _ contents: AtomicContents, identifier: String, metadata: [String: Any], model: ManagedObjectModel
    ) throws -> Data {
        var stored = metadata
        stored["NSStoreUUID"] = nil
        let plistData = try propertyListData(stored, format: .xml)
        var plistText = String(decoding: plistData, as: UTF8.self)
        if let start = plistText.range(of: "<plist") { plistText = String(plistText[start.lowerBound...]) }
        var out =
            "<?xml version=\"1.0\" standalone=\"yes\"?>\n<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">\n\n<database>\n"
        out += "    <databaseInfo>\n        <version>134481920</version>\n        <UUID>\(identifier)</UUID>\n"
        out += "        <nextObjectID>\(contents.lastKey + 1)</nextObjectID>\n"
        out += primaryKeysXML(contents.lastKeys)
        out +=
            "        <metadata>\(plistText.trimmingCharacters(in: .whitespacesAndNewlines))</metadata>\n    </databaseInfo>\n"
        for object in contents.fileObjects(model: model) {
            let entity = model.entitiesByName[object.entity]!
            out +=
                "    <object type=\"\(escape(object.entity))\" id=\"z\(object.key)\" version=\"\(object.version)\">\n"
            for a in entity.attributes where object.attributes[a.name] != nil {
                let value = text(object.attributes[a.name]!, type: a.attributeType)
                if a.attributeType == .string && !XMLText.canCarry(value) {
                    out +=
                        "        <attribute name=\"\(escape(a.name))\" type=\"string\" encoding=\"base64\">\(Data(value.utf8).base64EncodedString())</attribute>\n"
                } else {
                    out +=
                        "        <attribute name=\"\(escape(a.name))\" type=\"\(xmlTypeName(a.attributeType))\">\(escape(value))</attribute>\n"
                }
            }
            for r in entity.relationships {
                if let key = object.toOne[r.name] {
                    out +=
                        "        <relationship name=\"\(escape(r.name))\" type=\"1/1\" destination=\"\(escape(r.destinationEntityName))\" idrefs=\"z\(key)\"></relationship>\n"
                } else if let keys = object.toMany[r.name] {
                    out +=
                        "        <relationship name=\"\(escape(r.name))\" type=\"0/0\" destination=\"\(escape(r.destinationEntityName))\" idrefs=\"\(keys.map { "z\($0)" }.joined(separator: " "))\"></relationship>\n"
                }
            }
            out += "    </object>\n"
        }
        out += "</database>\n"
        return Data(out.utf8)
    }

    /// Element text and the store's own attribute values (names and ids, which hold no line
    /// feeds), as Core Data's XML store writes them.
    private func escape(_ s: String) -> String { XMLText.escaped(s, inAttribute: false) }

    func decode(_ data: Data, model: ManagedObjectModel) throws -> AtomicStoreFile.Loaded {
        let root = try root(of: data)
        guard root.name == "database", let info = root.firstChild(named: "databaseInfo"),
            let uuid = info.firstChild(named: "UUID")?.text
        else {
            throw CoreDataError(.persistentStoreOpen, "it has no <database> with <databaseInfo> and <UUID>")
        }
        let metadata = try plist(fromXMLElement: info.firstChild(named: "metadata"))
        let nextObjectID = Int64(info.firstChild(named: "nextObjectID")?.text ?? "") ?? 1
        let lastKeys = try lastKeys(info, nextObjectID: nextObjectID, model: model)
        var objects: [AtomicFileObject] = []
        for element in root.children(named: "object") {
            guard let type = element.attributes["type"],
                let idText = element.attributes["id"], idText.hasPrefix("z"),
                let key = Int64(idText.dropFirst())
            else {
                throw CoreDataError(.persistentStoreOpen, "an <object> has no type or no id of the form zN")
            }
            guard let entity = model.entitiesByName[type] else {
                throw CoreDataError(
                    .persistentStoreOpen, "object \(idText) is of the entity \(type), which the model does not have")
            }
            var object = AtomicFileObject(
                entity: type, key: key, version: Int64(element.attributes["version"] ?? "") ?? 1)
            for attribute in element.children(named: "attribute") {
                guard let name = attribute.attributes["name"],
                    let a = entity.attribute(named: name)
                else { continue }
                if let encoding = attribute.attributes["encoding"] {
                    guard encoding == "base64", a.attributeType == .string else {
                        throw CoreDataError(
                            .persistentStoreOpen,
                            "\(name) of object \(idText) has encoding=\"\(encoding)\", which only a string attribute may have, as base64"
                        )
                    }
                    guard let bytes = Data(base64Encoded: attribute.text),
                        let text = String(data: bytes, encoding: .utf8)
                    else {
                        throw CoreDataError(
                            .persistentStoreOpen, "\(name) of object \(idText) is not base64 of UTF-8 text")
                    }
                    object.attributes[name] = text
                    continue
                }
                object.attributes[name] = try value(attribute.text, type: a.attributeType)
            }
            for relationship in element.children(named: "relationship") {
                guard let name = relationship.attributes["name"],
                    let r = entity.relationship(named: name)
                else { continue }
                let keys = (relationship.attributes["idrefs"] ?? "").split(separator: " ")
                    .compactMap { Int64($0.dropFirst()) }
                if r.isToMany {
                    object.toMany[name] = keys
                } else if let first = keys.first {
                    object.toOne[name] = first
                }
            }
            objects.append(object)
        }
        let contents = try AtomicContents(fileObjects: objects, lastKeys: lastKeys, model: model)
            .stamped(identifier: uuid)
        var full = metadata
        full["NSStoreUUID"] = uuid
        return AtomicStoreFile.Loaded(identifier: uuid, metadata: full, contents: contents)
    }

    /// The `<primaryKeys>` element of `<databaseInfo>`: the last key handed out in each
    /// inheritance tree, as SQLite's `Z_PRIMARYKEY.Z_MAX`. Keys count per tree (an atomic
    /// store's reference object "must be unique for an instance within its entity's
    /// inheritance hierarchy", NSAtomicStore `newReferenceObject(for:)`), so the first three
    /// to-dos are 1, 2 and 3 whatever else the store holds; `nextObjectID`, one number for the
    /// whole file as Core Data's XML store writes it, would make every tree skip the keys the
    /// others took. A tree's count stays when its last object is deleted: a deleted object's
    /// key is never handed out again while the store lives.
    func primaryKeysXML(_ lastKeys: [String: Int64]) -> String {
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
    func lastKeys(_ info: XMLElementNode, nextObjectID: Int64, model: ManagedObjectModel) throws -> [String:
        Int64]
    {
        guard let element = info.firstChild(named: "primaryKeys") else {
            let roots = model.entities.filter { $0.parentEntityName == nil }
            // Not nextObjectID - 1 first: the file may say Int64.min, and that would trap.
            let last = nextObjectID > 0 ? nextObjectID - 1 : 0
            return Dictionary(uniqueKeysWithValues: roots.map { ($0.name, last) })
        }
        var lastKeys: [String: Int64] = [:]
        for (n, entry) in element.children(named: "primaryKey").enumerated() {
            let entity = entry.attributes["entity"] ?? ""
            let text = entry.attributes["max"] ?? ""
            guard !entity.isEmpty, let last = Int64(text), last >= 0 else {
                throw CoreDataError(
                    .persistentStoreOpen,
                    "<primaryKey> \(n + 1) in <primaryKeys> needs an entity and a max of 0 or more (entity=\"\(entity)\" max=\"\(text)\")"
                )
            }
            // Keys of an entity the model no longer has are kept: a later version may have it.
            lastKeys[entity] = max(lastKeys[entity, default: 0], last)
        }
        return lastKeys
    }

    /// An attribute value as text, as the XML store writes it.
    func text(_ value: Any, type: AttributeType) -> String {
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

    /// The XML store's name for a type, as Core Data's XML files write it.
    func xmlTypeName(_ type: AttributeType) -> String {
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
}
