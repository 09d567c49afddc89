import ArgumentParser
import Foundation
import ObjectGraph

struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Look inside store files.",
        subcommands: [Inspect.self])

    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Print a store's type, metadata, entities with their object counts, and for SQLite its tables.",
            discussion: """
                The file is opened read-only: inspecting never changes it. No model is needed; with \
                --model, the store's version hashes are compared with the model's, entity by entity, \
                and the report says whether the model opens the store without migration. Version \
                hashes are base64, as Core Data shows them in store metadata.
                """)

        @Argument(help: ArgumentHelp("The store file (SQLite, XML or binary).", valueName: "path"))
        var path: String

        @Option(
            help: ArgumentHelp(
                "A model to compare the store's version hashes with: an .xcdatamodeld bundle, an .xcdatamodel folder or its contents file.",
                valueName: "path"))
        var model: String?

        @Option(
            help: ArgumentHelp(
                "With a bundle for --model, the version to compare with (default: the version whose hashes the store has, else the current one).",
                valueName: "name"))
        var version: String?

        func run() throws {
            let url = URL(fileURLWithPath: path)
            let inspection: StoreInspection
            do { inspection = try StoreInspection(at: url) } catch let error as CoreDataError {
                throw WorkbookError(
                    "\(error.message)\nGive the path of a store file, such as one a chapter or your app saved.")
            }
            var text = StoreCommand.report(inspection, name: url.lastPathComponent)
            if let model {
                do {
                    text +=
                        "\n\n"
                        + (try StoreCommand.comparison(
                            inspection, modelURL: ModelCommand.locate(model), version: version))
                } catch let error as CoreDataError {
                    throw WorkbookError(
                        "\(error.message)\nGive --model the path of an .xcdatamodeld bundle or an .xcdatamodel folder.")
                }
            } else if version != nil {
                throw WorkbookError("--version names a version of the --model bundle; give --model too")
            }
            print(text)
        }
    }

    /// What `store inspect --model` adds: whether the model opens the store as it is, and each
    /// entity's hashes side by side.
    static func comparison(_ inspection: StoreInspection, modelURL: URL, version: String?) throws -> String {
        let loader = XcodeModelLoader()
        let model: ManagedObjectModel
        let name = modelURL.lastPathComponent
        var heading: String
        if modelURL.pathExtension == "xcdatamodeld" {
            let bundle = try loader.loadBundle(at: modelURL)
            let versions = try VersionedModel(bundle, name: modelURL.deletingPathExtension().lastPathComponent)
            let chosen =
                version ?? versions.versionName(forStoreMetadata: inspection.metadata) ?? bundle.currentVersionName
            guard let m = bundle.model(named: chosen) else {
                throw WorkbookError(
                    "\(name) has no version \(chosen); its versions are \(bundle.versionNames.joined(separator: ", "))")
            }
            model = m
            heading =
                "Compared with \(name), version \(chosen)\(chosen == bundle.currentVersionName ? " (current)" : ""):"
        } else {
            guard version == nil else {
                throw WorkbookError("\(name) is a single model, not a bundle of versions; leave out --version")
            }
            model = try loader.loadModel(at: modelURL)
            heading = "Compared with \(name):"
        }
        let comparison = inspection.comparison(with: model)
        var lines = [heading]
        if !comparison.isCompatible {
            lines.append(
                "  The store does not match the model: opening it needs a migration (without one, Core Data refuses it with error 134100)."
            )
        } else if comparison.entities.contains(where: { $0.state == .legacy }) {
            lines.append(
                "  The store matches the model, with the version hashes ObjectGraph wrote before it computed Core Data's: opening it rewrites them as Core Data's."
            )
        } else {
            lines.append(
                "  The store matches the model: Core Data's version hashes of every entity; it opens without migration."
            )
        }
        let width = comparison.entities.map(\.name.count).max() ?? 0
        for entity in comparison.entities {
            let text: String
            switch entity.state {
            case .equal: text = "Core Data's hash of the model's entity"
            case .legacy:
                text = "ObjectGraph's old hash of the model's entity; Core Data's is \(entity.modelHash ?? "")"
            case .different: text = "differs: the model's is \(entity.modelHash ?? "")"
            case .onlyInStore: text = "only in the store"
            case .onlyInModel: text = "only in the model: \(entity.modelHash ?? "")"
            }
            lines.append("  " + entity.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(text)")
        }
        return lines.joined(separator: "\n")
    }

    /// The report `store inspect` prints.
    static func report(_ inspection: StoreInspection, name: String) -> String {
        var lines = [
            "\(name): a \(inspection.type.rawValue) store", "UUID: \(inspection.uuid)", "", "Entities (objects):",
        ]
        let width = inspection.entityCounts.map(\.entity.count).max() ?? 0
        for (entity, count) in inspection.entityCounts {
            lines.append("  " + entity.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(count)")
        }
        lines.append("")
        lines.append("Model version hashes (base64):")
        for (entity, hash) in inspection.versionHashes {
            lines.append("  " + entity.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(hash)")
        }
        let keys = inspection.metadata.keys.filter { $0 != "NSStoreModelVersionHashes" && $0 != "NSStoreUUID" }.sorted()
        if !keys.isEmpty {
            lines.append("")
            lines.append("Other metadata:")
            for key in keys { lines.append("  \(key) = \(metadataText(inspection.metadata[key]))") }
        }
        if !inspection.tables.isEmpty {
            lines.append("")
            lines.append("Tables (rows): columns")
            for table in inspection.tables {
                lines.append("  \(table.name) (\(table.rowCount)): \(table.columns.joined(separator: ", "))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A metadata value as text: lists of strings quoted, as the property list has them.
    static func metadataText(_ value: Any?) -> String {
        switch value {
        case let strings as [String]: return "[" + strings.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        case let value?: return "\(value)"
        case nil: return ""
        }
    }
}
