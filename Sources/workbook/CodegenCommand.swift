import ArgumentParser
import Foundation
import ObjectGraph

extension ModelCommand {
    /// `workbook model codegen MODEL --output DIR`: one Swift file per entity, as Xcode's
    /// "Class Definition" code generation writes them.
    struct Codegen: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "codegen",
            abstract: "Write a model's entities as Swift classes, one file per entity.",
            discussion: """
                PATH is an .xcdatamodeld bundle (its current version), an .xcdatamodel folder, or \
                its contents file. Each entity becomes a ManagedObject subclass named by its \
                representedClassName, with an @Managed property per attribute and relationship and \
                addTo…/removeFrom… helpers for each to-many, as Xcode's "Class Definition" codegen \
                writes them; a last file lists the classes for XcodeModelLoader(classes:). The \
                output depends on the model alone. Files of the same names in DIR are replaced; \
                nothing else there is touched.
                """)

        @Argument(help: ArgumentHelp("The model file.", valueName: "path"))
        var path: String

        @Option(
            name: .shortAndLong,
            help: ArgumentHelp("The folder to write the Swift files into (made if missing).", valueName: "dir"))
        var output: String

        func run() throws {
            let codegen: ModelCodegen
            do {
                codegen = try ModelCodegen(modelAt: ModelCommand.locate(path))
            } catch let error as CoreDataError {
                throw WorkbookError(
                    "\(error.message)\nGive the path of an .xcdatamodeld bundle or an .xcdatamodel folder, such as one Xcode saved."
                )
            }
            let folder = URL(fileURLWithPath: output)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for file in codegen.files() {
                    try file.contents.write(
                        to: folder.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
                    print("wrote \(folder.appendingPathComponent(file.name).path)")
                }
            } catch {
                throw WorkbookError("Can't write into \(folder.path): \(error.localizedDescription)")
            }
        }
    }
}
