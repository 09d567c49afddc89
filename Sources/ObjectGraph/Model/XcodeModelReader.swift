import Foundation

/// Turns the XML of an Xcode `contents` file into a model's parts (<doc:OpeningStoresThatCoreDataWrote>).
///
/// Reads everything Xcode writes that describes the model: entities (parent, abstract,
/// renaming ID from `elementID`, version hash modifier, user info, fetch indexes, uniqueness
/// constraints, fetched properties), attributes of every type (Undefined, Transformable with
/// its transformer and class, derived ones with their expression, composites with their
/// elements) with everything their descriptions hold, relationships (with or without an
/// inverse, ordered, with count ranges), configurations and fetch request templates. Diagram
/// positions (`<elements>`) and Xcode's bookkeeping (`syncable`, `codeGenerationType`,
/// `usesScalarValueType`, ...) are read past silently; anything else becomes a warning, as do
/// the things Xcode itself warns about (a relationship without an inverse, or with an inverse
/// that does not point back, loaded without one). A transient attribute with no
/// `attributeType` (Xcode's spelling of Undefined) is read as Undefined. Only what Core
/// Data refuses (an unknown type, a stored attribute of type Undefined, a relationship to
/// nowhere, an expression that does not parse) is an error, naming the file and line.
struct XcodeModelReader {
    /// What a `<model>` element holds.
    struct Contents {
        var entities: [EntityDescription] = []
        var versionIdentifiers: Set<String> = []
        var configurations: [ModelConfiguration] = []
        var fetchRequestTemplates: [FetchRequestTemplate] = []
    }

    let file: String
    let classes: [String: ManagedObject.Type]
    private(set) var warnings: [ModelFileWarning] = []
    /// Where each entity and relationship was declared, for errors found after reading.
    private var entityLines: [String: Int] = [:]
    private var relationshipLines: [String: Int] = [:] // "Entity.relationship"
    /// Composite types (`<composite name="…">`), by name: the elements of the attributes that use them.
    private var composites: [String: [AttributeDescription]] = [:]

    init(file: String, classes: [String: ManagedObject.Type]) {
        self.file = file
        self.classes = classes
    }

    // Settings that only matter to Xcode or to Apple platforms: read past without a warning.
    private static let silentModelKeys: Set<String> = [
        "type", "documentVersion", "lastSavedToolsVersion", "systemVersion",
        "minimumToolsVersion", "sourceLanguage", "macOSVersion", "iOSVersion", "usedWithCloudKit", "usedWithSwiftData",
    ]
    private static let silentEntityKeys: Set<String> = ["syncable", "codeGenerationType", "representedClassName"]
    private static let silentAttributeKeys: Set<String> = ["syncable", "usesScalarValueType"]
    private static let silentRelationshipKeys: Set<String> = ["syncable", "indexed", "spotlightIndexingEnabled"]
    /// The element names of composite types: Xcode writes `<composite>`; `<compositeAttribute>`
    /// is read too (unconfirmed: no fixture has a composite attribute).
    private static let compositeElements: Set<String> = ["composite", "compositeAttribute"]

