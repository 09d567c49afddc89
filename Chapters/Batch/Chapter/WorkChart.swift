import CoreData
import WorkbookSupport

/// The chart of what each way does to 1,000 quakes: objects made, SQL statements run and
/// notifications posted, which are the same on every run; and the timings, which are not, so
/// they are printed only by `batch --timings`, never in the book's checked output.
public enum WorkChart {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        var rows: [(Workload, Workload.Counts)] = []
        for workload in Workload.all {
            rows.append((workload, try workload.run(in: bench.makeDataFolder())))
        }
        let most = rows.map(\.1.statements).max() ?? 1
        print("On 1,000 quakes:")
        print(pad("", 8) + pad("way", 23) + "objects  notifications  SQL statements")
        for (workload, counts) in rows {
            let bar = String(repeating: "#", count: barLength(counts.statements, of: most))
            print(
                pad(workload.operation, 8) + pad(workload.way, 23) + pad("\(counts.objects)", 7, right: true)
                    + pad("\(counts.notifications)", 15, right: true) + pad("\(counts.statements)", 16, right: true)
                    + "  " + bar)
        }
    }

    /// `batch --timings`: each way's median time over `runs` runs, as a chart; for a person to
    /// read, not for the book's check, since times change from run to run and machine to machine.
    public static func printTimings(runs: Int = 5, print: (String) -> Void) throws {
        let bench = Workbench { _ in }
        var rows: [(Workload, Double)] = []
        for workload in Workload.all {
            var times: [Double] = []
            for _ in 0..<runs {
                var start = DispatchTime.now()
                var started = false
                _ = try workload.run(in: bench.makeDataFolder()) {
                    if !started {
                        start = DispatchTime.now()
                        started = true
                    } else {
                        times.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
                    }
                }
            }
            rows.append((workload, times.sorted()[times.count / 2]))
        }
        let slowest = rows.map(\.1).max() ?? 1
        print("On 1,000 quakes, the median of \(runs) run\(runs == 1 ? "" : "s"):")
        for (index, (workload, milliseconds)) in rows.enumerated() {
            let bar = String(repeating: "#", count: barLength(milliseconds, of: slowest))
            // Each batch row is the second of its pair: how many times faster than the context's way.
            let ratio = index % 2 == 1 ? String(format: "  %.1fx as fast", rows[index - 1].1 / milliseconds) : ""
            print(
                pad(workload.operation, 8) + pad(workload.way, 23)
                    + pad(String(format: "%.1f ms", milliseconds), 10, right: true) + "  " + bar + ratio)
        }
    }

    /// A bar's length in characters, at most 40, at least 1 for anything above nothing.
    static func barLength<T: BinaryInteger>(_ value: T, of most: T) -> Int {
        barLength(Double(value), of: Double(most))
    }

    /// A bar's length in characters, at most 40, at least 1 for anything above nothing.
    static func barLength(_ value: Double, of most: Double) -> Int {
        value <= 0 || most <= 0 ? 0 : max(1, Int((40 * value / most).rounded()))
    }

    /// `text` padded with spaces to `width`, on the right or (for numbers) on the left.
    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
