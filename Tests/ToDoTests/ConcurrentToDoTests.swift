import Foundation
import ObjectGraph
import TestSupport
import Testing
import WorkbookSupport

// The README's workflow, as processes: `todo watch` in one terminal, `todo add` in others.
// Ten adds run at once beside a watch; afterwards every item is in the store, and the watch
// alerted each one although all were added after it started.
@Suite struct ConcurrentToDoTests {
    /// The built `todo` program, next to the test bundle.
    static var todoURL: URL? { BuiltExecutable.url(named: "todo") }

    /// A started `todo` process and what it prints, read as it comes.
    final class Running: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var text = ""
        private var errorText = ""

        init(_ arguments: [String], dataHome: URL) throws {
            guard let executable = ConcurrentToDoTests.todoURL else { throw CocoaError(.fileNoSuchFile) }
            process.executableURL = executable
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_DATA_HOME"] = dataHome.path
            process.environment = environment
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            // One reading thread per pipe: blocking reads until the process closes its end.
            for (pipe, isError) in [(output, false), (errors, true)] {
                let handle = pipe.fileHandleForReading
                Thread.detachNewThread { [self] in
                    while true {
                        let data = handle.availableData
                        if data.isEmpty { break }
                        lock.withLock {
                            if isError {
                                errorText += String(decoding: data, as: UTF8.self)
                            } else {
                                text += String(decoding: data, as: UTF8.self)
                            }
                        }
                    }
                    lock.withLock { if !isError { finished = true } }
                }
            }
        }

        /// Whether the process closed its output.
        private var finished = false

        var lines: [String] { lock.withLock { text.split(separator: "\n").map(String.init) } }
        var errors: String { lock.withLock { errorText } }

