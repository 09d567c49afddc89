import Foundation
import TestSupport
import Testing

@testable import ToDoApp

// A to-do's number is its key in the store, and keys count per entity on every store type
// (AtomicStoreKeyTests has the store's side): the first three to-dos are #1, #2 and #3
// whatever categories were added between them, a number never changes, and a deleted
// to-do's number is not given to another while the store lives.
@Suite struct ToDoNumberTests {
    @Test(arguments: ["xml", "sqlite"])
    func numbersAreDenseAndStableWithCategoriesBetween(storeType: String) throws {
        let todo = try ToDoHarness()
        @discardableResult func run(_ arguments: String...) throws -> [String] {
            try todo.run(arguments + ["--store-type", storeType])
        }
        try run("categories", "add", "Home")
        #expect(try run("add", "Pay rent", "--category", "Home") == ["Added #1: Pay rent, in Home"])
        try run("categories", "add", "Work")
        #expect(try run("add", "Answer mail") == ["Added #2: Answer mail"])
        #expect(try run("add", "Buy milk") == ["Added #3: Buy milk"])
        #expect(try run("delete", "3") == ["Deleted #3: Buy milk"])
        #expect(try run("add", "Buy bread") == ["Added #4: Buy bread"])
        #expect(
            try run("list").dropFirst(2).map { String($0.prefix(1)) } == ["2", "4", "1"],
            "sorted by title: Answer mail, Buy bread, Pay rent")
    }

    // A store written before numbers counted per entity (one count for categories and
    // to-dos, as Core Data's XML store counts) opens with every to-do's number as it was;
    // new to-dos are numbered after the file's nextObjectID.
    @Test func anXMLStoreWithOneCountForAllKeepsItsNumbers() throws {
        let todo = try ToDoHarness()
        try todo.run("categories", "add", "Home")
        let written = try String(contentsOf: todo.storeURL, encoding: .utf8)
        let old = try OneCountXMLStore.text(
            reusingHeaderOf: written, nextObjectID: 5,
            objects: """
                    <object type="Category" id="z1" version="1">
                        <attribute name="name" type="string">Home</attribute>
                    </object>
                    <object type="ToDo" id="z2" version="1">
                        <attribute name="title" type="string">Pay rent</attribute>
                        <attribute name="completed" type="bool">0</attribute>
                        <attribute name="doNotAlert" type="bool">0</attribute>
                        <relationship name="category" type="1/1" destination="Category" idrefs="z1"></relationship>
                    </object>
                    <object type="Category" id="z3" version="1">
                        <attribute name="name" type="string">Work</attribute>
                    </object>
                    <object type="ToDo" id="z4" version="1">
                        <attribute name="title" type="string">Answer mail</attribute>
                        <attribute name="completed" type="bool">0</attribute>
                        <attribute name="doNotAlert" type="bool">0</attribute>
                    </object>
                """)
        try Data(old.utf8).write(to: todo.storeURL)

        #expect(
            try todo.run("list").dropFirst(2).map { $0.split(separator: " ").prefix(3).joined(separator: " ") } == [
                "4 - Answer", "2 - Pay",
            ])
        #expect(try todo.run("done", "4") == ["Completed #4: Answer mail"])
        #expect(
            try todo.run("show", "2").prefix(3) == ["#2 Pay rent", "  due:            -", "  category:       Home"])
        #expect(try todo.run("add", "Buy milk", "--category", "Work") == ["Added #5: Buy milk, in Work"])
        try todo.run("categories", "add", "Garden")
        #expect(try todo.run("add", "Water plants", "--category", "Garden") == ["Added #6: Water plants, in Garden"])
        #expect(
            try todo.run("categories") == [
                "Category  To-dos", "--------  ------", "Garden    1", "Home      1", "Work      1",
            ])
    }
}