    /// Reads the model element: its entities, version identifiers, configurations and fetch
    /// request templates.
    mutating func read(_ root: XMLElementNode) throws -> Contents {
        guard root.name == "model" else {
            throw error(
                root.line, "the root element is <\(root.name)>, not <model>: this is not an Xcode model contents file")
        }
        warnUnknownKeys(root, known: Self.silentModelKeys.union(["userDefinedModelVersionIdentifier"]))
        var contents = Contents()
        // Composite types first: attributes anywhere in the file refer to them by name.
        for child in root.children where Self.compositeElements.contains(child.name) {
            let name = try required("name", of: child)
            var elements: [AttributeDescription] = []
            for element in child.children {
                if element.name == "attribute" {
                    elements.append(try readAttribute(element, entity: name))
                } else {
                    warn(element.line, "<\(element.name)> in composite \(name) skipped: ObjectGraph does not use it")
                }
            }
            composites[name] = elements
        }
        for child in root.children {
            switch child.name {
            case "entity": contents.entities.append(try readEntity(child))
            case "elements": break // diagram positions
            case "configuration": contents.configurations.append(try readConfiguration(child))
            case "fetchRequest": contents.fetchRequestTemplates.append(try readFetchRequest(child, in: "the model"))
            case let name where Self.compositeElements.contains(name): break // read above
            default: warn(child.line, "<\(child.name)> skipped: ObjectGraph does not use it")
            }
        }
        try checkReferences(contents.entities)
        dropUnmatchedInverses(&contents.entities)
        warnIgnoredIndexes(contents.entities)
        // Composite types are read first; report everything in file order.
        warnings = warnings.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(
            \.element)
        // Core Data records the identifier even when it is empty ("" in NSStoreModelVersionIdentifiers,
        // as the contentful and EasyLife stores show); a file without the attribute has none.
        contents.versionIdentifiers = root.attributes["userDefinedModelVersionIdentifier"].map { [$0] } ?? []
        return contents
    }

    /// The line an entity was declared on, for errors the model raises later.
    func line(ofEntity name: String) -> Int? { entityLines[name] }

    // MARK: Entities

    private mutating func readEntity(_ node: XMLElementNode) throws -> EntityDescription {
        let name = try required("name", of: node)
        guard entityLines[name] == nil else {
            throw error(
                node.line,
                "entity \(name) is declared twice (first on line \(entityLines[name]!)); remove or rename one")
        }
        entityLines[name] = node.line
        warnUnknownKeys(
            node,
            known: Self.silentEntityKeys.union([
                "name", "parentEntity", "isAbstract", "versionHashModifier", "elementID",
            ]))
        let entity = EntityDescription(
            name, parent: nonEmpty(node.attributes["parentEntity"]), abstract: flag("isAbstract", of: node),
            class: managedObjectClass(node.attributes["representedClassName"]),
            renamingIdentifier: nonEmpty(node.attributes["elementID"]),
            versionHashModifier: nonEmpty(node.attributes["versionHashModifier"]))
        for child in node.children {
            switch child.name {
            case "attribute":
                entity.properties.append(.attribute(try readAttribute(child, entity: name)))
            case "relationship":
                entity.properties.append(.relationship(try readRelationship(child, entity: name)))
            case "fetchIndex":
                if let index = readFetchIndex(child, entity: name) { entity.indexes.append(index) }
            case "compoundIndexes":
                for (i, compound) in child.children(named: "compoundIndex").enumerated() {
                    let names = compound.children(named: "index").compactMap { $0.attributes["value"] }
                    if !names.isEmpty {
                        entity.indexes.append(
                            FetchIndexDescription(
                                "compoundIndex\(i + 1)", names.map { FetchIndexElementDescription($0) }))
                    }
                }
            case "uniquenessConstraints":
                for constraint in child.children(named: "uniquenessConstraint") {
                    entity.uniquenessConstraints.append(
                        constraint.children(named: "constraint").compactMap { $0.attributes["value"] })
                }
            case "userInfo": entity.userInfo = readUserInfo(child)
            case "fetchedProperty":
                if let fetched = try readFetchedProperty(child, entity: name) {
                    entity.fetchedProperties.append(fetched)
                }
            default: warn(child.line, "<\(child.name)> in entity \(name) skipped: ObjectGraph does not use it")
            }
        }
        return entity
    }

    private mutating func managedObjectClass(_ className: String?) -> ManagedObject.Type {
        guard let className, !className.isEmpty else { return ManagedObject.self }
        // Swift classes may be written module-qualified (".Book", "App.Book").
        let bare = className.split(separator: ".").last.map(String.init) ?? className
        return classes[className] ?? classes[bare] ?? ManagedObject.self
    }

    // MARK: Attributes

