import Foundation

/// What an Xcode mapping model's `xcmapping.xml` holds, read as the Core Data XML store it is.
///
/// Xcode's mapping editor saves its own editing objects in a Core Data XML store (FreeCoreData's
/// `Tests/MappingFixture.xcmappingmodel/xcmapping.xml`, saved by Xcode, and its `mapc` compiler
/// `Tools/mapc/CDMappingCompiler.m`): one `XDDEVMAPPINGMODEL` with the project-relative paths of
/// the two models (`sourcemodelpath`, `destinationmodelpath`; it also archives each model in
/// Xcode's private editing classes, which nothing else reads), one `XDDEVENTITYMAPPING` per
/// entity mapping (ordered by `mappingnumber`) and one `XDDEVATTRIBUTEMAPPING` or
/// `XDDEVRELATIONSHIPMAPPING` per property mapping. It records no version hashes and leaves out
/// the expressions Xcode generates (`autogenerateexpression`); compiling works them out from the
/// two models (``XcodeMappingCompiler``). The file is read with the XML store's reader and a model
/// of those objects (``schema``), so it gets the store's strictness: XML that is not well formed,
/// two objects with one id, or a reference to an object the file lacks is an error.
struct XcodeMappingDocument {
    /// One `XDDEVENTITYMAPPING`.
    struct EntityMappingRecord {
        var key: Int64
        var name: String?
        var sourceName: String?
        var destinationName: String?
        var mappingTypeName: String?
        var mappingNumber: Int
        var generatesSourceExpression: Bool
        var sourceExpressionData: Data?
        var sourceFilterPredicate: String?
        var policyClassName: String?
        var userInfoData: Data?
    }

    /// One `XDDEVATTRIBUTEMAPPING` or `XDDEVRELATIONSHIPMAPPING`.
    struct PropertyMappingRecord {
        var key: Int64
        var name: String
        var entityMappingKey: Int64
        var generatesExpression: Bool
        var valueExpressionData: Data?
        var userInfoData: Data?
        /// For a relationship: the source key path and the entity mapping it goes through.
        var sourceKeyPath: String?
        var sourceMappingName: String?
    }

    /// The recorded path of the source model (`sourcemodelpath`).
    var sourceModelPath: String?
    /// The recorded path of the destination model (`destinationmodelpath`).
    var destinationModelPath: String?
    /// The entity mappings, in Xcode's order (`mappingnumber`, then id).
    var entityMappings: [EntityMappingRecord] = []
    /// The attribute mappings, in id order (the order Xcode made them).
    var attributeMappings: [PropertyMappingRecord] = []
    /// The relationship mappings, in id order.
    var relationshipMappings: [PropertyMappingRecord] = []

    /// Reads the document from the bytes of `xcmapping.xml` (`url` is named in errors).
    init(data: Data, url: URL) throws {
        let loaded: AtomicStoreFile.Loaded
        do {
            loaded = try XMLStoreFormat().decode(data, model: Self.schema)
        } catch let error as CoreDataError {
            throw CoreDataError(.fileReadCorruptFile, "The mapping model \(url.path) cannot be read: \(error.message)")
        }
        let rows = loaded.contents.rows
        guard let models = rows["XDDEVMAPPINGMODEL"]?.values, let root = models.first, models.count == 1 else {
            let count = rows["XDDEVMAPPINGMODEL"]?.count ?? 0
            throw CoreDataError(
                .fileReadCorruptFile,
                "The file \(url.path) is not an Xcode mapping model: it holds "
                    + "\(count) XDDEVMAPPINGMODEL objects, not one")
        }
        sourceModelPath = Self.value(root, "sourcemodelpath") as? String
        destinationModelPath = Self.value(root, "destinationmodelpath") as? String
        for row in (rows["XDDEVENTITYMAPPING"] ?? [:]).values {
            func v(_ name: String) -> Any? { Self.value(row, name) }
            entityMappings.append(
                EntityMappingRecord(
                    key: row.primaryKey, name: v("name") as? String, sourceName: v("sourcename") as? String,
                    destinationName: v("destinationname") as? String, mappingTypeName: v("mappingtypename") as? String,
                    mappingNumber: v("mappingnumber") as? Int ?? 0,
                    generatesSourceExpression: v("autogenerateexpression") as? Bool ?? false,
                    sourceExpressionData: v("sourceexpressiondata") as? Data,
                    sourceFilterPredicate: v("sourcefilterpredicatestring") as? String,
                    policyClassName: v("migrationpolicyclassname") as? String, userInfoData: v("userinfodata") as? Data)
            )
        }
        entityMappings.sort { ($0.mappingNumber, $0.key) < ($1.mappingNumber, $1.key) }
        attributeMappings = try Self.propertyRecords(rows["XDDEVATTRIBUTEMAPPING"], url: url)
        relationshipMappings = try Self.propertyRecords(rows["XDDEVRELATIONSHIPMAPPING"], url: url)
    }

