import Foundation

/// Writes a model's entities as Swift classes, one file per entity, as Xcode's "Class
/// Definition" code generation does: the class (a subclass of its parent entity's class),
/// a ``Managed`` property per declared property, and `addTo…`/`removeFrom…` helpers for each
/// to-many relationship. Each class sets ``ManagedObject/validatesEachKey`` to false for
/// itself, since a generated class overrides no `validateValue(_:forKey:)`.
///
/// ```swift
/// let codegen = try ModelCodegen(modelAt: URL(fileURLWithPath: "ToDo.xcdatamodeld"))
/// for file in codegen.files() { try file.contents.write(to: output.appendingPathComponent(file.name), atomically:
/// true, encoding: .utf8) }
/// ```
///
/// The types are Xcode's with scalars on: integers, `Double`, `Float` and `Bool` as non-optional
/// scalars (nil reads as the default or zero), other attributes optional (`String?`, `Date?`,
/// `Decimal?`), a to-one as its destination's class (optional), a to-many as a `Set` of it (an
/// array when ordered). A transformable attribute has its `customClassName` when Foundation
/// declares it, else `Any?`. `fetchRequest()` and `entity()` are not written: every class has
/// them already, typed as itself, found through the model (which Xcode's generated per-class
/// `fetchRequest()` makes ambiguous in a subclass). A last file lists the classes by name for
/// ``XcodeModelLoader/init(classes:)``. The output depends on the model alone: entities by name,
/// properties in the model's order.
public struct ModelCodegen: Sendable {
    /// One generated Swift file.
    public struct File: Sendable, Equatable {
        /// The file's name: `Book.swift`.
        public let name: String
        /// The Swift source.
        public let contents: String
    }

    /// The model the classes are written for.
    public let model: ManagedObjectModel
    /// The model's name, for the file comments and the class list (`ToDo`).
    public let modelName: String
    /// Each entity's class name (Xcode's `representedClassName`, module prefix removed);
    /// entities not listed get their class's name, or their own.
    public let classNames: [String: String]

    /// Code generation for a model; `classNames` maps entity names to class names.
    public init(model: ManagedObjectModel, modelName: String, classNames: [String: String] = [:]) {
        self.model = model
        self.modelName = modelName
        self.classNames = classNames
    }