    private mutating func readAttribute(_ node: XMLElementNode, entity: String) throws -> AttributeDescription {
        let name = try required("name", of: node)
        let transient = flag("transient", of: node)
        // Xcode writes no attributeType for an attribute whose type is Undefined, and Core Data
        // loads that as NSUndefinedAttributeType: allowed for a transient attribute only.
        let undefined = transient ? AttributeType.undefined.xcodeName : nil
        guard let typeName = nonEmpty(node.attributes["attributeType"]) ?? undefined else {
            throw error(
                node.line,
                "attribute \(entity).\(name) has no attributeType, so its type is Undefined, "
                    + "which only a transient attribute may have; choose its type (Xcode: Attribute Type) "
                    + "or make it transient")
        }
        guard let type = AttributeType.allCases.first(where: { $0.xcodeName == typeName }) else {
            throw error(
                node.line,
                "attribute \(entity).\(name) has the type \"\(typeName)\", which Core Data does not know; use one of \(AttributeType.allCases.map(\.xcodeName).joined(separator: ", "))"
            )
        }
        warnUnknownKeys(
            node,
            known: Self.silentAttributeKeys.union([
                "name", "attributeType", "optional", "transient", "indexed", "defaultValueString",
                "defaultDateTimeInterval",
                "minValueString", "maxValueString", "minDateTimeInterval", "maxDateTimeInterval",
                "regularExpressionString",
                "versionHashModifier", "elementID", "valueTransformerName", "customClassName", "derived",
                "derivationExpression",
                "allowsExternalBinaryDataStorage", "preserveAfterDeletion", "composite", "allowsCloudEncryption",
                "spotlightIndexingEnabled",
            ]))
        if type == .undefined && !transient {
            throw error(
                node.line,
                "attribute \(entity).\(name) has the type Undefined, which only a transient attribute may have; choose its type (Xcode: Attribute Type) or make it transient"
            )
        }
        if type == .objectID {
            throw error(
                node.line,
                "attribute \(entity).\(name) has the type ObjectID, which only expression descriptions have; choose another type"
            )
        }
        let isDate = type == .date
        let attribute = AttributeDescription(
            name, type, optional: flag("optional", of: node), transient: transient, indexed: flag("indexed", of: node),
            minValue: try number(isDate ? "minDateTimeInterval" : "minValueString", of: node, in: "\(entity).\(name)"),
            maxValue: try number(isDate ? "maxDateTimeInterval" : "maxValueString", of: node, in: "\(entity).\(name)"),
            regularExpression: nonEmpty(node.attributes["regularExpressionString"]),
            renamingIdentifier: nonEmpty(node.attributes["elementID"]),
            versionHashModifier: nonEmpty(node.attributes["versionHashModifier"]),
            allowsExternalBinaryDataStorage: flag("allowsExternalBinaryDataStorage", of: node),
            preservesValueInHistoryOnDeletion: flag("preserveAfterDeletion", of: node),
            valueTransformerName: node.attributes["valueTransformerName"],
            attributeValueClassName: node.attributes["customClassName"])
        attribute.allowsCloudEncryption = flag("allowsCloudEncryption", of: node)
        attribute.isIndexedBySpotlight = flag("spotlightIndexingEnabled", of: node)
        if flag("derived", of: node) || node.attributes["derivationExpression"] != nil {
            let text = node.attributes["derivationExpression"] ?? ""
            do {
                attribute.derivationExpression = try Expression(checkedFormat: text)
            } catch {
                throw self.error(
                    node.line,
                    "derived attribute \(entity).\(name) has the expression \"\(text)\", which does not parse (\(error)); correct derivationExpression (Xcode: Derivation)"
                )
            }
        }
        attribute.defaultConstant = try defaultValue(node, type: type, in: "\(entity).\(name)")
        if type == .composite {
            if let compositeName = node.attributes["composite"] {
                guard let elements = composites[compositeName] else {
                    throw error(
                        node.line,
                        "composite attribute \(entity).\(name) uses the composite \(compositeName), which the file does not declare; declare <composite name=\"\(compositeName)\"> or correct composite"
                    )
                }
                attribute.elements = elements
                attribute.compositeTypeName = compositeName
            }
        }
        for child in node.children {
            switch child.name {
            case "userInfo": attribute.userInfo = readUserInfo(child)
            case "attribute" where type == .composite:
                attribute.elements.append(try readAttribute(child, entity: "\(entity).\(name)"))
            default:
                warn(child.line, "<\(child.name)> in attribute \(entity).\(name) skipped: ObjectGraph does not use it")
            }
        }
        return attribute
    }

