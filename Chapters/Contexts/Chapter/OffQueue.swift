import CoreData
import WorkbookSupport

/// A context used off its queue. A debug build stops the program there, as Core Data does with
/// `-com.apple.CoreData.ConcurrencyDebug 1`; the section runs the offending code in a process
/// of its own (the chapter's executable, `contexts --off-queue`) and prints what it said.
public enum OffQueue {
    /// The offending code, run by `contexts --off-queue` on its main thread.
    public static func useAContextOffItsQueue() throws {
        let container = NSPersistentContainer(name: "Library", managedObjectModel: try ContextsModels.library())
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(type: NSInMemoryStoreType, url: nil)]
        try container.loadPersistentStores()
        // ANCHOR: off-queue
        let importer = container.newBackgroundContext()
        importer.name = "importer"
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        let count = try importer.count(for: request) // not inside perform or performAndWait
        // ANCHOR_END: off-queue
        print("No check stopped the program: it counted \(count) books off the context's queue.")
    }

    static func run(_ bench: Workbench) throws {
        let print = bench.print
        print("$ contexts --off-queue")
        let result = try runChild()
        for line in result.lines { print("  " + line) }
        print(result.stopped ? "The program stopped there (a trap)." : "The program went on to its end.")
        print("")

        let container = try Library.makeContainer(in: bench.makeDataFolder())
        _ = try Library.insertBooks(into: container)
        // ANCHOR: on-queue
        let importer = container.newBackgroundContext()
        importer.name = "importer"
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        let count = try importer.performAndWait { try importer.count(for: request) }
        // ANCHOR_END: on-queue
        print("Inside performAndWait, the importer counted \(count) books.")
    }

    /// What the child said (its standard output, and the error message of a trap, without the
    /// source file's path) and whether it stopped on a signal.
    static func runChild() throws -> (lines: [String], stopped: Bool) {
        guard let executable = contextsExecutable() else {
            return (["(the contexts executable is not built: run `swift build` first)"], false)
        }
        // No backtrace: only the message is wanted, and symbolicating takes seconds.
        let child = try ChapterProcess.run(
            executable, arguments: ["--off-queue"], environment: ["SWIFT_BACKTRACE": "enable=no"])
        var lines = child.outputLines
        // "…/ContextQueue.swift:158: Fatal error: Concurrency violation: …": the message, without
        // the path and line, which differ from build to build.
        for line in child.errors.split(separator: "\n") {
            if let range = line.range(of: "Fatal error: ") { lines.append(String(line[range.lowerBound...])) }
        }
        return (lines, child.stoppedOnSignal)
    }

    /// The chapter's executable: beside the running program (the chapter itself, the workbook
    /// tool, or the tests' runner), or a folder or two up from it.
    static func contextsExecutable() -> URL? { ChapterProcess.executable(named: "contexts") }
}
