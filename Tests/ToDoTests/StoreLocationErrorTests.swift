import Foundation
import Testing

@testable import ToDoApp

// Where the store is, and what it is, go wrong in ways a person can fix from the message:
// a --store path with no store (a typo), a folder, a type the file contradicts. A failed
// command leaves no file or folder behind; adding makes a new store anywhere.
@Suite struct StoreLocationErrorTests {
    /// Every file and folder under `directory`, relative, to show that nothing appeared.
    static func contents(of directory: URL) -> [String] {
        (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test(arguments: [
        ["list"], ["show", "1"], ["watch", "--ticks", "1"], ["done", "1"], ["edit", "1", "--title", "Rent"],
        ["delete", "1"], ["categories"], ["categories", "rename", "Home", "House"],
    ])
    func aStorePathWithNoStoreIsAClearErrorThatMakesNothing(_ arguments: [String]) throws {
        let todo = try ToDoHarness()
        let typo = todo.directory.appendingPathComponent("tpyo/ToDo.xml").path
        let message = todo.failure(arguments + ["--store", typo])
        #expect(
            message
                == "There is no store at \(typo). Check the path; to make a new store there, add a to-do: todo add \"Pay rent\" --store \(typo)"
        )
        #expect(Self.contents(of: todo.directory).isEmpty)
    }

    @Test func migrateNamesTheMissingStoreAndHowToMakeAVersion1One() throws {
        let todo = try ToDoHarness()
        let typo = todo.directory.appendingPathComponent("v1.xml").path
        #expect(
            todo.failure("migrate", "--policy", "doNotAlertForA", "--store", typo)
                == "There is no store at \(typo) to migrate. Check the path; to make a version 1 store there: todo add \"Pay rent\" --store \(typo) --model-version 1"
        )
        #expect(Self.contents(of: todo.directory).isEmpty)
    }

    // Adding is how a store is made, at --store as in the default folder.
    @Test func addMakesAStoreAtANewPath() throws {
        let todo = try ToDoHarness()
        let path = todo.directory.appendingPathComponent("new/folder/mine.xml").path
        #expect(try todo.run("add", "Pay rent", "--store", path) == ["Added #1: Pay rent"])
        #expect(try todo.run("categories", "add", "Home", "--store", path) == ["Added category Home"])
        #expect(try todo.run("list", "--store", path).last?.contains("Pay rent") == true)
    }

    // A failed command in the default folder leaves no store there either. The XML store's
    // empty `.lock` sidecar (and so its folder) stays: removing a lock file races with another
    // process about to take it, which could let two writers each hold "the" lock.
    @Test(arguments: [
        ["show", "1"], ["add", "Pay rent", "--category", "Garden"], ["categories", "delete", "Garden"], ["add", " "],
    ])
    func aFailedCommandLeavesNoStoreBehind(_ arguments: [String]) throws {
        let todo = try ToDoHarness()
        #expect(todo.failure(arguments) != nil)
        #expect(Self.storeFiles(in: todo.directory).isEmpty)
        let elsewhere = todo.directory.appendingPathComponent("a/b/ToDo.sqlite").path
        #expect(todo.failure(["add", "Pay rent", "--category", "Garden", "--store", elsewhere]) != nil)
        #expect(Self.storeFiles(in: todo.directory).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: todo.directory.appendingPathComponent("a").path))
    }

    /// The files under `directory` other than folders and lock sidecars.
    static func storeFiles(in directory: URL) -> [String] {
        contents(of: directory).filter { name in
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: directory.appendingPathComponent(name).path, isDirectory: &isFolder)
            return exists && !isFolder.boolValue && !name.hasSuffix(".lock")
        }
    }

    @Test(arguments: [["list"], ["add", "Pay rent"], ["migrate"]])
    func aFolderIsNotAStore(_ arguments: [String]) throws {
        let todo = try ToDoHarness()
        let folder = todo.directory.appendingPathComponent("stores")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let message = try #require(todo.failure(arguments + ["--store", folder.path]))
        #expect(message.hasPrefix("\(folder.path) is a folder, not a store file. Name "))
        #expect(message.hasSuffix("--store \(folder.path)/ToDo.xml"))
        #expect(!message.contains("NSCocoaErrorDomain"))
        #expect(Self.contents(of: todo.directory) == ["stores"])
    }

    // A SQLite store says so in its first bytes ("SQLite format 3"): no --store-type needed
    // to open it, whatever its name. A new file named .sqlite (or .sqlite3, .db) is SQLite.
    @Test func aSQLiteStoreIsRecognized() throws {
        let todo = try ToDoHarness()
        let named = todo.directory.appendingPathComponent("ToDo.sqlite")
        try todo.run("add", "Pay rent", "--store", named.path)
        let head = try FileHandle(forReadingFrom: named).read(upToCount: 16)
        #expect(head == Data("SQLite format 3\0".utf8))
        #expect(try todo.run("list", "--store", named.path).last?.contains("Pay rent") == true)

        let unnamed = todo.directory.appendingPathComponent("todos.store")
        try todo.run("add", "Answer mail", "--store", unnamed.path, "--store-type", "sqlite")
        #expect(try todo.run("show", "1", "--store", unnamed.path).first == "#1 Answer mail")
        try todo.run("add", "Buy milk", "--store", unnamed.path)
        #expect(try todo.run("list", "--store", unnamed.path).count == 4)

        let xml = todo.directory.appendingPathComponent("todos.db.xml")
        try todo.run("add", "Call Bob", "--store", xml.path)
        #expect(ToDoStoreType(contentsOf: xml) == .xml)
    }

    @Test func aStoreTypeTheFileContradictsIsAClearError() throws {
        let todo = try ToDoHarness()
        let url = todo.directory.appendingPathComponent("ToDo.sqlite")
        try todo.run("add", "Pay rent", "--store", url.path)
        let before = try Data(contentsOf: url)
        #expect(
            todo.failure("list", "--store", url.path, "--store-type", "xml")
                == "The store at \(url.path) is a sqlite store, not xml. Leave out --store-type: todo reads the type from the file."
        )
        #expect(try Data(contentsOf: url) == before)
    }

    // A due time already past is kept (recording something overdue is legitimate) with a
    // warning that names the time: `todo watch` only alerts what is still ahead.
    @Test func aDueTimeAlreadyPastIsAddedWithAWarning() throws {
        let todo = try ToDoHarness() // 09:00
        #expect(
            try todo.run("add", "Pay rent", "--due", "08:30") == [
                "Added #1: Pay rent, due 2009-06-01 08:30",
                "Warning: its due time, 2009-06-01 08:30, has already passed, so `todo watch` will not alert it. To move it: todo edit 1 --due WHEN (+1d: a day from now).",
            ])
        #expect(
            try todo.run("edit", "1", "--due", "2009-05-31T12:00") == [
                "Changed #1: Pay rent, due 2009-05-31 12:00",
                "Warning: its due time, 2009-05-31 12:00, has already passed, so `todo watch` will not alert it. To move it: todo edit 1 --due WHEN (+1d: a day from now).",
            ])
        #expect(try todo.run("edit", "1", "--due", "09:00") == ["Changed #1: Pay rent, due 2009-06-01 09:00"])
        #expect(try todo.run("add", "Answer mail", "--due", "+1m") == ["Added #2: Answer mail, due 2009-06-01 09:01"])
    }
}
