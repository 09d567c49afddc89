import Foundation

/// What the stores here cannot write yet, refused with an error before anything is written:
/// composite attribute values, and transformable ones in the atomic (XML, binary) store files
/// (refused at save, naming the object and the key; a nil value saves), and to-many
/// relationships without an inverse (refused when the store is added). The SQLite store keeps
/// transformable values as their value transformer's data, as Core Data does. The model loads
/// and hashes all of them as Core Data does.
enum UnstorableModelParts {
    /// Why an attribute's values cannot be written yet to a store of this type, or nil when they can.
    static func reason(_ attribute: AttributeDescription, storeType: StoreType) -> String? {
        switch attribute.attributeType {
        case .transformable:
            if storeType == .sqlite { return nil }
            return
                "a Transformable attribute (value transformer \(attribute.valueTransformerName ?? "NSSecureUnarchiveFromData")): ObjectGraph's \(storeType.rawValue) store files do not yet keep transformed values (its SQLite store does)"
        case .composite:
            return "a Composite attribute: ObjectGraph's stores do not yet store composite values"
        case .undefined, .objectID:
            return "an attribute of type \(attribute.attributeType.xcodeName), which has no stored form"
        default:
            return nil
        }
    }

    /// Throws 134020 (NSPersistentStoreIncompatibleSchemaError) for a to-many relationship without an inverse: this
    /// package's stores keep
    /// a to-many relationship through its inverse (a foreign key or a join table), and Core
    /// Data's join table for one without an inverse is not written here yet. Refused when the
    /// store is added, so that no save could drop such a relationship's objects.
    static func refuseUnstorableRelationships(of model: ManagedObjectModel, storeType: StoreType) throws {
        for entity in model.entities {
            for case let r as RelationshipDescription in entity.properties
            where r.isToMany && model.inverseRelationship(of: r) == nil {
                throw CoreDataError(
                    .persistentStoreIncompatibleSchema,
                    "The model's to-many relationship \(entity.name).\(r.name) has no inverse, and ObjectGraph's \(storeType.rawValue) store keeps a to-many relationship through its inverse; give it an inverse (as Apple recommends) to use this model with a store"
                )
            }
        }
    }

    /// Throws 134030 (NSPersistentStoreSaveError) for the first non-nil value of an inserted or changed row the store
    /// cannot write.
    static func refuse(
        _ changes: StoreChanges, storeType: StoreType, storeIdentifier: String, model: ManagedObjectModel
    ) throws {
        // The attributes with a reason, found once per entity of the save: most entities have
        // none, and then a row costs a comparison of its entity's name with the previous row's
        // (rows come in runs of one entity), not a hash of it (Benchmarks/PROFILES.md, "runs of
        // one entity").
        typealias Parts = [(index: Int, attribute: AttributeDescription, reason: String)]
        var unstorable: [String: Parts] = [:]
        var previous: (entityName: String, parts: Parts)?
        func check(_ row: StoreRow) throws {
            let parts: Parts
            if let previous, previous.entityName == row.entityName {
                parts = previous.parts
            } else if let known = unstorable[row.entityName] {
                parts = known
                previous = (row.entityName, parts)
            } else {
                guard let entity = model.entitiesByName[row.entityName] else { return }
                parts = entity.attributes.enumerated().compactMap { i, attribute in
                    guard !attribute.isTransient, let reason = reason(attribute, storeType: storeType) else {
                        return nil
                    }
                    return (i, attribute, reason)
                }
                unstorable[row.entityName] = parts
                previous = (row.entityName, parts)
            }
            for (i, attribute, reason) in parts where i < row.values.count {
                guard !row.values[i].isNull else { continue }
                let uri = ManagedObjectID(
                    entityName: row.entityName, storeIdentifier: storeIdentifier, primaryKey: row.primaryKey
                ).uriString
                throw CoreDataError(
                    .persistentStoreSave,
                    "\(row.entityName).\(attribute.name) of \(uri) has a value, and it is \(reason). Nothing was saved; leave it nil, or keep the value in a Binary attribute for now",
                    objectURI: uri, key: attribute.name)
            }
        }
        for row in changes.inserted { try check(row) }
        for update in changes.updated { try check(update.row) }
    }
}
