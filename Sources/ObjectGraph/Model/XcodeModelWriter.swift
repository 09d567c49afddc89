import Foundation

/// Writes models in Xcode's formats, so a model declared in Swift opens in Xcode's model
/// editor: the `contents` XML of an `.xcdatamodel` folder, and an `.xcdatamodeld` bundle with
/// its `.xccurrentversion` (<doc:OpeningStoresThatCoreDataWrote>).
///
/// Entities are written in name order and properties in declaration order (Xcode sorts them
/// when it saves). Entities are written without code generation (Xcode's Manual/None), with
/// the class name of their managed object class. Everything the loader reads is written back:
/// derived, transformable and composite attributes, relationships with or without an inverse,
/// ordered ones, fetched properties, fetch request templates and configurations, so a model
/// file read and written again describes the same model (and has the same version hashes).
/// Binary default values cannot be expressed in the format and are left out.
extension ManagedObjectModel {
    /// The `contents` XML of this model, as Xcode writes it.
    public func xcodeModelContents() -> String {
        var out = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
        var attributes = [
            ("type", "com.apple.IDECoreDataModeler.DataModel"), ("documentVersion", "1.0"),
            ("minimumToolsVersion", "Automatic"), ("sourceLanguage", "Swift"),
        ]
        // A model without identifiers gets no attribute, so it reads back without one (Core
        // Data records an empty identifier as "").
        if let identifier = versionIdentifiers.sorted().first {
            attributes.append(("userDefinedModelVersionIdentifier", identifier))
        }
        out += "<model" + XcodeXML.attributes(attributes) + ">\n"
        for entity in entities { out += XcodeXML.entity(entity) }
        out += XcodeXML.composites(entities)
        for name in fetchRequestTemplatesByName.keys.sorted() {
            if let template = fetchRequestTemplatesByName[name] {
                out += XcodeXML.fetchRequest(template, indent: "    ")
            }
        }
        for configuration in configurationDescriptions { out += XcodeXML.configuration(configuration) }
        out += "</model>\n"
        return out
    }

    /// Writes the model as an `.xcdatamodel` folder at `url`, creating it or replacing its
    /// `contents` file.
    public func writeXcodeModel(to url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data(xcodeModelContents().utf8).write(to: url.appendingPathComponent("contents"), options: .atomic)
        } catch {
            throw CoreDataError(
                .fileWriteUnknown,
                "Can't write the model to \(url.path): \(error.localizedDescription); check the folder exists and is writable"
            )
        }
    }
}

extension ModelBundle {
    /// Writes the bundle as an `.xcdatamodeld` folder at `url`: one `<name>.xcdatamodel` per
    /// version and `.xccurrentversion` naming the current one.
    ///
    /// Versions already in the folder under other names are left alone.
    public func write(to url: URL) throws {
        for version in versions {
            try version.model.writeXcodeModel(to: url.appendingPathComponent("\(version.name).xcdatamodel"))
        }
        let plist: [String: Any] = ["_XCCurrentVersionName": "\(currentVersionName).xcdatamodel"]
        do {
            let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            try data.write(to: url.appendingPathComponent(".xccurrentversion"), options: .atomic)
        } catch {
            throw CoreDataError(
                .fileWriteUnknown,
                "Can't write \(url.path)/.xccurrentversion: \(error.localizedDescription); check the folder is writable"
            )
        }
    }
}

