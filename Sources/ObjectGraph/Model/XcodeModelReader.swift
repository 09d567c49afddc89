import Foundation

/// Turns the XML of an Xcode `contents` file into entity descriptions (coredata.md 5.2).
///
/// Reads what ObjectGraph models: entities (parent, abstract, renaming ID from `elementID`,
/// version hash modifier, user info, fetch indexes, uniqueness constraints), attributes and
/// relationships with everything their descriptions hold. Diagram positions (`<elements>`)
/// and Xcode's bookkeeping (`syncable`, `codeGenerationType`, `usesScalarValueType`, ...) are
/// read past silently; anything else it does not use becomes a warning; a model it cannot
/// represent faithfully (a relationship to nowhere, no inverse, an unknown type) is an error
/// naming the file and line.
struct XcodeModelReader {
    let file: String
    let classes: [String: ManagedObject.Type]
    private(set) var warnings: [ModelFileWarning] = []
    /// Where each entity and relationship was declared, for errors found after reading.
    private var entityLines: [String: Int] = [:]
    private var relationshipLines: [String: Int] = [:]   // "Entity.relationship"

    init(file: String, classes: [String: ManagedObject.Type]) {
        self.file = file
        self.classes = classes
    }

    // Settings that only matter to Xcode or to Apple platforms: read past without a warning.
    private static let silentModelKeys: Set<String> = ["type", "documentVersion", "lastSavedToolsVersion", "systemVersion",
        "minimumToolsVersion", "sourceLanguage", "macOSVersion", "iOSVersion", "usedWithCloudKit", "usedWithSwiftData"]
    private static let silentEntityKeys: Set<String> = ["syncable", "codeGenerationType", "representedClassName"]
    private static let silentAttributeKeys: Set<String> = ["syncable", "usesScalarValueType", "spotlightIndexingEnabled"]
    private static let silentRelationshipKeys: Set<String> = ["syncable", "inverseEntity", "indexed", "spotlightIndexingEnabled"]
    private static let unsupportedTypes: Set<String> = ["Transformable", "Undefined", "ObjectID", "Composite"]

    /// Reads the model element: its entities and version identifiers.
    mutating func read(_ root: XMLElementNode) throws -> (entities: [EntityDescription], versionIdentifiers: Set<String>) {
        guard root.name == "model" else {
            throw error(root.line, "the root element is <\(root.name)>, not <model>: this is not an Xcode model contents file")
        }
        warnUnknownKeys(root, known: Self.silentModelKeys.union(["userDefinedModelVersionIdentifier"]))
        var entities: [EntityDescription] = []
        for child in root.children {
            switch child.name {
            case "entity": entities.append(try readEntity(child))
            case "elements": break   // diagram positions
            case "configuration": warn(child.line, "configuration \(child.attributes["name"] ?? "") skipped: ObjectGraph has no configurations; every entity goes to every store")
            case "fetchRequest": warn(child.line, "fetch request template \(child.attributes["name"] ?? "") skipped: declare it in code with FetchRequest")
            default: warn(child.line, "<\(child.name)> skipped: ObjectGraph does not use it")
            }
        }
        try checkReferences(entities)
        let identifier = root.attributes["userDefinedModelVersionIdentifier"] ?? ""
        return (entities, identifier.isEmpty ? [] : [identifier])
    }

    /// The line an entity was declared on, for errors the model raises later.
    func line(ofEntity name: String) -> Int? { entityLines[name] }

    // MARK: Entities

