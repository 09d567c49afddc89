import Foundation
import ObjectGraph
import Testing
import WorkbookSupport

/// The classes ToDo and Category checked in under Sources/ZarraToDo/Generated are what
/// `workbook model codegen` writes now for the shipped model (its current version, ToDo 2), so
/// they cannot go stale when the model or the generator changes. Apple's "Generating code"
/// shows Xcode's generated files saying they were "automatically generated and should not be
/// edited"; these are held to the same rule.
@Suite struct GeneratedClassesTests {
    /// Sources/ZarraToDo/Generated, found from this file.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/ZarraToDo/Generated")

    static let regenerate = "swift run workbook model codegen ToDo.xcdatamodeld --output Sources/ZarraToDo/Generated"

    @Test(
        "The checked-in ToDo classes are what ModelCodegen writes for the ToDo model (Xcode's Class Definition codegen)"
    )
    func theCheckedInClassesAreWhatTheGeneratorWrites() throws {
        let codegen = try ModelCodegen(modelAt: ToDoModels.bundleURL)
        let files = codegen.files()
        // Generated for version 2, the model the program runs as.
        #expect(codegen.model.entityVersionHashesByName == (try ToDoModels.version2().entityVersionHashesByName))
        #expect(files.map(\.name).sorted() == ["Category.swift", "ToDo.swift", "ToDoModelClasses.swift"])
        let checkedIn = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(
            checkedIn.sorted() == files.map(\.name).sorted(),
            "Sources/ZarraToDo/Generated holds \(checkedIn.sorted()); regenerate it: \(Self.regenerate)")
        for file in files {
            let url = Self.folder.appendingPathComponent(file.name)
            let contents = try? String(contentsOf: url, encoding: .utf8)
            #expect(
                contents == file.contents,
                "\(file.name) differs from what the generator writes; regenerate it: \(Self.regenerate)")
        }
    }

    @Test(
        "ToDoModelClasses names each class as its entity, the name model(version:classes:) looks up (representedClassName)"
    )
    func theClassListNamesTheEntities() throws {
        let model = try ToDoModels.version2()
        #expect(Set(ToDoModelClasses.byName.keys) == Set(model.entities.map(\.name)))
    }
}