/// The element and attribute spellings of Xcode's `contents` files.
enum XcodeXML {
    static func entity(_ e: EntityDescription) -> String {
        let className =
            e.managedObjectClass == ManagedObject.self ? "NSManagedObject" : String(describing: e.managedObjectClass)
        var attributes: [(String, String)] = [("name", e.name), ("representedClassName", className)]
        if let parent = e.parentEntityName { attributes.append(("parentEntity", parent)) }
        if e.isAbstract { attributes.append(("isAbstract", "YES")) }
        if let modifier = e.versionHashModifier { attributes.append(("versionHashModifier", modifier)) }
        if let id = e.renamingIdentifier { attributes.append(("elementID", id)) }
        attributes.append(("syncable", "YES"))
        var out = "    <entity" + Self.attributes(attributes) + ">\n"
        for property in e.properties {
            switch property.kind {
            case .attribute(let a): out += attribute(a)
            case .relationship(let r): out += relationship(r)
            case .fetched: break
            }
        }
        for fetched in e.fetchedProperties {
            var keys = [("name", fetched.name)]
            if fetched.isOptional { keys.append(("optional", "YES")) }
            out += "        <fetchedProperty" + Self.attributes(keys) + ">\n"
            out += fetchRequest(fetched.fetchRequest, indent: "            ")
            out += userInfo(fetched.userInfo, indent: "            ")
            out += "        </fetchedProperty>\n"
        }
        for index in e.indexes {
            out += "        <fetchIndex" + Self.attributes([("name", index.name)]) + ">\n"
            for element in index.elements {
                out +=
                    "            <fetchIndexElement"
                    + Self.attributes([
                        ("property", element.propertyName), ("type", element.indexType.rawValue),
                        ("order", element.isAscending ? "ascending" : "descending"),
                    ]) + "/>\n"
            }
            out += "        </fetchIndex>\n"
        }
        if !e.uniquenessConstraints.isEmpty {
            out += "        <uniquenessConstraints>\n"
            for constraint in e.uniquenessConstraints {
                out += "            <uniquenessConstraint>\n"
                for name in constraint {
                    out += "                <constraint" + Self.attributes([("value", name)]) + "/>\n"
                }
                out += "            </uniquenessConstraint>\n"
            }
            out += "        </uniquenessConstraints>\n"
        }
        out += userInfo(e.userInfo, indent: "        ")
        out += "    </entity>\n"
        return out
    }

    static func attribute(_ a: AttributeDescription, indent: String = "        ") -> String {
        var attributes: [(String, String)] = [("name", a.name)]
        if a.isOptional { attributes.append(("optional", "YES")) }
        if a.isTransient { attributes.append(("transient", "YES")) }
        if a.isIndexed { attributes.append(("indexed", "YES")) }
        attributes.append(("attributeType", a.attributeType.xcodeName))
        if let expression = a.derivationExpression {
            attributes += [("derived", "YES"), ("derivationExpression", expression.description)]
        }
        let isDate = a.attributeType == .date
        if let min = a.minValue { attributes.append((isDate ? "minDateTimeInterval" : "minValueString", number(min))) }
        if let max = a.maxValue { attributes.append((isDate ? "maxDateTimeInterval" : "maxValueString", number(max))) }
        if let value = a.defaultConstant, let text = defaultText(value) {
            attributes.append((isDate ? "defaultDateTimeInterval" : "defaultValueString", text))
        }
        if let pattern = a.regularExpression { attributes.append(("regularExpressionString", pattern)) }
        if let transformer = a.valueTransformerName { attributes.append(("valueTransformerName", transformer)) }
        if let className = a.attributeValueClassName { attributes.append(("customClassName", className)) }
        if let composite = a.compositeTypeName { attributes.append(("composite", composite)) }
        if a.allowsExternalBinaryDataStorage { attributes.append(("allowsExternalBinaryDataStorage", "YES")) }
        if a.preservesValueInHistoryOnDeletion { attributes.append(("preserveAfterDeletion", "YES")) }
        if a.allowsCloudEncryption { attributes.append(("allowsCloudEncryption", "YES")) }
        if a.isIndexedBySpotlight { attributes.append(("spotlightIndexingEnabled", "YES")) }
        if a.attributeType.isNumeric && a.attributeType != .decimal {
            attributes.append(("usesScalarValueType", "YES"))
        }
        if a.attributeType == .date || a.attributeType == .uuid { attributes.append(("usesScalarValueType", "NO")) }
        if let modifier = a.versionHashModifier { attributes.append(("versionHashModifier", modifier)) }
        if let id = a.renamingIdentifier { attributes.append(("elementID", id)) }
        // A composite declared without a type name keeps its elements inside the attribute.
        let inner = a.compositeTypeName == nil ? a.elements.map { attribute($0, indent: indent + "    ") }.joined() : ""
        return element(
            "attribute", attributes, indent: indent, children: inner + userInfo(a.userInfo, indent: indent + "    "))
    }

