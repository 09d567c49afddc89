import Foundation

/// Turns an Xcode mapping document into entity mappings against the two models it maps
/// between: what Xcode's mapping compiler does when it writes a `.cdm`.
///
/// What the document leaves out is worked out as Xcode's editor shows it (and as FreeCoreData's
/// `mapc` compiles it, its tests checking the result against Xcode's own `.cdm`): a mapping
/// without a name is `<Source>To<Destination>`, or the one entity's name for an add or remove
/// mapping; the version hashes are the entities'; a mapping whose `mappingtypename` is
/// `Undefined` is an add mapping without a source, a remove mapping without a destination, a
/// copy where both entities have one hash and a transform otherwise; a generated source
/// expression is Xcode's `FETCH` of the source entity with the filter predicate (or
/// `TRUEPREDICATE`); a generated attribute expression is `$source.<name>` where the source
/// entity has that attribute, and a generated relationship expression is
/// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "<mapping>",
/// $source.<name>)`, through the mapping of the relationship's destination entity.
struct XcodeMappingCompiler {
    let document: XcodeMappingDocument
    let sourceModel: ManagedObjectModel
    let destinationModel: ManagedObjectModel
    /// The file, named in errors.
    let url: URL

    /// The entity mappings, in the document's order.
    func entityMappings() throws -> [EntityMapping] {
        let names = document.entityMappings.map(Self.name(of:))
        // A relationship mapping goes through the first mapping that makes its destination entity.
        var mappingForDestination: [String: String] = [:]
        for (record, name) in zip(document.entityMappings, names) {
            if let d = record.destinationName, !d.isEmpty, mappingForDestination[d] == nil {
                mappingForDestination[d] = name
            }
        }
        return try zip(document.entityMappings, names).map { record, name in
            try entityMapping(record, name: name, mappingForDestination: mappingForDestination)
        }
    }

    private static func name(of record: XcodeMappingDocument.EntityMappingRecord) -> String {
        if let name = record.name, !name.isEmpty { return name }
        let s = record.sourceName ?? ""
        let d = record.destinationName ?? ""
        return !s.isEmpty && !d.isEmpty ? "\(s)To\(d)" : (d.isEmpty ? s : d)
    }

    private func entityMapping(
        _ record: XcodeMappingDocument.EntityMappingRecord, name: String,
        mappingForDestination: [String: String]
    ) throws -> EntityMapping {
        let source = try entity(record.sourceName, in: sourceModel, side: "source", mapping: name)
        let destination = try entity(record.destinationName, in: destinationModel, side: "destination", mapping: name)
        let mapping = EntityMapping(
            name: name, mappingType: try mappingType(record, source: source, destination: destination, mapping: name),
            sourceEntityName: source?.name, sourceEntityVersionHash: source?.versionHash,
            destinationEntityName: destination?.name, destinationEntityVersionHash: destination?.versionHash,
            entityMigrationPolicyClassName: record.policyClassName.flatMap { $0.isEmpty ? nil : $0 },
            userInfo: try userInfo(record.userInfoData, of: name))
        if !record.generatesSourceExpression, let data = record.sourceExpressionData {
            mapping.sourceExpression = try expression(data, of: "the source expression of \(name)")
        } else if let source {
            let filter = record.sourceFilterPredicate.flatMap { $0.isEmpty ? nil : $0 } ?? "TRUEPREDICATE"
            mapping.sourceExpression = EntityMapping.fetchSourceExpression(entityName: source.name, predicate: filter)
        }
        let own = { (records: [XcodeMappingDocument.PropertyMappingRecord]) in
            records.filter { $0.entityMappingKey == record.key }
        }
        mapping.attributeMappings = try own(document.attributeMappings).map { p in
            let generated = source?.attributes.first { $0.name == p.name && !$0.isTransient }
                .map { Expression.member(.variable("source"), $0.name) }
            return try propertyMapping(p, of: name, generated: generated)
        }
        mapping.relationshipMappings = try own(document.relationshipMappings).map { p in
            try propertyMapping(
                p, of: name,
                generated: relationshipExpression(
                    p, source: source, destination: destination,
                    mappingForDestination: mappingForDestination))
        }
        return mapping
    }

