import Foundation

// bench: micro-benchmarks of ObjectGraph against hand-written baselines.
//
//   swift run -c release bench                 run every workload
//   swift run -c release bench --list          list the workloads
//   swift run -c release bench NAME...         run the named workloads
//   options: --repetitions N (default 5), --scale-down N (divide sizes by N, for a smoke run),
//            --rows N (rows of the store workloads, default 100,000),
//            --only ours|raw|grdb (run one implementation, for a profiler),
//            --output DIR (also write DIR/results.json and DIR/results.svg, a chart of the ratios)
//   swift run -c release bench --store postgres
//            fetch-100k and insert-100k through the PostgreSQL store against the same SQL sent
//            raw through PostgresNIO, on a throwaway cluster, or on --postgres-url URL
//   swift run -c release bench contention --store postgres|sqlite [--processes 8]
//            [--increments 250] [--counters 4]
//            processes incrementing shared counters through optimistic locking; fails on a
//            lost increment
//
// Prints a table, then one JSON line per workload.

// A process of the contention run (the bench starts them itself).
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "contention-child" {
    Contention.runChild(Array(CommandLine.arguments.dropFirst(2)))
}
// A process of a memory workload, which measures its own peak memory.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == memoryProbeArgument {
    runMemoryProbe(Array(CommandLine.arguments.dropFirst(2)))
}

func usage() -> String {
    func list(_ workloads: [Workload]) -> String {
        workloads.map { "  \($0.name)  \($0.summary)" }.joined(separator: "\n")
    }
    let lines: [String] = [
        "usage: bench [--list] [--repetitions N] [--scale-down N] [--rows N] [--only ours|raw|grdb] [--store sqlite|postgres] [--postgres-url URL] [--output DIR] [workload...]",
        "       bench contention [--store postgres|sqlite] [--postgres-url URL] [--processes N] [--increments N] [--counters N]",
        "SQLite (the default):", list(allWorkloads),
        "--store postgres:", list(postgresWorkloads + postgresMigrationWorkloads),
    ]
    return lines.joined(separator: "\n")
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("\(message)\n\(usage())\n".utf8))
    exit(2)
}

var settings = BenchSettings()
var contention = Contention()
var storeGiven = false
var listing = false
var names: [String] = []
var outputDirectory: URL?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--list":
        listing = true
    case "--help", "-h":
        print(usage())
        exit(0)
    case "--only":
        settings.only = arguments.popFirst()
    case "--output":
        guard let path = arguments.popFirst() else { fail("--output needs a folder") }
        outputDirectory = URL(fileURLWithPath: path)
    case "--store":
        guard let store = arguments.popFirst().flatMap(BenchStore.init(rawValue:)) else {
            fail("--store needs sqlite or postgres")
        }
        settings.store = store
        storeGiven = true
    case "--postgres-url":
        guard let url = arguments.popFirst().flatMap(URL.init(string:)), url.scheme?.hasPrefix("postgres") == true
        else {
            fail("--postgres-url needs a postgres://USER@HOST:PORT/DATABASE URL")
        }
        settings.postgresURL = url
    case "--repetitions", "--scale-down", "--rows", "--processes", "--increments", "--counters":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            fail("\(argument) needs a positive whole number")
        }
        switch argument {
        case "--repetitions": settings.repetitions = value
        case "--rows": settings.rows = value
        case "--processes": contention.processes = value
        case "--increments": contention.increments = value
        case "--counters": contention.counters = value
        default: settings.scaleDown = value
        }
    default:
        names.append(argument)
    }
}

if names.first == "contention" {
    guard names.count == 1 else { fail("contention runs alone") }
    // Without --store the contention run is PostgreSQL's, the store it was written for.
    contention.store = storeGiven ? settings.store : .postgres
    do {
        try contention.run(settings)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("contention failed: \(error)\n".utf8))
        exit(1)
    }
}

let workloads = settings.store == .postgres ? postgresWorkloads + postgresMigrationWorkloads : allWorkloads
if listing {
    for w in workloads { print("\(w.name)\t\(w.summary)") }
    exit(0)
}
var selected: [Workload] = []
for name in names {
    guard let w = workloads.first(where: { $0.name == name }) else { fail("unknown workload \(name)") }
    selected.append(w)
}
if selected.isEmpty { selected = workloads }

var results: [(Workload, WorkloadResult)] = []
var failed = false
for w in selected {
    FileHandle.standardError.write(Data("running \(w.name)...\n".utf8))
    do {
        results.append((w, try w.run(settings)))
    } catch {
        FileHandle.standardError.write(Data("\(w.name) failed: \(error)\n".utf8))
        failed = true
    }
}

func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
}
func formatBytes(_ x: Double) -> String { String(format: "%.1f MB", x / 1_048_576) }
func formatSeconds(_ x: Double) -> String {
    if x < 1e-3 { return String(format: "%.2f µs", x * 1e6) }
    if x < 1 { return String(format: "%.2f ms", x * 1e3) }
    return String(format: "%.3f s", x)
}

if settings.store == .postgres {
    print(
        "store: postgres, on \(BenchPostgres.serverDescription(settings)); baseline: the same SQL sent raw through PostgresNIO"
    )
}
let header = [pad("workload", 24), pad("ours", 12), pad("baseline", 22), pad("ratio", 8), pad("target", 12), "unit"]
print(header.joined(separator: " "))
print(String(repeating: "-", count: 110))
for (w, r) in results {
    let baselines = r.baselines.isEmpty ? [("-", Double.nan)] : r.baselines
    let format = r.measuresBytes ? formatBytes : formatSeconds
    for (i, b) in baselines.enumerated() {
        let base = b.0 == "-" ? "-" : "\(b.0) \(format(b.1))"
        let ratio = b.0 == "-" ? "-" : String(format: "%.2fx", r.ratio(to: b.1))
        var target = "-"
        if let t = r.targets.first(where: { $0.baseline == b.0 }) {
            target = String(format: "<= %.1fx ", t.maximumRatio) + (r.meetsTarget(b.0) == true ? "ok" : "MISSED")
        }
        print(
            [
                pad(i == 0 ? w.name : "", 24), pad(i == 0 ? format(r.ours) : "", 12), pad(base, 22), pad(ratio, 8),
                pad(target, 12), i == 0 ? r.unit : "",
            ].joined(separator: " "))
    }
}
print("")
for (w, r) in results { print(r.jsonLine(workload: w.name)) }
if let outputDirectory {
    do {
        let written = try BenchReport(results: results.map { ($0.0.name, $0.1) }, settings: settings).write(
            to: outputDirectory)
        FileHandle.standardError.write(Data("wrote \(written.map(\.path).joined(separator: " and "))\n".utf8))
    } catch {
        FileHandle.standardError.write(Data("could not write the report: \(error)\n".utf8))
        failed = true
    }
}
exit(failed ? 1 : 0)