    /// The default value, typed: `defaultValueString` for most types, `defaultDateTimeInterval`
    /// (seconds since 2001-01-01) for dates.
    private mutating func defaultValue(_ node: XMLElementNode, type: AttributeType, in property: String) throws
        -> ConstantValue?
    {
        if type == .date {
            return try number("defaultDateTimeInterval", of: node, in: property).map {
                .date(Date(timeIntervalSinceReferenceDate: $0))
            }
        }
        guard let text = node.attributes["defaultValueString"] else { return nil }
        func bad() -> CoreDataError {
            error(
                node.line,
                "attribute \(property) has the default value \"\(text)\", which is not a valid \(type.xcodeName); correct defaultValueString"
            )
        }
        switch type {
        case .integer16, .integer32, .integer64:
            guard let i = Int(text.trimmingCharacters(in: .whitespaces)) else { throw bad() }
            return .int(i)
        case .double, .float:
            guard let d = Double(text.trimmingCharacters(in: .whitespaces)) else { throw bad() }
            return .double(d)
        case .decimal:
            guard
                let d = Decimal(
                    string: text.trimmingCharacters(in: .whitespaces), locale: Locale(identifier: "en_US_POSIX"))
            else { throw bad() }
            return .decimal(d)
        case .boolean:
            switch text.uppercased() {
            case "YES", "TRUE", "1": return .bool(true)
            case "NO", "FALSE", "0": return .bool(false)
            default: throw bad()
            }
        case .string: return .string(text)
        case .uuid:
            guard let u = UUID(uuidString: text) else { throw bad() }
            return .uuid(u)
        case .uri:
            guard let u = URL(string: text) else { throw bad() }
            return .url(u)
        case .binaryData, .date, .undefined, .transformable, .objectID, .composite:
            warn(
                node.line,
                "default value of the \(type.xcodeName) attribute \(property) skipped: ObjectGraph keeps no default for \(type.xcodeName) attributes"
            )
            return nil
        }
    }

    // MARK: Relationships

