import Foundation

// bench: micro-benchmarks of ObjectGraph against hand-written baselines.
//
//   swift run -c release bench                 run every workload
//   swift run -c release bench --list          list the workloads
//   swift run -c release bench NAME...         run the named workloads
//   options: --repetitions N (default 5), --scale-down N (divide sizes by N, for a smoke run),
//            --rows N (rows of the store workloads, default 100,000),
//            --only ours|raw|grdb (run one implementation, for a profiler)
//
// Prints a table, then one JSON line per workload.

func usage() -> String {
    "usage: bench [--list] [--repetitions N] [--scale-down N] [--rows N] [--only ours|raw|grdb] [workload...]\n"
        + allWorkloads.map { "  \($0.name)  \($0.summary)" }.joined(separator: "\n")
}

var settings = BenchSettings()
var names: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--list":
        for w in allWorkloads { print("\(w.name)\t\(w.summary)") }
        exit(0)
    case "--help", "-h":
        print(usage())
        exit(0)
    case "--only":
        settings.only = arguments.popFirst()
    case "--repetitions", "--scale-down", "--rows":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            FileHandle.standardError.write(Data("\(argument) needs a positive whole number\n\(usage())\n".utf8))
            exit(2)
        }
        switch argument {
        case "--repetitions": settings.repetitions = value
        case "--rows": settings.rows = value
        default: settings.scaleDown = value
        }
    default:
        names.append(argument)
    }
}

var selected: [Workload] = []
for name in names {
    guard let w = allWorkloads.first(where: { $0.name == name }) else {
        FileHandle.standardError.write(Data("unknown workload \(name)\n\(usage())\n".utf8))
        exit(2)
    }
    selected.append(w)
}
if selected.isEmpty { selected = allWorkloads }

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

func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s : s + String(repeating: " ", count: width - s.count) }
func formatSeconds(_ x: Double) -> String {
    if x < 1e-3 { return String(format: "%.2f µs", x * 1e6) }
    if x < 1 { return String(format: "%.2f ms", x * 1e3) }
    return String(format: "%.3f s", x)
}

let header = [pad("workload", 24), pad("ours", 12), pad("baseline", 22), pad("ratio", 8), pad("target", 12), "unit"]
print(header.joined(separator: " "))
print(String(repeating: "-", count: 110))
for (w, r) in results {
    let baselines = r.baselines.isEmpty ? [("-", Double.nan)] : r.baselines
    for (i, b) in baselines.enumerated() {
        let base = b.0 == "-" ? "-" : "\(b.0) \(formatSeconds(b.1))"
        let ratio = b.0 == "-" ? "-" : String(format: "%.2fx", r.ratio(to: b.1))
        var target = "-"
        if let t = r.targets.first(where: { $0.baseline == b.0 }) {
            target = String(format: "<= %.1fx ", t.maximumRatio) + (r.meetsTarget(b.0) == true ? "ok" : "MISSED")
        }
        print([pad(i == 0 ? w.name : "", 24), pad(i == 0 ? formatSeconds(r.ours) : "", 12), pad(base, 22), pad(ratio, 8), pad(target, 12), i == 0 ? r.unit : ""].joined(separator: " "))
    }
}
print("")
for (w, r) in results { print(r.jsonLine(workload: w.name)) }
exit(failed ? 1 : 0)