    private static func propertyRecords(_ rows: [Int64: StoreRow]?, url: URL) throws -> [PropertyMappingRecord] {
        try (rows ?? [:]).values.sorted { $0.primaryKey < $1.primaryKey }.map { row in
            func v(_ name: String) -> Any? { Self.value(row, name) }
            guard let name = v("name") as? String, let owner = v("entitymapping") as? ManagedObjectID else {
                throw CoreDataError(
                    .fileReadCorruptFile,
                    "The mapping model \(url.path) cannot be read: the "
                        + "property mapping z\(row.primaryKey) has no name or no entity mapping")
            }
            return PropertyMappingRecord(
                key: row.primaryKey, name: name, entityMappingKey: owner.primaryKey,
                generatesExpression: v("autogenerateexpression") as? Bool ?? false,
                valueExpressionData: v("valueexpressiondata") as? Data, userInfoData: v("userinfodata") as? Data,
                sourceKeyPath: v("sourcekeypath") as? String, sourceMappingName: v("sourcemappingname") as? String)
        }
    }

    /// A row's value of the schema property `name` (an attribute's value, a to-one's object ID).
    private static func value(_ row: StoreRow, _ name: String) -> Any? {
        guard let entity = schema.entitiesByName[row.entityName] else { return nil }
        if let i = entity.attributes.firstIndex(where: { $0.name == name }) { return row.values[i].any }
        guard let r = entity.relationships.firstIndex(where: { $0.name == name }) else { return nil }
        return row.values[entity.attributes.count + r].objectID
    }

    /// Xcode's mapping objects as the XML store reads them: the attributes this reader uses and
    /// the to-one side of each relationship (the file writes both sides; the to-one names each
    /// property mapping's owner). Attributes the file has and this model lacks are skipped.
    static let schema: ManagedObjectModel = {
        func propertyMapping(_ entity: String) -> EntityDescription {
            EntityDescription(entity) {
                AttributeDescription("name", .string)
                AttributeDescription("autogenerateexpression", .boolean)
                AttributeDescription("valueexpressiondata", .binaryData)
                AttributeDescription("userinfodata", .binaryData)
                AttributeDescription("sourcekeypath", .string)
                AttributeDescription("sourcemappingname", .string)
                RelationshipDescription("entitymapping", toOne: "XDDEVENTITYMAPPING", inverse: nil)
            }
        }
        // The model is a constant of this file: a failure here is a programming error caught by
        // the first test that reads a mapping model.
        return try! ManagedObjectModel {
            EntityDescription("XDDEVMAPPINGMODEL") {
                AttributeDescription("sourcemodelpath", .string)
                AttributeDescription("destinationmodelpath", .string)
            }
            EntityDescription("XDDEVENTITYMAPPING") {
                AttributeDescription("name", .string)
                AttributeDescription("sourcename", .string)
                AttributeDescription("destinationname", .string)
                AttributeDescription("mappingtypename", .string)
                AttributeDescription("mappingnumber", .integer64)
                AttributeDescription("autogenerateexpression", .boolean)
                AttributeDescription("sourceexpressiondata", .binaryData)
                AttributeDescription("sourcefilterpredicatestring", .string)
                AttributeDescription("migrationpolicyclassname", .string)
                AttributeDescription("userinfodata", .binaryData)
                RelationshipDescription("mappingmodel", toOne: "XDDEVMAPPINGMODEL", inverse: nil)
            }
            propertyMapping("XDDEVATTRIBUTEMAPPING")
            propertyMapping("XDDEVRELATIONSHIPMAPPING")
        }
    }()
}