    private mutating func readRelationship(_ node: XMLElementNode, entity: String) throws -> RelationshipDescription {
        let name = try required("name", of: node)
        relationshipLines["\(entity).\(name)"] = node.line
        warnUnknownKeys(
            node,
            known: Self.silentRelationshipKeys.union([
                "name", "optional", "toMany", "minCount", "maxCount", "deletionRule", "destinationEntity",
                "inverseName",
                "inverseEntity", "ordered", "transient", "versionHashModifier", "elementID",
            ]))
        guard let destination = nonEmpty(node.attributes["destinationEntity"]) else {
            throw error(
                node.line,
                "relationship \(entity).\(name) has no destination entity; set destinationEntity (Xcode: Destination)")
        }
        let inverse = nonEmpty(node.attributes["inverseName"])
        if inverse == nil {
            // Xcode's own warning: Core Data allows it, but cannot keep the other side consistent.
            warn(
                node.line,
                "relationship \(entity).\(name) should have an inverse; without one, Core Data (and ObjectGraph) cannot keep the objects at the other end consistent"
            )
        }
        let rule: DeleteRule
        switch node.attributes["deletionRule"] ?? "Nullify" {
        case "Nullify": rule = .nullify
        case "Cascade": rule = .cascade
        case "Deny": rule = .deny
        case "No Action": rule = .noAction
        case let other:
            throw error(
                node.line,
                "relationship \(entity).\(name) has the delete rule \"\(other)\"; use Nullify, Cascade, Deny or No Action"
            )
        }
        let toMany = flag("toMany", of: node)
        let minCount = try count("minCount", of: node, in: "\(entity).\(name)") ?? 0
        let maxCount = try count("maxCount", of: node, in: "\(entity).\(name)") ?? (toMany ? 0 : 1)
        // Xcode writes inverseEntity beside inverseName; it is kept only where it is not the
        // destination (an inverse declared on a sub-entity or inherited from a parent).
        let inverseEntity =
            inverse == nil ? nil : nonEmpty(node.attributes["inverseEntity"]).flatMap { $0 == destination ? nil : $0 }
        let relationship = RelationshipDescription(
            name: name, destination: destination, inverse: inverse, toMany: toMany,
            optional: flag("optional", of: node),
            minCount: minCount, maxCount: toMany ? maxCount : 1, deleteRule: rule,
            renamingIdentifier: nonEmpty(node.attributes["elementID"]),
            versionHashModifier: nonEmpty(node.attributes["versionHashModifier"]),
            ordered: flag("ordered", of: node), inverseEntity: inverseEntity, transient: flag("transient", of: node))
        if relationship.isOrdered && !toMany {
            warn(node.line, "relationship \(entity).\(name) is ordered but to-one; ObjectGraph reads it as unordered")
            relationship.isOrdered = false
        }
        for child in node.children {
            if child.name == "userInfo" {
                relationship.userInfo = readUserInfo(child)
            } else {
                warn(
                    child.line, "<\(child.name)> in relationship \(entity).\(name) skipped: ObjectGraph does not use it"
                )
            }
        }
        return relationship
    }

