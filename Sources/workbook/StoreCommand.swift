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
            discussion: "The file is opened read-only: inspecting never changes it. No model is needed.")

        @Argument(help: ArgumentHelp("The store file (SQLite, XML or binary).", valueName: "path"))
        var path: String

        func run() throws {
            let url = URL(fileURLWithPath: path)
            let inspection: StoreInspection
            do { inspection = try StoreInspection(at: url) } catch let error as CoreDataError {
                throw ValidationError("\(error.message)\nGive the path of a store file, such as one a chapter or your app saved.")
            }
            print(StoreCommand.report(inspection, name: url.lastPathComponent))
        }
    }

    /// The report `store inspect` prints.
    static func report(_ inspection: StoreInspection, name: String) -> String {
        var lines = ["\(name): a \(inspection.type.rawValue) store", "UUID: \(inspection.uuid)", "", "Entities (objects):"]
        let width = inspection.entityCounts.map(\.entity.count).max() ?? 0
        for (entity, count) in inspection.entityCounts {
            lines.append("  " + entity.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(count)")
        }
        lines.append("")
        lines.append("Model version hashes:")
        for (entity, hash) in inspection.versionHashes {
            lines.append("  " + entity.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(hash)")
        }
        let keys = inspection.metadata.keys.filter { $0 != "NSStoreModelVersionHashes" && $0 != "NSStoreUUID" }.sorted()
        if !keys.isEmpty {
            lines.append("")
            lines.append("Other metadata:")
            for key in keys { lines.append("  \(key) = \(inspection.metadata[key]!)") }
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
}