    private func relationshipExpression(
        _ p: XcodeMappingDocument.PropertyMappingRecord, source: EntityDescription?,
        destination: EntityDescription?, mappingForDestination: [String: String]
    ) -> Expression? {
        let keyPath = p.sourceKeyPath.flatMap { $0.isEmpty ? nil : $0 } ?? p.name
        let first = String(keyPath.split(separator: ".").first ?? "")
        guard let sourceRelationship = source?.relationships.first(where: { $0.name == first }) else { return nil }
        let target = destination?.relationships.first { $0.name == p.name }?.destinationEntityName
        guard
            let through = p.sourceMappingName.flatMap({ $0.isEmpty ? nil : $0 })
                ?? target.flatMap({ mappingForDestination[$0] })
                ?? mappingForDestination[sourceRelationship.destinationEntityName]
        else {
            return nil
        }
        return .customFunction(
            receiver: .variable("manager"), selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
            arguments: [.constant(.string(through)), .member(.variable("source"), keyPath)])
    }

    private func propertyMapping(
        _ p: XcodeMappingDocument.PropertyMappingRecord, of mapping: String,
        generated: Expression?
    ) throws -> PropertyMapping {
        var expression = generated
        if !p.generatesExpression, let data = p.valueExpressionData {
            expression = try self.expression(data, of: "the value expression of \(mapping).\(p.name)")
        }
        return PropertyMapping(
            name: p.name, valueExpression: expression,
            userInfo: try userInfo(p.userInfoData, of: "\(mapping).\(p.name)"))
    }

    private func entity(_ name: String?, in model: ManagedObjectModel, side: String, mapping: String) throws
        -> EntityDescription?
    {
        guard let name, !name.isEmpty else { return nil }
        guard let entity = model.entitiesByName[name] else {
            throw CoreDataError(
                .fileReadCorruptFile,
                "The mapping model \(url.path) does not fit its models: the "
                    + "entity mapping \(mapping) names the \(side) entity \(name), which the \(side) model does not have "
                    + "(it has \(model.entities.map(\.name).sorted().joined(separator: ", ")))")
        }
        return entity
    }

    private func mappingType(
        _ record: XcodeMappingDocument.EntityMappingRecord, source: EntityDescription?,
        destination: EntityDescription?, mapping: String
    ) throws -> EntityMappingType {
        switch record.mappingTypeName ?? "Undefined" {
        case "Custom": return .custom
        case "Add": return .add
        case "Remove": return .remove
        case "Copy": return .copy
        case "Transform": return .transform
        case "Undefined", "":
            guard let source else { return .add }
            guard let destination else { return .remove }
            return source.versionHash == destination.versionHash ? .copy : .transform
        case let other:
            throw CoreDataError(
                .fileReadCorruptFile,
                "The mapping model \(url.path) cannot be read: the entity "
                    + "mapping \(mapping) has the mapping type \(other); Xcode writes Undefined, Custom, Add, Remove, "
                    + "Copy or Transform")
        }
    }

    private func expression(_ data: Data, of what: String) throws -> Expression {
        do { return try ArchivedExpression.expression(from: data) } catch let failure as KeyedArchive.Failure {
            throw CoreDataError(
                .fileReadCorruptFile,
                "The mapping model \(url.path) cannot be read: \(what) is not "
                    + "an archived NSExpression: \(failure.reason)")
        }
    }

    private func userInfo(_ data: Data?, of what: String) throws -> [String: String] {
        guard let data else { return [:] }
        do { return MappingUserInfo.strings(try KeyedArchive.unarchivedValue(from: data)) } catch let failure
            as KeyedArchive.Failure
        {
            throw CoreDataError(
                .fileReadCorruptFile,
                "The mapping model \(url.path) cannot be read: the user info "
                    + "of \(what) is not an archived dictionary: \(failure.reason)")
        }
    }
}
