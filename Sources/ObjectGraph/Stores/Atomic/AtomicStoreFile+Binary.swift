import Foundation

/// The binary store's file: a binary property list of the same content as the XML store's,
/// checked with `BinaryPropertyList` before Foundation reads it.
extension AtomicStoreFile {
    static func binaryRoot(_ data: Data) throws -> [String: Any] {
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

    static func plistValue(_ value: Any, type: AttributeType) -> Any {
        switch value {
        case let d as Decimal: return d.description
        case let u as UUID: return u.uuidString
        case let u as URL: return u.absoluteString
        default: return value
        }
    }

    static func binaryData(
        _ contents: AtomicContents, identifier: String, metadata: [String: Any], model: ManagedObjectModel
    ) throws -> Data {
        var stored = metadata
        stored["NSStoreUUID"] = nil
        let objects: [[String: Any]] = fileObjects(contents, model: model).map { object in
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

    /// Foundation's property list data for a store file; its NSError, for a value no property
    /// list holds (a keyed archive's UID that a damaged file held, found by Fuzz/run.sh
    /// binarystore, whose check saves what it reads), as the save's CoreDataError.
    static func propertyListData(_ value: Any, format: PropertyListSerialization.PropertyListFormat) throws -> Data {
        do {
            return try PropertyListSerialization.data(fromPropertyList: value, format: format, options: 0)
        } catch {
            throw CoreDataError(
                .persistentStoreSave,
                "The store's contents cannot be written as a property list: \(error.localizedDescription) (a value the file held when it was read, or metadata set since, is of a type no property list holds)"
            )
        }
    }

    static func readBinary(_ data: Data, model: ManagedObjectModel) throws -> Loaded {
        let root = try binaryRoot(data)
        guard let uuid = root["NSStoreUUID"] as? String else {
            throw CoreDataError(
                .persistentStoreInvalidType, "it is a property list but not a binary store (it has no NSStoreUUID)")
        }
        var objects: [FileObject] = []
        for entry in root["objects"] as? [[String: Any]] ?? [] {
            guard let name = entry["entity"] as? String, let key = (entry["id"] as? NSNumber)?.int64Value,
                let entity = model.entitiesByName[name]
            else {
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
        let contents = stamp(try self.contents(from: objects, lastKeys: lastKeys, model: model), identifier: uuid)
        var metadata = root["metadata"] as? [String: Any] ?? [:]
        metadata["NSStoreUUID"] = uuid
        return Loaded(identifier: uuid, metadata: metadata, contents: contents)
    }
}