    static func relationship(_ r: RelationshipDescription) -> String {
        var attributes: [(String, String)] = [("name", r.name)]
        if r.isOptional { attributes.append(("optional", "YES")) }
        if r.isTransient { attributes.append(("transient", "YES")) }
        if r.isToMany { attributes.append(("toMany", "YES")) }
        if r.minCount > 0 { attributes.append(("minCount", String(r.minCount))) }
        if !r.isToMany {
            attributes.append(("maxCount", "1"))
        } else if r.maxCount > 0 {
            attributes.append(("maxCount", String(r.maxCount)))
        }
        let rule: String
        switch r.deleteRule {
        case .nullify: rule = "Nullify"
        case .cascade: rule = "Cascade"
        case .deny: rule = "Deny"
        case .noAction: rule = "No Action"
        }
        attributes.append(("deletionRule", rule))
        if r.isOrdered { attributes.append(("ordered", "YES")) }
        attributes.append(("destinationEntity", r.destinationEntityName))
        if let inverse = r.inverseName {
            attributes += [("inverseName", inverse), ("inverseEntity", r.inverseEntityName ?? r.destinationEntityName)]
        } else if let written = r.unmatchedInverseName {
            // Written back as the file had it, so that the file hashes and loads as before.
            let entity = r.unmatchedInverseEntityName ?? r.destinationEntityName
            attributes += [("inverseName", written), ("inverseEntity", entity)]
        }
        if let modifier = r.versionHashModifier { attributes.append(("versionHashModifier", modifier)) }
        if let id = r.renamingIdentifier { attributes.append(("elementID", id)) }
        return element(
            "relationship", attributes, indent: "        ", children: userInfo(r.userInfo, indent: "            "))
    }

    /// The composite types the entities' attributes use, each once, as `<composite>` elements.
    static func composites(_ entities: [EntityDescription]) -> String {
        var types: [String: [AttributeDescription]] = [:]
        func collect(_ attributes: [AttributeDescription]) {
            for a in attributes {
                if let name = a.compositeTypeName, types[name] == nil { types[name] = a.elements }
                collect(a.elements)
            }
        }
        for entity in entities {
            collect(entity.properties.compactMap { if let a = $0 as? AttributeDescription { a } else { nil } })
        }
        var out = ""
        for name in types.keys.sorted() {
            out += "    <composite" + attributes([("name", name)]) + ">\n"
            for element in types[name] ?? [] { out += attribute(element) }
            out += "    </composite>\n"
        }
        return out
    }

    /// A `<fetchRequest>`: a template of the model, or a fetched property's request.
    static func fetchRequest(_ template: FetchRequestTemplate, indent: String) -> String {
        var keys = [("name", template.name), ("entity", template.entityName)]
        if let predicate = template.predicateFormat { keys.append(("predicateString", predicate)) }
        for key in template.settings.keys.sorted() { keys.append((key, template.settings[key] ?? "")) }
        return indent + "<fetchRequest" + attributes(keys) + "/>\n"
    }

    /// A `<configuration>` with its member entities.
    static func configuration(_ configuration: ModelConfiguration) -> String {
        var keys = [("name", configuration.name)]
        if configuration.isUsedWithCloudKit { keys.append(("usedWithCloudKit", "YES")) }
        var out = "    <configuration" + attributes(keys) + ">\n"
        for name in configuration.entityNames { out += "        <memberEntity" + attributes([("name", name)]) + "/>\n" }
        return out + "    </configuration>\n"
    }

    /// An element, self-closing unless it has children.
    private static func element(_ name: String, _ attributes: [(String, String)], indent: String, children: String)
        -> String
    {
        let open = indent + "<\(name)" + Self.attributes(attributes)
        if children.isEmpty { return open + "/>\n" }
        return open + ">\n" + children + indent + "</\(name)>\n"
    }

    private static func userInfo(_ info: [String: String], indent: String) -> String {
        guard !info.isEmpty else { return "" }
        var out = indent + "<userInfo>\n"
        for key in info.keys.sorted() {
            out += indent + "    <entry" + attributes([("key", key), ("value", info[key]!)]) + "/>\n"
        }
        return out + indent + "</userInfo>\n"
    }

    /// The text of a default value, as Xcode spells it (booleans YES/NO, dates in seconds since 2001).
    static func defaultText(_ value: ConstantValue) -> String? {
        switch value {
        case .bool(let b): return b ? "YES" : "NO"
        case .int(let i): return String(i)
        case .double(let d): return number(d)
        case .decimal(let d): return "\(d)"
        case .string(let s): return s
        case .date(let date): return number(date.timeIntervalSinceReferenceDate)
        case .uuid(let u): return u.uuidString
        case .url(let u): return u.absoluteString
        default: return nil
        }
    }

    /// A number without a needless ".0".
    static func number(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    /// ` key="value"` pairs, escaped.
    static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { " \($0.0)=\"\(escape($0.1))\"" }.joined()
    }

    /// An attribute value of the model file, line feeds and tabs kept as references.
    static func escape(_ s: String) -> String { XMLText.escaped(s, inAttribute: true) }
}
