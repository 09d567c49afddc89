import Foundation

/// The binary store's file: a binary property list of the same content as the XML store's
/// (Apple's is a keyed archive, which Linux has no use for), checked with
/// `BinaryPropertyList` before Foundation reads it.
struct BinaryStoreFormat: AtomicFileFormat {
    let type = StoreType.binary

    /// A binary property list's header.
    func recognizes(_ data: Data) -> Bool { data.starts(with: Array("bplist00".utf8)) }

    func outline(of data: Data) throws -> AtomicStoreFile.Outline {
        let root = try root(of: data)
        var metadata = root["metadata"] as? [String: Any] ?? [:]
        metadata["NSStoreUUID"] = root["NSStoreUUID"] as? String ?? ""
        let objects = root["objects"] as? [[String: Any]] ?? []
        return AtomicStoreFile.Outline(metadata: metadata, entityNames: objects.map { $0["entity"] as? String ?? "?" })
    }

    /// The file's root dictionary, checked before Foundation reads it.
    func root(of data: Data) throws -> [String: Any] {
        // Foundation's reader follows shared references without bound, and crashes on a set
        // (checkSharing).
        do { try BinaryPropertyList.checkSharing(data, asPropertyList: true) } catch let error
            as BinaryPropertyList.FormatError
        {
            throw CoreDataError(.persistentStoreOpen, error.reason)
        }
        guard
            let root = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                as? [String: Any],
            root["NSStoreUUID"] is String
        else {
            throw CoreDataError(.persistentStoreInvalidType, "it is a property list but not a binary store")
        }
        return root
    }

    func plistValue(_ value: Any, type: AttributeType) -> Any {
        switch value {
        case let d as Decimal: return d.description
        case let u as UUID: return u.uuidString
        case let u as URL: return u.absoluteString
        default: return value
        }
    }

    func encode(
        _ contents: AtomicContents, identifier: String, metadata: [String: Any], model: ManagedObjectModel
    ) throws -> Data {
        var stored = metadata
        stored["NSStoreUUID"] = nil
        let objects: [[String: Any]] = contents.fileObjects(model: model).map { object in
            let entity = model.entitiesByName[object.entity]!
            var attributes: [String: Any] = [:]
            for (name, value) in object.attributes {
                attributes[name] = plistValue(value, type: entity.attribute(named: name)!.attributeType)
            }
            return [
                "entity": object.entity, "id": object.key, "version": object.version, "attributes": attributes,
                "toOne": object.toOne, "toMany": object.toMany,
            ]
        }
        let root: [String: Any] = [
            "NSStoreUUID": identifier, "metadata": stored, "lastKeys": contents.lastKeys, "objects": objects,
        ]
        return try propertyListData(root, format: .binary)
    }

    func decode(_ data: Data, model: ManagedObjectModel) throws -> AtomicStoreFile.Loaded {
        let root = try root(of: data)
        guard let uuid = root["NSStoreUUID"] as? String else {
            throw CoreDataError(
                .persistentStoreInvalidType, "it is a property list but not a binary store (it has no NSStoreUUID)")
        }
        var objects: [AtomicFileObject] = []
        for entry in root["objects"] as? [[String: Any]] ?? [] {
            guard let name = entry["entity"] as? String, let key = (entry["id"] as? NSNumber)?.int64Value,
                let entity = model.entitiesByName[name]
            else {
                throw CoreDataError(.persistentStoreOpen, "an object has no entity the model knows, or no id")
            }
            var object = AtomicFileObject(
                entity: name, key: key, version: (entry["version"] as? NSNumber)?.int64Value ?? 1)
            for (attributeName, raw) in entry["attributes"] as? [String: Any] ?? [:] {
                guard let a = entity.attribute(named: attributeName) else { continue }
                switch (a.attributeType, raw) {
                case (.decimal, let s as String), (.uuid, let s as String), (.uri, let s as String):
                    object.attributes[attributeName] = try value(s, type: a.attributeType)
                case (.boolean, let n as NSNumber): object.attributes[attributeName] = n.boolValue
                case (.integer16, let n as NSNumber), (.integer32, let n as NSNumber), (.integer64, let n as NSNumber):
                    object.attributes[attributeName] = n.intValue
                case (.double, let n as NSNumber), (.float, let n as NSNumber):
                    object.attributes[attributeName] = n.doubleValue
                case (.string, let s as String): object.attributes[attributeName] = s
                case (.date, let d as Date): object.attributes[attributeName] = d
                case (.binaryData, let d as Data), (.transformable, let d as Data): object.attributes[attributeName] = d
                case (.string, _), (.date, _), (.binaryData, _), (.transformable, _), (.boolean, _), (.integer16, _),
                    (.integer32, _),
                    (.integer64, _), (.double, _), (.float, _), (.decimal, _), (.uuid, _), (.uri, _):
                    // A value of another type (a keyed archive's UID, say) read as it was, and the
                    // next save failed to write it with Foundation's error (found by Fuzz/run.sh
                    // binarystore, whose check saves what it reads).
                    throw CoreDataError(
                        .persistentStoreOpen,
                        "\(attributeName) of object z\(key) (\(name)) holds \(Swift.type(of: raw)), not a \(a.attributeType.xcodeName) value"
                    )
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
        let contents = try AtomicContents(fileObjects: objects, lastKeys: lastKeys, model: model)
            .stamped(identifier: uuid)
        var metadata = root["metadata"] as? [String: Any] ?? [:]
        metadata["NSStoreUUID"] = uuid
        return AtomicStoreFile.Loaded(identifier: uuid, metadata: metadata, contents: contents)
    }
}
