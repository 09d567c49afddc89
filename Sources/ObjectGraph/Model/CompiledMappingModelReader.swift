import Foundation

/// Reads a compiled mapping model (`.cdm`): a keyed archive whose root is an NSMappingModel.
///
/// The keys are Core Data's coders' (NSMappingModel.mm, NSEntityMapping.mm and
/// NSPropertyMapping.mm of the iOS 26.1 dump `EthanArbuckle/iPhone18-3_26.1_23B85_Restore`):
/// the model's `NSEntityMappings` array (and `NSEntityMappingsByName`, derived, not read); an
/// entity mapping's `NSMappingName`, `NSMappingType` (an int), `NSSourceEntityName`,
/// `NSSourceEntityVersionHash`, `NSDestinationEntityName`, `NSDestinationEntityVersionHash`,
/// `NSSourceExpression`, `NSUserInfo`, `NSEntityMigrationPolicyClassName`,
/// `NSAttributeMappings` and `NSRelationshipMappings`; a property mapping's
/// `NSDestinationPropertyName`, `NSValueExpression` and `NSUserInfo`.
struct CompiledMappingModelReader {
    /// The file, named in errors.
    let url: URL

    /// The entity mappings of the archive in `data`, in the archive's order.
    func entityMappings(from data: Data) throws -> [EntityMapping] {
        let root: Any?
        do { root = try KeyedArchive.unarchivedValue(from: data, allowedClassNames: nil) } catch let failure
            as KeyedArchive.Failure
        {
            throw corrupt("it is not a keyed archive (\(failure.reason))")
        }
        guard let model = root as? KeyedArchive.ArchivedObject, model.classNames.contains("NSMappingModel") else {
            let found = (root as? KeyedArchive.ArchivedObject)?.className ?? root.map { "\(type(of: $0))" } ?? "nil"
            throw corrupt("it is a keyed archive of \(found), not of an NSMappingModel")
        }
        guard let list = (model.fields["NSEntityMappings"] ?? nil) as? [Any] else {
            throw corrupt("its NSMappingModel has no NSEntityMappings array")
        }
        return try list.enumerated().map { try entityMapping($1, number: $0 + 1) }
    }

    private func entityMapping(_ value: Any, number: Int) throws -> EntityMapping {
        guard let object = value as? KeyedArchive.ArchivedObject, object.classNames.contains("NSEntityMapping") else {
            throw corrupt("entity mapping \(number) is not an NSEntityMapping")
        }
        let f = object.fields
        guard let name = f["NSMappingName"] as? String, !name.isEmpty else {
            throw corrupt("entity mapping \(number) has no NSMappingName (Core Data refuses an unnamed entity mapping)")
        }
        let rawType = f["NSMappingType"] as? Int ?? 0
        guard let type = EntityMappingType(rawValue: rawType) else {
            throw corrupt(
                "the entity mapping \(name) has the mapping type \(rawType); NSEntityMappingType runs from "
                    + "0 to 5")
        }
        return EntityMapping(
            name: name, mappingType: type,
            sourceEntityName: f["NSSourceEntityName"] as? String,
            sourceEntityVersionHash: f["NSSourceEntityVersionHash"] as? Data,
            destinationEntityName: f["NSDestinationEntityName"] as? String,
            destinationEntityVersionHash: f["NSDestinationEntityVersionHash"] as? Data,
            sourceExpression: try expression(f["NSSourceExpression"] ?? nil, what: "the source expression of \(name)"),
            entityMigrationPolicyClassName: (f["NSEntityMigrationPolicyClassName"] as? String).flatMap {
                $0.isEmpty ? nil : $0
            },
            attributeMappings: try propertyMappings(f["NSAttributeMappings"] ?? nil, of: name),
            relationshipMappings: try propertyMappings(f["NSRelationshipMappings"] ?? nil, of: name),
            userInfo: MappingUserInfo.strings(f["NSUserInfo"] ?? nil))
    }

    private func propertyMappings(_ value: Any?, of mapping: String) throws -> [PropertyMapping] {
        guard let list = value as? [Any] else { return [] }
        return try list.map { item in
            guard let object = item as? KeyedArchive.ArchivedObject,
                let name = object.fields["NSDestinationPropertyName"] as? String
            else {
                throw corrupt(
                    "a property mapping of \(mapping) is not an NSPropertyMapping with an "
                        + "NSDestinationPropertyName")
            }
            let expression = try expression(
                object.fields["NSValueExpression"] ?? nil,
                what: "the value expression "
                    + "of \(mapping).\(name)")
            return PropertyMapping(
                name: name, valueExpression: expression,
                userInfo: MappingUserInfo.strings(object.fields["NSUserInfo"] ?? nil))
        }
    }

    private func expression(_ value: Any?, what: String) throws -> Expression? {
        guard let value, !(value is NSNull) else { return nil }
        do { return try ArchivedExpression.expression(value) } catch let failure as KeyedArchive.Failure {
            throw corrupt("\(what) cannot be read: \(failure.reason)")
        }
    }

    private func corrupt(_ what: String) -> CoreDataError {
        CoreDataError(.fileReadCorruptFile, "The mapping model \(url.path) cannot be read: \(what)")
    }
}

/// A mapping's user info as ObjectGraph keeps it: string keys, each value as text.
enum MappingUserInfo {
    /// The dictionary's entries, values as their text; empty for anything but a dictionary.
    static func strings(_ value: Any?) -> [String: String] {
        guard let dictionary = value as? [String: Any] else { return [:] }
        return dictionary.mapValues { $0 as? String ?? "\($0)" }
    }
}