        /// Waits for the process to end, then for its last output.
        func wait() {
            process.waitUntilExit()
            while !lock.withLock({ finished }) { Thread.sleep(forTimeInterval: 0.01) }
        }
    }

    @Test(
        .enabled(if: todoURL != nil, "the todo executable is built by `swift build --build-tests`"),
        arguments: ["xml", "sqlite"])
    func tenAddsBesideAWatchLoseNothingAndAreAllAlerted(_ storeType: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "todo-processes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        // A category first: it takes no to-do number (numbers count per entity).
        let category = try Running(["categories", "add", "Home", "--store-type", storeType], dataHome: directory)
        category.wait()
        try #require(category.process.terminationStatus == 0, "\(storeType): \(category.errors)")
        // The watch checks five times a second until stopped.
        let watch = try Running(["watch", "--store-type", storeType, "--interval", "0.2"], dataHome: directory)
        // SIGKILL: a child of the test runner may inherit SIGTERM ignored.
        defer { if watch.process.isRunning { kill(watch.process.processIdentifier, SIGKILL) } }
        let started = Date()
        while watch.lines.isEmpty && watch.process.isRunning && Date().timeIntervalSince(started) < 60 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        try #require(watch.lines.first?.hasPrefix("Watching") == true, "watch did not start: \(watch.errors)")

        let titles = (1...10).map { "Item \($0)" }
        // Half of them in the category: each such save changes the category's to-dos too,
        // and the adds merge those changes instead of failing on each other.
        let adds = try titles.enumerated().map { n, title in
            try Running(
                ["add", title, "--due", "+2m", "--store-type", storeType]
                    + (n.isMultiple(of: 2) ? ["--category", "Home"] : []), dataHome: directory)
        }
        for add in adds { add.wait() }
        for (title, add) in zip(titles, adds) {
            #expect(add.process.terminationStatus == 0, "\(storeType) \(title): \(add.errors)")
            #expect(
                add.lines.first?.hasPrefix("Added #") == true && add.lines.first?.contains(": \(title), due ") == true,
                "\(storeType): \(add.lines)")
        }
        // Each add got its own number, and the numbers are dense: 1 to 10.
        var printedNumbers: [String: Int64] = [:]
        for (title, add) in zip(titles, adds) {
            printedNumbers[title] = add.lines.first.flatMap {
                Int64($0.dropFirst("Added #".count).prefix { $0.isNumber })
            }
        }
        #expect(Set(printedNumbers.values) == Set(1...10), "\(storeType): \(printedNumbers)")

        // The watch alerts each item at its next tick; give it a few.
        let deadline = Date().addingTimeInterval(30)
        func alerted() -> [String] { watch.lines.filter { $0.contains("Due in") } }
        while alerted().count < 10 && watch.process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
        }
        Thread.sleep(forTimeInterval: 0.5)
        kill(watch.process.processIdentifier, SIGKILL)
        watch.wait()
        for title in titles {
            let times = alerted().filter { $0.contains(" \(title) (at ") }.count
            #expect(
                times == 1,
                "\(storeType): \(title) alerted \(times) times; watch printed \(watch.lines), errors \(watch.errors)")
        }

        // Every item is in the store, once, and the watch's saves (lastAlertDate) kept them all.
        let url = directory.appendingPathComponent("todo/ToDo.\(storeType)")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try ToDoModels.model(version: 2))
        try coordinator.addPersistentStore(type: storeType == "xml" ? .xml : .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let items = try context.fetch(FetchRequest(entityName: "ToDo"))
        let stored = try items.map { try #require(try $0.checkedValue(forKey: "title") as? String) }
        #expect(stored.sorted() == titles.sorted(), "\(storeType)")
        #expect(
            try items.allSatisfy { try $0.checkedValue(forKey: "lastAlertDate") is Date },
            "\(storeType): every item was alerted and recorded")
        // Numbers are stable: each to-do keeps the number its add printed.
        for item in items {
            let title = try item.checkedValue(forKey: "title") as? String ?? ""
            #expect(printedNumbers[title] == item.objectID.primaryKey, "\(storeType): \(title)")
        }
        let home = try context.fetch(FetchRequest(entityName: "Category"))
        let inHome = try home.first?.mutableSetValue(forKey: "todos").objects().count
        #expect(home.count == 1 && inHome == 5, "\(storeType): the category holds its five to-dos")
    }

    // Issue 14: no interleaving of add, edit, done and delete from several processes loses
    // or duplicates an item. Fifteen processes at once, each on its own to-do, on one store.
    @Test(
        .enabled(if: todoURL != nil, "the todo executable is built by `swift build --build-tests`"),
        arguments: ["xml", "sqlite"])
    func addsEditsDonesAndDeletesAtOnceEachTakeEffect(_ storeType: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("todo-mixed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var numbers: [String: Int64] = [:]
        for n in 1...10 {
            let add = try Running(["add", "Item \(n)", "--store-type", storeType], dataHome: directory)
            add.wait()
            try #require(add.process.terminationStatus == 0, "\(storeType): \(add.errors)")
            let line = try #require(add.lines.first)
            let digits = String(line.dropFirst("Added #".count).prefix { $0.isNumber })
            guard let number = Int64(digits) else {
                Issue.record("\(storeType): no number in \(line)")
                return
            }
            numbers["Item \(n)"] = number
        }
        func number(_ n: Int) -> String { String(numbers["Item \(n)"]!) }
        var commands: [[String]] = []
        for n in 1...5 { commands.append(["done", number(n)]) }
        for n in 6...8 { commands.append(["edit", number(n), "--title", "Renamed \(n)"]) }
        for n in 9...10 { commands.append(["delete", number(n)]) }
        for n in 11...15 { commands.append(["add", "Item \(n)"]) }
        let running = try commands.map { try Running($0 + ["--store-type", storeType], dataHome: directory) }
        for process in running { process.wait() }
        for (command, process) in zip(commands, running) {
            #expect(
                process.process.terminationStatus == 0, "\(storeType) \(command): \(process.lines) \(process.errors)")
        }

        let url = directory.appendingPathComponent("todo/ToDo.\(storeType)")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try ToDoModels.model(version: 2))
        try coordinator.addPersistentStore(type: storeType == "xml" ? .xml : .sqlite, at: url)
        let items = try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "ToDo"))
        var byTitle: [String: Bool] = [:]
        for item in items {
            let title = try #require(try item.checkedValue(forKey: "title") as? String)
            #expect(byTitle[title] == nil, "\(storeType): \(title) is stored twice")
            byTitle[title] = try item.checkedValue(forKey: "completed") as? Bool ?? false
        }
        let expected = (1...5).map { "Item \($0)" } + (6...8).map { "Renamed \($0)" } + (11...15).map { "Item \($0)" }
        #expect(byTitle.keys.sorted() == expected.sorted(), "\(storeType)")
        for n in 1...5 { #expect(byTitle["Item \(n)"] == true, "\(storeType): Item \(n) is not done") }
        for n in 6...8 { #expect(byTitle["Renamed \(n)"] == false, "\(storeType): Renamed \(n)") }
    }
}
