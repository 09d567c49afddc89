import CoreData
import WorkbookSupport

/// Three copies of the chapter's executable write to-dos into one store at the same time, each
/// through its own connections. Every save goes through; every to-do gets its own primary key;
/// each process, fetching again, sees the others' to-dos without merging anything.
enum SeveralProcesses {
    static let writers = ["alpha", "beta", "gamma"]
    static let perWriter = 4

    static func run(_ bench: Workbench) throws {
        guard let store = ScalingServer.store("writers", on: bench) else { return }
        let container = try ToDoStore.makeContainer(url: store.url, uuid: ScalingChapter.uuid(4))
        defer { ScalingChapter.close(container) }
        let expected = writers.count * perWriter
        bench.print("$ scaling --store-url URL --writer NAME --count \(perWriter)   (\(writers.count) at once)")
        // ANCHOR: run-writers
        let outputs = LockedOutputs(count: writers.count)
        let allDone = DispatchGroup()
        for (index, writer) in writers.enumerated() {
            allDone.enter()
            // A thread each, all at once: every writer waits to see the others' to-dos.
            Thread {
                let arguments = ["--writer", writer, "--count", "\(perWriter)", "--expected", "\(expected)"]
                outputs.set(index, (try? OtherProcess.run(arguments, on: store)) ?? ["(could not start)"])
                allDone.leave()
            }.start()
        }
        allDone.wait()
        // ANCHOR_END: run-writers
        for lines in outputs.all { for line in lines { bench.print("  " + line) } }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let todos = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "ToDo"))
            let keys = Set(todos.map { $0.objectID.uriRepresentation().lastPathComponent })
            bench.print("This process fetches \(todos.count) to-dos with \(keys.count) different primary keys.")
            for writer in writers {
                let titles = todos.compactMap { $0.value(forKey: "title") as? String }.filter {
                    $0.hasPrefix(writer + " ")
                }
                bench.print("  \(writer): \(titles.sorted().joined(separator: ", "))")
            }
        }
    }
}

/// Each child's lines, set from several threads at once.
final class LockedOutputs: @unchecked Sendable {
    // @unchecked Sendable: `lines` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var lines: [[String]]

    init(count: Int) { lines = Array(repeating: [], count: count) }

    func set(_ index: Int, _ value: [String]) {
        lock.lock()
        defer { lock.unlock() }
        lines[index] = value
    }

    var all: [[String]] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}
