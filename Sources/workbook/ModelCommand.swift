import ArgumentParser
import Foundation
import ObjectGraph
import WorkbookSupport

struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Look inside Xcode model files.",
        subcommands: [Describe.self, Codegen.self])

    struct Describe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "describe",
            abstract: "Print a model's entities: attributes, relationships and version hashes.",
            discussion: """
                PATH is an .xcdatamodeld bundle (its current version is described unless you pass \
                --version), an .xcdatamodel folder, or its contents file. The files are only read. \
                ToDo.xcdatamodeld, when no file of that name is here, is the ToDo application's \
                model that the workbook ships.

                Version hashes are Core Data's, in base64 as Core Data shows them in store metadata; \
                the version checksum is NSManagedObjectModel.versionChecksum. To compare them with \
                a store's, run `workbook store inspect STORE --model PATH`.
                """)

        @Argument(help: ArgumentHelp("The model file.", valueName: "path"))
        var path: String

        @Option(
            help: ArgumentHelp("The version of a bundle to describe (default: the current one).", valueName: "name"))
        var version: String?

        func run() throws {
            do { print(try ModelCommand.describe(ModelCommand.locate(path), version: version)) } catch let error
                as CoreDataError
            {
                throw WorkbookError(
                    "\(error.message)\nGive the path of an .xcdatamodeld bundle or an .xcdatamodel folder, such as one Xcode saved."
                )
            }
        }
    }

    /// The model file `path` names: the file there, else, for the bare name of a model the
    /// workbook ships (`ToDo.xcdatamodeld`), that model, so the README's command works from
    /// any folder.
    static func locate(_ path: String) -> URL {
        let url = URL(fileURLWithPath: path)
        if FileManager.default.fileExists(atPath: url.path) || path.contains("/") { return url }
        let shipped = ToDoModels.bundleURL
        return path == shipped.lastPathComponent ? shipped : url
    }

    /// The report `model describe` prints: deterministic, with paths relative to the model's folder.
    static func describe(_ url: URL, version: String? = nil) throws -> String {
        let loader = XcodeModelLoader()
        let model: ManagedObjectModel
        var lines: [String] = []
        let name = url.lastPathComponent
        if url.pathExtension == "xcdatamodeld" {
            let bundle = try loader.loadBundle(at: url)
            let chosen = version ?? bundle.currentVersionName
            guard let m = bundle.model(named: chosen) else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "\(name) has no version \(chosen); its versions are \(bundle.versionNames.joined(separator: ", "))")
            }
            model = m
            lines.append(
                "\(name): version \(chosen)\(chosen == bundle.currentVersionName ? " (current)" : "") of \(bundle.versionNames.joined(separator: ", "))"
            )
        } else {
            guard version == nil else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "\(name) is a single model, not a bundle of versions; leave out --version")
            }
            model = try loader.loadModel(at: url)
            lines.append("\(name): a model")
        }
        if let identifier = model.versionIdentifiers.sorted().first, !identifier.isEmpty {
            lines.append("Version identifier: \(identifier)")
        }
        lines.append("Version checksum: \(model.versionChecksum)")
        for entity in model.entities { lines += [""] + block(entity) }
        if !model.configurationDescriptions.isEmpty {
            lines += ["", "Configurations:"]
            for configuration in model.configurationDescriptions {
                lines.append("  \(configuration.name): \(configuration.entityNames.joined(separator: ", "))")
            }
        }
        if !model.fetchRequestTemplatesByName.isEmpty {
            lines += ["", "Fetch requests:"]
            for name in model.fetchRequestTemplatesByName.keys.sorted() {
                guard let template = model.fetchRequestTemplatesByName[name] else { continue }
                lines.append(
                    "  \(name): \(template.entityName)" + (template.predicateFormat.map { " where \($0)" } ?? ""))
            }
        }
        if !loader.warnings.isEmpty {
            let base = url.deletingLastPathComponent().path + "/"
            lines += ["", "Warnings (\(loader.warnings.count)):"]
            for warning in loader.warnings {
                let file = warning.file.hasPrefix(base) ? String(warning.file.dropFirst(base.count)) : warning.file
                lines.append("  \(file):\(warning.line): \(warning.message)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// One entity: its flags, attributes and relationships (sorted by name), and version hash.
    static func block(_ entity: EntityDescription) -> [String] {
        var heading = entity.name
        var notes: [String] = []
        if entity.isAbstract { notes.append("abstract") }
        if let parent = entity.parentEntityName { notes.append("parent \(parent)") }
        if !notes.isEmpty { heading += " (\(notes.joined(separator: ", ")))" }
        var lines = [heading]
        let attributes = entity.properties.compactMap { if let a = $0 as? AttributeDescription { a } else { nil } }
            .sorted { $0.name < $1.name }
        let relationships = entity.properties.compactMap {
            if let r = $0 as? RelationshipDescription { r } else { nil }
        }.sorted { $0.name < $1.name }
        if !attributes.isEmpty {
            lines.append("  Attributes:")
            let width = attributes.map(\.name.count).max() ?? 0
            let typeWidth = attributes.map(\.attributeType.xcodeName.count).max() ?? 0
            for a in attributes {
                var text =
                    "    " + pad(a.name, width) + "  " + pad(a.attributeType.xcodeName, typeWidth) + "  "
                    + (a.isOptional ? "optional" : "required")
                if a.isTransient { text += ", transient" }
                if let value = a.defaultConstant { text += ", default \(defaultText(value))" }
                if let expression = a.derivationExpression { text += ", derived from \(expression)" }
                if a.attributeType == .transformable {
                    text += ", transformer \(a.valueTransformerName ?? "NSSecureUnarchiveFromData")"
                }
                if a.attributeType == .composite {
                    text += ", elements \(a.elements.map(\.name).joined(separator: ", "))"
                }
                if a.allowsExternalBinaryDataStorage { text += ", external storage" }
                if a.preservesValueInHistoryOnDeletion { text += ", kept in history after deletion" }
                lines.append(text)
            }
        }
        if !relationships.isEmpty {
            lines.append("  Relationships:")
            let width = relationships.map(\.name.count).max() ?? 0
            for r in relationships {
                var kind = r.isToMany ? (r.isOrdered ? "ordered to-many" : "to-many") : "to-one"
                if r.isToMany && (r.minCount > 0 || r.maxCount > 0) {
                    kind += " (\(r.minCount)...\(r.maxCount > 0 ? String(r.maxCount) : "any"))"
                }
                let inverse =
                    r.inverseName.map { "inverse \(r.inverseEntityName.map { "\($0)." } ?? "")\($0)" } ?? "no inverse"
                lines.append(
                    "    " + pad(r.name, width)
                        + "  -> \(r.destinationEntityName), \(inverse), \(kind), \(r.isOptional ? "optional" : "required"), delete rule \(ruleName(r.deleteRule))"
                )
            }
        }
        if !entity.fetchedProperties.isEmpty {
            lines.append("  Fetched properties:")
            for fetched in entity.fetchedProperties {
                lines.append(
                    "    \(fetched.name)  -> \(fetched.fetchRequest.entityName)"
                        + (fetched.fetchRequest.predicateFormat.map { " where \($0)" } ?? ""))
            }
        }
        lines.append("  Version hash: \(entity.versionHash.base64EncodedString())")
        return lines
    }

    static func pad(_ s: String, _ width: Int) -> String { s.padding(toLength: width, withPad: " ", startingAt: 0) }

    static func ruleName(_ rule: DeleteRule) -> String {
        switch rule {
        case .nullify: return "Nullify"
        case .cascade: return "Cascade"
        case .deny: return "Deny"
        case .noAction: return "No Action"
        }
    }

    /// A default value as Xcode's model editor shows it.
    static func defaultText(_ value: ConstantValue) -> String {
        switch value {
        case .bool(let b): return b ? "YES" : "NO"
        case .string(let s): return "\"\(s)\""
        case .date(let d): return ISO8601DateFormatter().string(from: d)
        case .uuid(let u): return u.uuidString
        case .url(let u): return u.absoluteString
        case .int(let i): return String(i)
        case .double(let d): return "\(d)"
        case .decimal(let d): return "\(d)"
        default: return "\(value)"
        }
    }
}
