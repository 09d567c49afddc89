import Foundation

/// The XML store's file: Core Data's `<database>` document (the format is described on
/// `AtomicStoreFile`), read through `XMLText.parseable(_:)` and written as text.
extension AtomicStoreFile {
    /// The XML store file's root element, or an error naming the line of what is wrong.
    static func xmlRoot(_ data: Data) throws -> XMLElementNode {
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
    static func plist(fromXMLElement element: XMLElementNode?) throws -> [String: Any] {
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

    static func xmlData(
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
        for object in fileObjects(contents, model: model) {
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
    static func escape(_ s: String) -> String { XMLText.escaped(s, inAttribute: false) }

    static func readXML(_ data: Data, model: ManagedObjectModel) throws -> Loaded {
        let root = try xmlRoot(data)
        guard root.name == "database", let info = root.firstChild(named: "databaseInfo"),
            let uuid = info.firstChild(named: "UUID")?.text
        else {
            throw CoreDataError(.persistentStoreOpen, "it has no <database> with <databaseInfo> and <UUID>")
        }
        let metadata = try plist(fromXMLElement: info.firstChild(named: "metadata"))
        let nextObjectID = Int64(info.firstChild(named: "nextObjectID")?.text ?? "") ?? 1
        let lastKeys = try lastKeys(info, nextObjectID: nextObjectID, model: model)
        var objects: [FileObject] = []
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
            var object = FileObject(
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
    static func lastKeys(_ info: XMLElementNode, nextObjectID: Int64, model: ManagedObjectModel) throws -> [String:
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
}
