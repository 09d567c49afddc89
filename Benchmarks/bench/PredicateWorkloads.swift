import Foundation
import ObjectGraph

/// Parsing and evaluating the format language.
let predicateWorkloads: [Workload] = [
    Workload(
        name: "predicate-parse",
        summary: "parse `name BEGINSWITH[c] %@ AND age < %@ AND score >= %@` (seconds per parse)",
        run: runParse),
    Workload(
        name: "predicate-evaluate-1M",
        summary: "evaluate that predicate over 1,000,000 [String: Any] rows vs a hand-written Swift closure",
        run: runEvaluate),
]

private let format = "name BEGINSWITH[c] %@ AND age < %@ AND score >= %@"
private let prefix = "jo"
private let maximumAge = 40
private let minimumScore = 50.0

private func runParse(_ settings: BenchSettings) throws -> WorkloadResult {
    let iterations = max(1, 20_000 / settings.scaleDown)
    let total = try medianSeconds(repetitions: settings.repetitions) {
        for _ in 0..<iterations {
            blackHole(try ObjectGraph.Predicate(checkedFormat: format, prefix, maximumAge, minimumScore))
        }
    }
    return WorkloadResult(
        ours: total / Double(iterations), unit: "s per parse",
        details: [("iterations", String(iterations)), ("repetitions", String(settings.repetitions))])
}

/// Rows like a fetched table: a name, an age and a score; a few names start with "Jo"/"jo".
func makeRows(count: Int, seed: UInt64 = 42) -> [[String: Any]] {
    var rng = SplitMix64(seed: seed)
    let first = ["jo", "Jo", "JO", "ja", "Al", "be", "Ca", "dy", "El", "fi", "Gu", "ha", "Iv", "ke", "Lu", "mo"]
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    var rows: [[String: Any]] = []
    rows.reserveCapacity(count)
    for _ in 0..<count {
        var name = first[Int(rng.next() % UInt64(first.count))]
        for _ in 0..<(3 + Int(rng.next() % 6)) { name.append(letters[Int(rng.next() % 26)]) }
        let age = Int(rng.next() % 90)
        let score = Double(rng.next() % 10_000) / 100
        rows.append(["name": name, "age": age, "score": score])
    }
    return rows
}

private func runEvaluate(_ settings: BenchSettings) throws -> WorkloadResult {
    let count = max(1, 1_000_000 / settings.scaleDown)
    let rows = makeRows(count: count)
    let predicate = try ObjectGraph.Predicate(checkedFormat: format, prefix, maximumAge, minimumScore)

    // What a Swift developer would write by hand for the same test.
    let closure: ([String: Any]) -> Bool = { row in
        guard let name = row["name"] as? String, name.lowercased().hasPrefix(prefix) else { return false }
        guard let age = row["age"] as? Int, age < maximumAge else { return false }
        guard let score = row["score"] as? Double, score >= minimumScore else { return false }
        return true
    }

    var oursMatches = 0
    var closureMatches = 0
    // Interleaved, so that both see the same machine load.
    let timings = try interleavedMedianSeconds(
        repetitions: settings.repetitions,
        [
            {
                var n = 0
                for row in rows where try predicate.checkedEvaluate(with: row) { n += 1 }
                oursMatches = n
            },
            {
                var n = 0
                for row in rows where closure(row) { n += 1 }
                closureMatches = n
            },
        ])
    let ours = timings[0]
    let baseline = timings[1]
    guard oursMatches == closureMatches else {
        throw BenchError(
            "predicate-evaluate-1M: the predicate matched \(oursMatches) rows, the closure \(closureMatches)")
    }
    return WorkloadResult(
        ours: ours, baselines: [("closure", baseline)], unit: "s per \(count) rows",
        details: [
            ("rows", String(count)), ("matches", String(oursMatches)), ("repetitions", String(settings.repetitions)),
        ])
}
