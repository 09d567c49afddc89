import Foundation
import ObjectGraph

// Peak memory of fetching a million rows, each way in a process of its own (a process's peak
// RSS only grows, so two measurements cannot share one): the raw loop into an array of
// structs, ObjectGraph's fetch of every object at once, and with fetchBatchSize 100. Each
// reads every attribute of every row, and the three must read the same checksum.

let memoryWorkloads: [Workload] = [
    Workload(
        name: "memory-fetch-1m",
        summary:
            "peak RSS of fetching 1,000,000 Books and reading every attribute, all at once, against the raw loop's",
        run: { try runMemory($0, probe: "all", name: "memory-fetch-1m", target: nil) }),
    Workload(
        name: "memory-fetch-1m-batched",
        summary: "the same with fetchBatchSize 100; target: <= 1.5x the raw loop's peak RSS",
        run: { try runMemory($0, probe: "batched", name: "memory-fetch-1m-batched", target: 1.5) }),
]

/// The command-line word that makes `bench` a memory probe instead of the benchmark.
let memoryProbeArgument = "memory-probe"

/// Fills a store, runs the raw probe and the `probe` one as child processes, and compares
/// their peak resident memory.
private func runMemory(_ settings: BenchSettings, probe: String, name: String, target: Double?) throws -> WorkloadResult
{
    let count = settings.rows ?? max(1, 1_000_000 / settings.scaleDown)
    let directory = try TemporaryDirectory()
    let url = directory.file("Books.sqlite")
    try Books.createFilledStore(at: url, books: Books.make(count: count))
    let raw = try runProbe("raw", url: url)
    let ours = try runProbe(probe, url: url)
    guard raw.checksum == ours.checksum else {
        throw BenchError("\(name): the probes disagree: raw \(raw.checksum), ours \(ours.checksum)")
    }
    return WorkloadResult(
        ours: Double(ours.peakBytes), baselines: [("raw", Double(raw.peakBytes))],
        unit: "peak RSS, \(count) rows", details: [("rows", String(count))],
        targets: target.map { [(baseline: "raw", maximumRatio: $0)] } ?? [], measuresBytes: true)
}

/// Runs `bench memory-probe KIND PATH` and reads its report: peak bytes and checksum.
private func runProbe(_ kind: String, url: URL) throws -> (peakBytes: Int, checksum: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    process.arguments = [memoryProbeArgument, kind, url.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let words = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
    guard process.terminationStatus == 0, words.count >= 2, let kilobytes = Int(words[0]) else {
        throw BenchError(
            "memory probe \(kind) failed (status \(process.terminationStatus)): \(String(decoding: data, as: UTF8.self))"
        )
    }
    return (kilobytes * 1024, words[1...].joined(separator: " "))
}

/// The probe process: reads every row of the store at `arguments[1]` the `arguments[0]` way,
/// then prints its peak RSS in kilobytes and the checksum of what it read.
func runMemoryProbe(_ arguments: [String]) -> Never {
    guard arguments.count == 2 else { fail("memory-probe needs raw|all|batched and a store path") }
    var sum = Checksum()
    do {
        switch arguments[0] {
        case "raw":
            let db = try RawDatabase(path: arguments[1])
            let rows = try RawBooks.fetch(db, RawBooks.selectSQL())
            for row in rows { add(row.values, to: &sum) }
            withExtendedLifetime(rows) {}
            db.close()
        case "all", "batched":
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try Books.model())
            try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: arguments[1]))
            let context = ManagedObjectContext(coordinator: coordinator)
            let request = FetchRequest(entityName: Books.entityName)
            if arguments[0] == "batched" { request.fetchBatchSize = 100 }
            let objects = try context.fetch(request)
            for object in objects { try add(object, to: &sum) }
            withExtendedLifetime(objects) {}
        default:
            fail("memory-probe needs raw, all or batched, not \(arguments[0])")
        }
    } catch {
        FileHandle.standardError.write(Data("memory-probe \(arguments[0]) failed: \(error)\n".utf8))
        exit(1)
    }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    print("\(usage.ru_maxrss) \(sum)") // ru_maxrss is in kilobytes on Linux
    exit(0)
}
