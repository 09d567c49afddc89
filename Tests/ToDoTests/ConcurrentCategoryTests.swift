import Foundation
import ObjectGraph
import Testing
import WorkbookSupport

@testable import ToDoApp

// A category changed by several processes at once: `categories rename` and `categories
// delete` fetch the category again and repeat their change when another process saved it
// first (a to-do added to it, a rename), as `edit` does for a to-do, instead of failing with
// Core Data's raw merge conflict (133020). Whatever the order, the store ends consistent:
// every to-do added is there, in the category if it still exists, in none if it was deleted.
@Suite struct ConcurrentCategoryTests {
    @Test(
        .enabled(if: ConcurrentToDoTests.todoURL != nil, "the todo executable is built by `swift build --build-tests`"),
        arguments: ["xml", "sqlite"])
    func deletingACategoryWhileToDosAreAddedToItLosesNoToDo(_ storeType: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "todo-category-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func run(_ arguments: [String]) throws -> ConcurrentToDoTests.Running {
            try ConcurrentToDoTests.Running(arguments + ["--store-type", storeType], dataHome: directory)
        }
        for setup in [["categories", "add", "Home"], ["add", "First", "--category", "Home"]] {
            let process = try run(setup)
            process.wait()
            try #require(process.process.terminationStatus == 0, "\(setup): \(process.errors)")
        }

        let adds = try (1...4).map { try run(["add", "Job \($0)", "--category", "Home"]) }
        let rename = try run(["categories", "rename", "Home", "House"])
        for process in adds + [rename] { process.wait() }

        // No process met the raw 133020: each either did its work or said clearly why not.
        for process in adds + [rename] {
            #expect(!process.errors.contains("133020"), "\(process.errors)")
            if process.process.terminationStatus != 0 {
                #expect(
                    process.errors.contains("Other processes kept changing")
                        || process.errors.contains("There is no category"), "\(process.errors)")
            }
        }
        let renamed = rename.process.terminationStatus == 0
        let delete = try run(["categories", "delete", renamed ? "House" : "Home"])
        let late = try run(["add", "Late", "--category", renamed ? "House" : "Home"])
        delete.wait()
        late.wait()
        #expect(!delete.errors.contains("133020") && !late.errors.contains("133020"), "\(delete.errors) \(late.errors)")

        let url = directory.appendingPathComponent("todo/ToDo.\(storeType)")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try ToDoModels.model(version: 2))
        try coordinator.addPersistentStore(type: storeType == "xml" ? .xml : .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let titles = try context.fetch(FetchRequest(entityName: "ToDo")).map {
            try $0.checkedValue(forKey: "title") as? String ?? ""
        }
        let addedTitles =
            ["First"] + zip(1...4, adds).filter { $0.1.process.terminationStatus == 0 }.map { "Job \($0.0)" }
            + (late.process.terminationStatus == 0 ? ["Late"] : [])
        #expect(Set(titles) == Set(addedTitles), "stored \(titles), added \(addedTitles)")
        let categories = try context.fetch(FetchRequest(entityName: "Category"))
        if delete.process.terminationStatus == 0 {
            // Gone, and its to-dos stay (the delete rule is Nullify); `add --category` never
            // makes a category, and one that lost the race failed saying it was deleted.
            #expect(categories.isEmpty, "\(delete.lines) \(late.errors)")
        } else {
            #expect(categories.count == 1, "\(delete.errors)")
        }
    }
}