    private mutating func readEntity(_ node: XMLElementNode) throws -> EntityDescription {
        let name = try required("name", of: node)
        guard entityLines[name] == nil else {
            throw error(node.line, "entity \(name) is declared twice (first on line \(entityLines[name]!)); remove or rename one")
        }
        entityLines[name] = node.line
        warnUnknownKeys(node, known: Self.silentEntityKeys.union(["name", "parentEntity", "isAbstract", "versionHashModifier", "elementID"]))
        var entity = EntityDescription(name, parent: node.attributes["parentEntity"], abstract: flag("isAbstract", of: node),
                                       class: managedObjectClass(node.attributes["representedClassName"]),
                                       renamingIdentifier: nonEmpty(node.attributes["elementID"]),
                                       versionHashModifier: nonEmpty(node.attributes["versionHashModifier"]))
        var skipped: Set<String> = []
        for child in node.children {
            switch child.name {
            case "attribute":
                if let attribute = try readAttribute(child, entity: name) { entity.properties.append(.attribute(attribute)) }
                else if let n = child.attributes["name"] { skipped.insert(n) }
            case "relationship":
                entity.properties.append(.relationship(try readRelationship(child, entity: name)))
            case "fetchIndex":
                if let index = readFetchIndex(child, entity: name, skipped: skipped) { entity.indexes.append(index) }
            case "compoundIndexes":
                for (i, compound) in child.children(named: "compoundIndex").enumerated() {
                    let names = compound.children(named: "index").compactMap { $0.attributes["value"] }
                    if names.contains(where: skipped.contains) {
                        warn(compound.line, "compound index of \(name) skipped: it names a skipped attribute")
                    } else if !names.isEmpty {
                        entity.indexes.append(FetchIndexDescription("compoundIndex\(i + 1)", names.map { FetchIndexElementDescription($0) }))
                    }
                }
            case "uniquenessConstraints":
                for constraint in child.children(named: "uniquenessConstraint") {
                    let names = constraint.children(named: "constraint").compactMap { $0.attributes["value"] }
                    if names.contains(where: skipped.contains) {
                        warn(constraint.line, "uniqueness constraint (\(names.joined(separator: ", "))) of \(name) skipped: it names a skipped attribute")
                    } else {
                        entity.uniquenessConstraints.append(names)
                    }
                }
            case "userInfo": entity.userInfo = readUserInfo(child)
            case "fetchedProperty": warn(child.line, "fetched property \(name).\(child.attributes["name"] ?? "") skipped: ObjectGraph has no fetched properties; use a fetch request")
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

    private mutating func readAttribute(_ node: XMLElementNode, entity: String) throws -> AttributeDescription? {
        let name = try required("name", of: node)
        let typeName = try required("attributeType", of: node)
        if Self.unsupportedTypes.contains(typeName) {
            warn(node.line, "attribute \(entity).\(name) skipped: ObjectGraph has no \(typeName) attributes; store the value as Binary or String data")
            return nil
        }
        guard let type = AttributeType.allCases.first(where: { $0.xcodeName == typeName }) else {
            throw error(node.line, "attribute \(entity).\(name) has the type \"\(typeName)\", which Core Data does not know; use one of \(AttributeType.allCases.map(\.xcodeName).joined(separator: ", "))")
        }
        warnUnknownKeys(node, known: Self.silentAttributeKeys.union([
            "name", "attributeType", "optional", "transient", "indexed", "defaultValueString", "defaultDateTimeInterval",
            "minValueString", "maxValueString", "minDateTimeInterval", "maxDateTimeInterval", "regularExpressionString",
            "versionHashModifier", "elementID", "valueTransformerName", "customClassName"]))
        let isDate = type == .date
        var attribute = AttributeDescription(
            name, type, optional: flag("optional", of: node), transient: flag("transient", of: node), indexed: flag("indexed", of: node),
            minValue: try number(isDate ? "minDateTimeInterval" : "minValueString", of: node, in: "\(entity).\(name)"),
            maxValue: try number(isDate ? "maxDateTimeInterval" : "maxValueString", of: node, in: "\(entity).\(name)"),
            regularExpression: nonEmpty(node.attributes["regularExpressionString"]),
            renamingIdentifier: nonEmpty(node.attributes["elementID"]),
            versionHashModifier: nonEmpty(node.attributes["versionHashModifier"]))
        attribute.defaultValue = try defaultValue(node, type: type, in: "\(entity).\(name)")
        for child in node.children {
            if child.name == "userInfo" { attribute.userInfo = readUserInfo(child) }
            else { warn(child.line, "<\(child.name)> in attribute \(entity).\(name) skipped: ObjectGraph does not use it") }
        }
        return attribute
    }

    /// The default value, typed: `defaultValueString` for most types, `defaultDateTimeInterval`
    /// (seconds since 2001-01-01) for dates.
    private mutating func defaultValue(_ node: XMLElementNode, type: AttributeType, in property: String) throws -> ConstantValue? {
        if type == .date {
            return try number("defaultDateTimeInterval", of: node, in: property).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        }
        guard let text = node.attributes["defaultValueString"] else { return nil }
        func bad() -> CoreDataError {
            error(node.line, "attribute \(property) has the default value \"\(text)\", which is not a valid \(type.xcodeName); correct defaultValueString")
        }
        switch type {
        case .integer16, .integer32, .integer64:
            guard let i = Int(text.trimmingCharacters(in: .whitespaces)) else { throw bad() }
            return .int(i)
        case .double, .float:
            guard let d = Double(text.trimmingCharacters(in: .whitespaces)) else { throw bad() }
            return .double(d)
        case .decimal:
            guard let d = Decimal(string: text.trimmingCharacters(in: .whitespaces), locale: Locale(identifier: "en_US_POSIX")) else { throw bad() }
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
        case .binaryData, .date:
            warn(node.line, "default value of the Binary attribute \(property) skipped: binary attributes have no default")
            return nil
        }
    }

    // MARK: Relationships

    private mutating func readRelationship(_ node: XMLElementNode, entity: String) throws -> RelationshipDescription {
        let name = try required("name", of: node)
        relationshipLines["\(entity).\(name)"] = node.line
        warnUnknownKeys(node, known: Self.silentRelationshipKeys.union([
            "name", "optional", "toMany", "minCount", "maxCount", "deletionRule", "destinationEntity", "inverseName",
            "ordered", "transient", "versionHashModifier", "elementID"]))
        guard let destination = nonEmpty(node.attributes["destinationEntity"]) else {
            throw error(node.line, "relationship \(entity).\(name) has no destination entity; set destinationEntity (Xcode: Destination)")
        }
        guard let inverse = nonEmpty(node.attributes["inverseName"]) else {
            throw error(node.line, "relationship \(entity).\(name) has no inverse; ObjectGraph requires one, as Apple recommends: set inverseName (Xcode: Inverse) and declare that relationship in \(destination)")
        }
        if flag("ordered", of: node) {
            warn(node.line, "relationship \(entity).\(name) is ordered; ObjectGraph reads it as an unordered to-many relationship")
        }
        if flag("transient", of: node) {
            warn(node.line, "relationship \(entity).\(name) is transient; ObjectGraph reads it as a stored relationship")
        }
        let rule: DeleteRule
        switch node.attributes["deletionRule"] ?? "Nullify" {
        case "Nullify": rule = .nullify
        case "Cascade": rule = .cascade
        case "Deny": rule = .deny
        case "No Action": rule = .noAction
        case let other:
            throw error(node.line, "relationship \(entity).\(name) has the delete rule \"\(other)\"; use Nullify, Cascade, Deny or No Action")
        }
        let toMany = flag("toMany", of: node)
        let minCount = try count("minCount", of: node, in: "\(entity).\(name)") ?? 0
        let maxCount = try count("maxCount", of: node, in: "\(entity).\(name)") ?? (toMany ? 0 : 1)
        var relationship = RelationshipDescription(
            name: name, destination: destination, inverse: inverse, toMany: toMany, optional: flag("optional", of: node),
            minCount: minCount, maxCount: toMany ? maxCount : 1, deleteRule: rule,
            renamingIdentifier: nonEmpty(node.attributes["elementID"]),
            versionHashModifier: nonEmpty(node.attributes["versionHashModifier"]))
        for child in node.children {
            if child.name == "userInfo" { relationship.userInfo = readUserInfo(child) }
            else { warn(child.line, "<\(child.name)> in relationship \(entity).\(name) skipped: ObjectGraph does not use it") }
        }
        return relationship
    }

    /// Destinations, inverses and parents exist: checked here so the error names the line.
    private func checkReferences(_ entities: [EntityDescription]) throws {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func relationship(_ name: String, in entityName: String) -> RelationshipDescription? {
            var current: String? = entityName
            var seen: Set<String> = []
            while let c = current, seen.insert(c).inserted, let e = byName[c] {
                for case .relationship(let r) in e.properties where r.name == name { return r }
                current = e.parentEntityName
            }
            return nil
        }
        for entity in entities {
            if let parent = entity.parentEntityName, byName[parent] == nil {
                throw error(entityLines[entity.name] ?? 0, "entity \(entity.name) names the parent entity \(parent), which the file does not declare; declare it or remove parentEntity")
            }
            for case .relationship(let r) in entity.properties {
                let line = relationshipLines["\(entity.name).\(r.name)"] ?? 0
                guard byName[r.destinationEntityName] != nil else {
                    throw error(line, "relationship \(entity.name).\(r.name) points to the entity \(r.destinationEntityName), which the file does not declare; declare it or correct destinationEntity")
                }
                guard relationship(r.inverseName, in: r.destinationEntityName) != nil else {
                    throw error(line, "relationship \(entity.name).\(r.name) names the inverse \(r.destinationEntityName).\(r.inverseName), which does not exist; declare it, pointing back to \(entity.name), or correct inverseName")
                }
            }
        }
    }

    // MARK: Indexes, user info

    private mutating func readFetchIndex(_ node: XMLElementNode, entity: String, skipped: Set<String>) -> FetchIndexDescription? {
        let name = node.attributes["name"] ?? ""
        var elements: [FetchIndexElementDescription] = []
        for child in node.children(named: "fetchIndexElement") {
            guard let property = child.attributes["property"] else {
                warn(child.line, "fetch index \(entity).\(name) skipped: ObjectGraph indexes properties, not expressions")
                return nil
            }
            if skipped.contains(property) {
                warn(child.line, "fetch index \(entity).\(name) skipped: it indexes the skipped attribute \(property)")
                return nil
            }
            let type: FetchIndexElementDescription.IndexType = child.attributes["type"] == "RTree" ? .rTree : .binary
            elements.append(FetchIndexElementDescription(property, type: type, ascending: child.attributes["order"] != "descending"))
        }
        return FetchIndexDescription(name, elements)
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
            throw error(node.line, "relationship \(property) has \(key)=\"\(text)\", which is not a count; use a whole number, 0 or more")
        }
        return value
    }

    private mutating func warnUnknownKeys(_ node: XMLElementNode, known: Set<String>) {
        for key in node.attributes.keys.sorted() where !known.contains(key) {
            let what = node.attributes["name"].map { "\(node.name) \($0)" } ?? node.name
            warn(node.line, "setting \(key)=\"\(node.attributes[key]!)\" of \(what) skipped: ObjectGraph does not use it")
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