    /// Code generation for a model file: an `.xcdatamodeld` bundle (its current version), an
    /// `.xcdatamodel` folder or its `contents` file, with the class names the file gives.
    ///
    /// - Throws: ``CoreDataError`` as ``XcodeModelLoader`` does for a file it cannot load.
    public init(modelAt url: URL) throws {
        let loader = XcodeModelLoader()
        var contents = url
        var isDirectory: ObjCBool = false
        if url.pathExtension == "xcdatamodeld" {
            let bundle = try loader.loadBundle(at: url)
            model = bundle.currentModel
            contents = url.appendingPathComponent("\(bundle.currentVersionName).xcdatamodel/contents")
        } else {
            model = try loader.loadModel(at: url)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                contents = url.appendingPathComponent("contents")
            }
        }
        let named = url.lastPathComponent == "contents" ? url.deletingLastPathComponent() : url
        modelName = named.deletingPathExtension().lastPathComponent
        classNames = (try? Self.representedClassNames(in: Data(contentsOf: contents), file: contents.path)) ?? [:]
    }

    /// Each entity's `representedClassName` in a model file's XML, module prefix (`App.`, `.`)
    /// removed.
    static func representedClassNames(in data: Data, file: String) throws -> [String: String] {
        let root = try XMLElementNode.parse(data, file: file)
        var names: [String: String] = [:]
        for entity in root.children(named: "entity") {
            guard let name = entity.attributes["name"], let className = entity.attributes["representedClassName"],
                let bare = className.split(separator: ".").last.map(String.init), !bare.isEmpty,
                bare != "NSManagedObject", Self.isIdentifier(bare)
            else { continue }
            names[name] = bare
        }
        return names
    }

    /// The class name of an entity.
    public func className(of entity: EntityDescription) -> String {
        if let name = classNames[entity.name] { return name }
        if ObjectIdentifier(entity.managedObjectClass) != ObjectIdentifier(ManagedObject.self) {
            return String(describing: entity.managedObjectClass)
        }
        return Self.isIdentifier(entity.name) ? entity.name : Self.identifier(entity.name, capitalized: true)
    }

    /// Every file: one per entity, by entity name, then the list of classes.
    public func files() -> [File] {
        model.entities.sorted { $0.name < $1.name }.map {
            File(name: "\(className(of: $0)).swift", contents: source(of: $0))
        }
            + [File(name: "\(classListName).swift", contents: classList())]
    }

    /// The name of the type that lists the classes: `ToDoModelClasses`.
    var classListName: String { Self.identifier(modelName, capitalized: true) + "ModelClasses" }

    // MARK: One entity

    /// The Swift source of one entity's class.
    func source(of entity: EntityDescription) -> String {
        let name = className(of: entity)
        let parent =
            entity.parentEntityName.flatMap { model.entitiesByName[$0] }.map(className(of:)) ?? "NSManagedObject"
        let finality = entity.subentityNames.isEmpty ? "public final class" : "public class"
        var lines = header("\(name).swift", "the entity \(entity.name)")
        lines.append(
            "/// An object of the entity \(entity.name)\(entity.isAbstract ? " (abstract: its objects are of its sub-entities)" : "")."
        )
        lines.append("\(finality) \(name): \(parent) {")
        // A generated class is regenerated, never edited, and Swift allows no override in an
        // extension: it overrides no validateValue(_:forKey:), and its saves need not ask.
        lines.append("    /// This class overrides no `validateValue(_:forKey:)`: saves check the model in place.")
        lines.append(
            "    override public class var validatesEachKey: Bool { \(entity.subentityNames.isEmpty ? "false" : "self != \(name).self") }"
        )
        for property in entity.properties {
            switch property.kind {
            case .attribute(let a):
                lines.append(
                    "    /// \(a.attributeType.xcodeName)\(a.isOptional ? "" : ", required")\(a.isTransient ? ", transient" : "")\(a.isDerived ? ", derived" : "")\(a.attributeType == .transformable ? transformableNote(a) : "")."
                )
                lines.append(
                    "    @Managed(\(Self.literal(a.name))) public var \(Self.propertyName(a.name)): \(swiftType(of: a))"
                )
            case .relationship(let r):
                lines.append(
                    "    /// \(r.isToMany ? (r.isOrdered ? "Ordered to-many" : "To-many") : "To-one") relationship to \(r.destinationEntityName)\(r.inverseName.map { ", inverse \($0)" } ?? "")."
                )
                lines.append(
                    "    @Managed(\(Self.literal(r.name))) public var \(Self.propertyName(r.name)): \(swiftType(of: r))"
                )
            case .fetched: break
            }
        }
        lines.append("}")
        for case let r as RelationshipDescription in entity.properties where r.isToMany {
            let destination = destinationClass(of: r)
            let suffix = Self.identifier(r.name, capitalized: true)
            let collection = r.isOrdered ? "[\(destination)]" : "Set<\(destination)>"
            let key = Self.literal(r.name)
            lines.append("")
            lines.append("// MARK: Generated accessors for \(r.name)")
            lines.append("extension \(name) {")
            lines.append("    /// Adds an object to \(r.name)\(r.isOrdered ? ", at its end" : "").")
            lines.append(
                "    public func addTo\(suffix)(_ value: \(destination)) { addObjects([value], toRelationship: \(key)) }"
            )
            lines.append("    /// Removes an object from \(r.name).")
            lines.append(
                "    public func removeFrom\(suffix)(_ value: \(destination)) { removeObjects([value], fromRelationship: \(key)) }"
            )
            lines.append("    /// Adds objects to \(r.name)\(r.isOrdered ? ", at its end in their order" : "").")
            lines.append(
                "    public func addTo\(suffix)(_ values: \(collection)) { addObjects(values, toRelationship: \(key)) }"
            )
            lines.append("    /// Removes objects from \(r.name).")
            lines.append(
                "    public func removeFrom\(suffix)(_ values: \(collection)) { removeObjects(values, fromRelationship: \(key)) }"
            )
            lines.append("}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The list of classes, for `XcodeModelLoader(classes:)`.
    func classList() -> String {
        var lines = header("\(classListName).swift", "the model \(modelName)")
        lines.append(
            "/// The classes of the model \(modelName), by class name: "
                + "`NSManagedObjectModel(contentsOf: url, classes: \(classListName).byName)`.")
        lines.append("public enum \(classListName) {")
        lines.append("    /// Each class, by the name the model gives it (representedClassName).")
        lines.append("    public static var byName: [String: NSManagedObject.Type] {")
        let classes = model.entities.map(className(of:)).sorted()
        if classes.isEmpty {
            lines.append("        [:]")
        } else {
            lines.append("        [")
            for c in classes { lines.append("            \(Self.literal(c)): \(c).self,") }
            lines.append("        ]")
        }
        lines.append("    }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func header(_ file: String, _ what: String) -> [String] {
        [
            "// \(file): \(what), generated by `workbook model codegen` from the model \(modelName).",
            "// Regenerate it rather than editing it.", "", "import CoreData", "",
        ]
    }

    private func transformableNote(_ a: AttributeDescription) -> String {
        let parts = [
            a.attributeValueClassName.map { "class \($0)" }, a.valueTransformerName.map { "transformer \($0)" },
        ].compactMap { $0 }
        return parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))"
    }

    // MARK: Types

    /// An attribute's Swift type, as Xcode writes it with scalars on.
    func swiftType(of a: AttributeDescription) -> String {
        switch a.attributeType {
        case .integer16: return "Int16"
        case .integer32: return "Int32"
        case .integer64: return "Int64"
        case .double: return "Double"
        case .float: return "Float"
        case .boolean: return "Bool"
        case .decimal: return "Decimal?"
        case .string: return "String?"
        case .date: return "Date?"
        case .binaryData: return "Data?"
        case .uuid: return "UUID?"
        case .uri: return "URL?"
        case .composite: return "[String: Any]?"
        case .objectID: return "NSManagedObjectID?"
        case .undefined: return "Any?"
        case .transformable:
            guard let name = a.attributeValueClassName, Self.isFoundationType(name) else { return "Any?" }
            return "\(name)?"
        }
    }

    /// A relationship's Swift type: the destination's class, a set of them, an array when ordered.
    func swiftType(of r: RelationshipDescription) -> String {
        let destination = destinationClass(of: r)
        if !r.isToMany { return "\(destination)?" }
        return r.isOrdered ? "[\(destination)]" : "Set<\(destination)>"
    }

    private func destinationClass(of r: RelationshipDescription) -> String {
        model.entitiesByName[r.destinationEntityName].map(className(of:)) ?? "NSManagedObject"
    }

    /// Types a transformable attribute may keep its class for: Swift's and Foundation's value
    /// types and collections of them, and the Foundation classes Linux has. Any other class is
    /// the application's, which the generated file cannot see.
    static func isFoundationType(_ name: String) -> Bool {
        let simple: Set<String> = [
            "String", "Int", "Double", "Float", "Bool", "Data", "Date", "URL", "UUID", "Decimal",
            "NSArray", "NSDictionary", "NSSet", "NSOrderedSet", "NSString", "NSNumber", "NSData",
            "NSDate", "NSURL", "NSUUID", "NSAttributedString", "NSValue", "NSNull",
        ]
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if simple.contains(trimmed) { return true }
        // [Element] and [Key: Value] of such types.
        guard trimmed.hasPrefix("["), trimmed.hasSuffix("]") else { return false }
        let inner = trimmed.dropFirst().dropLast()
        let parts = inner.split(separator: ":", maxSplits: 1).map { String($0) }
        return !parts.isEmpty && parts.allSatisfy { isFoundationType($0) }
    }

    // MARK: Names

    /// Swift's keywords, which a property name must be written in backticks as.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
    ]

    /// ManagedObject's own properties, which a model's property cannot be declared over (Core
    /// Data forbids NSManagedObject's names, such as `description`, for the same reason).
    static let managedObjectNames: Set<String> = [
        "description", "entity", "objectID", "managedObjectContext", "isFault", "hasChanges",
        "hasPersistentChangedValues", "isDeleted", "isInserted", "isUpdated", "predicateConstant", "hashValue",
    ]

    /// A property name as Swift source: in backticks when it is a keyword, with `Value` appended
    /// when ManagedObject has a property of that name (the key stays the model's).
    static func propertyName(_ name: String) -> String {
        if managedObjectNames.contains(name) { return name + "Value" }
        let plain = identifier(name, capitalized: false)
        return keywords.contains(plain) ? "`\(plain)`" : plain
    }

    /// A string literal.
    static func literal(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Whether a name is a plain Swift identifier.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
            && !keywords.contains(name)
    }

    /// A name made an identifier: letters and digits kept, the first letter capitalized when asked.
    static func identifier(_ name: String, capitalized: Bool) -> String {
        var s = String(
            name.unicodeScalars.filter { $0 == "_" || CharacterSet.alphanumerics.contains($0) }.map(Character.init))
        if s.first?.isNumber ?? true { s = "_" + s }
        if capitalized, let first = s.first { s = first.uppercased() + s.dropFirst() }
        return s
    }
}