    /// Destinations, inverses and parents exist: checked here so the error names the line.
    private func checkReferences(_ entities: [EntityDescription]) throws {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            if let parent = entity.parentEntityName, byName[parent] == nil {
                throw error(
                    entityLines[entity.name] ?? 0,
                    "entity \(entity.name) names the parent entity \(parent), which the file does not declare; declare it or remove parentEntity"
                )
            }
            for case let r as RelationshipDescription in entity.properties {
                let line = relationshipLines["\(entity.name).\(r.name)"] ?? 0
                guard byName[r.destinationEntityName] != nil else {
                    throw error(
                        line,
                        "relationship \(entity.name).\(r.name) points to the entity \(r.destinationEntityName), which the file does not declare; declare it or correct destinationEntity"
                    )
                }
                if let inverse = r.inverseName, ManagedObjectModel.inverse(of: r, in: byName) == nil {
                    throw error(
                        line,
                        "relationship \(entity.name).\(r.name) names the inverse \(r.inverseEntityName ?? r.destinationEntityName).\(inverse), which does not exist; declare it, pointing back to \(entity.name), or correct inverseName"
                    )
                }
            }
            for fetched in entity.fetchedProperties where byName[fetched.fetchRequest.entityName] == nil {
                throw error(
                    entityLines[entity.name] ?? 0,
                    "fetched property \(entity.name).\(fetched.name) fetches the entity \(fetched.fetchRequest.entityName), which the file does not declare; correct its fetch request's entity"
                )
            }
        }
    }

    /// Relationships whose named inverse exists but does not point back (its destination is
    /// another entity, or its own inverse is another relationship): Xcode warns and Core Data
    /// loads the file, so they load here too, with a warning, and without an inverse.
    ///
    /// Why without one, when Core Data keeps the inverse as written: an inverse is "the current
    /// relationship from the destination entity's perspective" (NSRelationshipDescription
    /// .inverseRelationship), and this one is not. Maintained as one, setting the relationship
    /// would write the other side too: objects of this entity into a relationship meant for
    /// another, or a second relationship sharing one inverse, each overwriting the other; a
    /// store keeps a to-many through its to-one inverse's column, so two relationships would
    /// share a column. Without an inverse each relationship keeps its own objects: a to-one its
    /// own column; a to-many, which the stores here keep only through an inverse, is refused
    /// when a store is added (134020), before anything is written. The name as written stays
    /// in ``RelationshipDescription/unmatchedInverseName`` for the version hash, so the model
    /// hashes as Core Data hashes it. Dropping one inverse can unmatch a relationship that
    /// named it, so this repeats until every inverse left points back.
    private mutating func dropUnmatchedInverses(_ entities: inout [EntityDescription]) {
        var dropped = true
        while dropped {
            dropped = false
            let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for e in entities.indices {
                for p in entities[e].properties.indices {
                    guard let r = entities[e].properties[p] as? RelationshipDescription, let written = r.inverseName,
                        let (owner, inverse) = ManagedObjectModel.unmatchedInverse(
                            of: r, heldBy: entities[e].name, in: byName)
                    else { continue }
                    let entity = entities[e].name
                    let theirs = "\(inverse.destinationEntityName).\(inverse.inverseName ?? "(no inverse)")"
                    warn(
                        relationshipLines["\(entity).\(r.name)"] ?? entityLines[entity] ?? 0,
                        "relationship \(entity).\(r.name) names the inverse \(owner).\(written), which points to "
                            + "\(theirs), not back to \(entity).\(r.name) (Xcode warns about it too); it is loaded "
                            + "without an inverse, so that neither side writes the other's objects: make the two "
                            + "name each other")
                    r.unmatchedInverseName = written
                    r.unmatchedInverseEntityName = r.inverseEntityName
                    r.inverseName = nil
                    r.inverseEntityName = nil
                    dropped = true
                }
            }
        }
    }

    /// Fetch index elements naming a to-many relationship: kept, as Core Data keeps them, but
    /// no store index comes of them (Core Data ignores them too).
    private mutating func warnIgnoredIndexes(_ entities: [EntityDescription]) {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func relationship(_ name: String, in entity: String) -> RelationshipDescription? {
            var current: String? = entity
            var seen: Set<String> = []
            while let c = current, seen.insert(c).inserted, let e = byName[c] {
                for case let r as RelationshipDescription in e.properties where r.name == name { return r }
                current = e.parentEntityName
            }
            return nil
        }
        for entity in entities {
            for index in entity.indexes {
                for element in index.elements
                where relationship(element.propertyName, in: entity.name)?.isToMany == true {
                    warn(
                        entityLines[entity.name] ?? 0,
                        "fetch index \(entity.name).\(index.name) names the to-many relationship \(element.propertyName); it is kept, but no store index comes of it (Core Data ignores it too)"
                    )
                }
            }
        }
    }

    // MARK: Indexes, fetch requests, configurations, user info

    private mutating func readFetchIndex(_ node: XMLElementNode, entity: String) -> FetchIndexDescription? {
        let name = node.attributes["name"] ?? ""
        var elements: [FetchIndexElementDescription] = []
        for child in node.children(named: "fetchIndexElement") {
            guard let property = child.attributes["property"] else {
                warn(
                    child.line, "fetch index \(entity).\(name) skipped: ObjectGraph indexes properties, not expressions"
                )
                return nil
            }
            let type: FetchIndexElementDescription.IndexType = child.attributes["type"] == "RTree" ? .rTree : .binary
            elements.append(
                FetchIndexElementDescription(property, type: type, ascending: child.attributes["order"] != "descending")
            )
        }
        return FetchIndexDescription(name, elements)
    }

    /// A `<fetchRequest>`: of the model (a template) or of a fetched property.
    private mutating func readFetchRequest(_ node: XMLElementNode, in owner: String) throws -> FetchRequestTemplate {
        let name = node.attributes["name"] ?? ""
        guard let entity = nonEmpty(node.attributes["entity"]) else {
            throw error(
                node.line, "fetch request \(name) of \(owner) has no entity; set entity (Xcode: Fetch all … objects)")
        }
        let predicate = node.attributes["predicateString"]
        if let predicate, !predicate.isEmpty {
            do { _ = try Predicate(checkedFormat: predicate) } catch {
                throw self.error(
                    node.line,
                    "fetch request \(name) of \(owner) has the predicate \"\(predicate)\", which does not parse (\(error)); correct predicateString"
                )
            }
        }
        var settings = node.attributes
        for key in ["name", "entity", "predicateString"] { settings[key] = nil }
        for child in node.children {
            warn(child.line, "<\(child.name)> in fetch request \(name) skipped: ObjectGraph does not use it")
        }
        return FetchRequestTemplate(name: name, entityName: entity, predicateFormat: predicate, settings: settings)
    }

    private mutating func readFetchedProperty(_ node: XMLElementNode, entity: String) throws
        -> FetchedPropertyDescription?
    {
        let name = try required("name", of: node)
        warnUnknownKeys(node, known: ["name", "optional", "syncable"])
        var request: FetchRequestTemplate?
        var info: [String: String] = [:]
        for child in node.children {
            switch child.name {
            case "fetchRequest": request = try readFetchRequest(child, in: "the fetched property \(entity).\(name)")
            case "userInfo": info = readUserInfo(child)
            default:
                warn(
                    child.line,
                    "<\(child.name)> in fetched property \(entity).\(name) skipped: ObjectGraph does not use it")
            }
        }
        guard let request else {
            // Xcode always writes one; without it there is nothing to fetch (nor to keep).
            warn(
                node.line,
                "fetched property \(entity).\(name) skipped: it has no fetch request (Xcode: Destination and Predicate)"
            )
            return nil
        }
        return FetchedPropertyDescription(
            name, fetchRequest: request, optional: flag("optional", of: node), userInfo: info)
    }

    private mutating func readConfiguration(_ node: XMLElementNode) throws -> ModelConfiguration {
        let name = try required("name", of: node)
        warnUnknownKeys(node, known: ["name", "usedWithCloudKit"])
        let members = node.children(named: "memberEntity").compactMap { $0.attributes["name"] }
        return ModelConfiguration(name, entityNames: members, usedWithCloudKit: flag("usedWithCloudKit", of: node))
    }

    private func readUserInfo(_ node: XMLElementNode) -> [String: String] {
        var info: [String: String] = [:]
        for entry in node.children(named: "entry") {
            if let key = entry.attributes["key"] { info[key] = entry.attributes["value"] ?? "" }
        }
        return info
    }

    // MARK: Helpers

    private func required(_ key: String, of node: XMLElementNode) throws -> String {
        guard let value = node.attributes[key], !value.isEmpty else {
            throw error(node.line, "<\(node.name)> has no \(key); every \(node.name) needs one")
        }
        return value
    }

    private func flag(_ key: String, of node: XMLElementNode) -> Bool { node.attributes[key] == "YES" }

    private func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }

    private func number(_ key: String, of node: XMLElementNode, in property: String) throws -> Double? {
        guard let text = node.attributes[key] else { return nil }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else {
            throw error(node.line, "\(property) has \(key)=\"\(text)\", which is not a number; correct it")
        }
        return value
    }

    private func count(_ key: String, of node: XMLElementNode, in property: String) throws -> Int? {
        guard let text = node.attributes[key] else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw error(
                node.line,
                "relationship \(property) has \(key)=\"\(text)\", which is not a count; use a whole number, 0 or more")
        }
        return value
    }

    private mutating func warnUnknownKeys(_ node: XMLElementNode, known: Set<String>) {
        for key in node.attributes.keys.sorted() where !known.contains(key) {
            let what = node.attributes["name"].map { "\(node.name) \($0)" } ?? node.name
            warn(
                node.line,
                "setting \(key)=\"\(node.attributes[key] ?? "")\" of \(what) skipped: ObjectGraph does not use it")
        }
    }

    private mutating func warn(_ line: Int, _ message: String) {
        warnings.append(ModelFileWarning(file: file, line: line, message: message))
    }

    /// An invalid-model error that names the file and line.
    func error(_ line: Int, _ message: String) -> CoreDataError {
        CoreDataError(.fileReadCorruptFile, "\(file):\(line): \(message)")
    }
}
