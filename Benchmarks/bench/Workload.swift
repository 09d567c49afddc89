import Foundation

/// One benchmark: a name for the command line and a function that measures it.
///
/// To add a family of workloads, write a file in Benchmarks/bench/ that defines
/// `let fooWorkloads: [Workload] = [...]` and append it to ``allWorkloads`` in Registry.swift.
/// StoreWorkloads.swift shows the pattern for comparisons with raw SQLite and GRDB: one
/// closure per implementation, timed with ``interleavedMedians(repetitions:_:)``, baselines
/// named "raw" and "grdb", and `targets` for the ratios the workload must stay under.
struct Workload: Sendable {
    /// The name `bench <names...>` selects, e.g. `predicate-evaluate-1M`.
    let name: String
    /// One line for `bench --list`.
    let summary: String
    /// Runs the workload: usually `settings.repetitions` timed runs after a warm-up.
    let run: @Sendable (BenchSettings) throws -> WorkloadResult
}

/// Command-line settings every workload receives.
struct BenchSettings: Sendable {
    /// Timed repetitions per measurement; medians are reported.
    var repetitions: Int = 5
    /// Divides the sizes of the workloads (for a quick smoke run); 1 is the full size.
    var scaleDown: Int = 1
    /// Rows of the store workloads (`--rows N`); nil for their default divided by `scaleDown`.
    var rows: Int?
    /// Run only the implementation of this name ("ours", "raw", "grdb"), e.g. under a profiler.
    var only: String?
    /// The store the workloads measure (`--store`): SQLite's table, or PostgreSQL's.
    var store: BenchStore = .sqlite
    /// The PostgreSQL server (`--postgres-url`); nil for a throwaway cluster of this run.
    var postgresURL: URL?
}

/// The store type a run measures.
enum BenchStore: String, Sendable {
    case sqlite, postgres
}

/// What a workload measured: our implementation first, then the baselines it is compared with.
struct WorkloadResult: Sendable {
    /// Median seconds for our implementation.
    var ours: Double
    /// Median seconds for each baseline, in order (e.g. "closure", or "sqlite" and "grdb").
    var baselines: [(name: String, seconds: Double)] = []
    /// What `ours` measures, for the table ("per parse", "1,000,000 rows").
    var unit: String
    /// Extra facts for the JSON line (iteration counts, matches...).
    var details: [(key: String, value: String)] = []
    /// The ratios to meet: ours / baseline at most `maximumRatio` (e.g. raw 1.5).
    var targets: [(baseline: String, maximumRatio: Double)] = []
    /// Whether the numbers are bytes (peak memory) rather than seconds.
    var measuresBytes = false

    /// Whether ours meets the target against a baseline; nil when there is none.
    func meetsTarget(_ baseline: String) -> Bool? {
        guard let target = targets.first(where: { $0.baseline == baseline }),
            let b = baselines.first(where: { $0.name == baseline })
        else { return nil }
        return ratio(to: b.seconds) <= target.maximumRatio
    }

    /// ours / baseline: how many times slower than the baseline we are.
    func ratio(to baseline: Double) -> Double { baseline > 0 ? ours / baseline : .infinity }

    /// One JSON object on one line: workload, ours, each baseline, the ratio(s), details.
    func jsonLine(workload: String) -> String {
        var fields: [(String, String)] = [("workload", jsonString(workload)), ("ours", jsonNumber(ours))]
        for b in baselines { fields.append((b.name, jsonNumber(b.seconds))) }
        if baselines.count == 1 {
            fields.append(("ratio", jsonNumber(ratio(to: baselines[0].seconds))))
        } else {
            for b in baselines { fields.append(("ratio_" + b.name, jsonNumber(ratio(to: b.seconds)))) }
        }
        for t in targets {
            fields.append(("target_" + t.baseline, jsonNumber(t.maximumRatio)))
        }
        if !targets.isEmpty {
            fields.append(("meets_targets", targets.allSatisfy { meetsTarget($0.baseline) ?? true } ? "true" : "false"))
        }
        fields.append(("unit", jsonString(unit)))
        fields += details
        return "{" + fields.map { "\(jsonString($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }
}

func jsonString(_ s: String) -> String {
    var out = "\""
    for c in s.unicodeScalars {
        switch c {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default:
            if c.value < 0x20 { out += String(format: "\\u%04x", c.value) } else { out.unicodeScalars.append(c) }
        }
    }
    return out + "\""
}

func jsonNumber(_ x: Double) -> String {
    x.isFinite ? String(format: "%.6g", x) : "null"
}

/// Failures a workload reports, such as two implementations disagreeing.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
