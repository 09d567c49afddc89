import Foundation

/// What `bench --output DIR` keeps: `results.json` (every workload's line, with the machine,
/// commit and date it came from) and `results.svg`, a chart of each workload's time as a
/// multiple of raw SQLite's, with GRDB's beside it and the target marked.
struct BenchReport {
    let results: [(name: String, result: WorkloadResult)]
    let settings: BenchSettings

    /// Writes both files into `directory` (made if missing) and returns their URLs.
    func write(to directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let json = directory.appendingPathComponent("results.json")
        let svg = directory.appendingPathComponent("results.svg")
        try Data(self.json().utf8).write(to: json)
        try Data(self.svg().utf8).write(to: svg)
        return [json, svg]
    }

    /// The machine, in words: processor, cores and memory.
    static func machine() -> String {
        let info = ProcessInfo.processInfo
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
            ?? "unknown processor"
        return "\(cpu), \(info.activeProcessorCount) cores, \(info.physicalMemory / 1_073_741_824) GiB"
    }

    /// The commit the benchmark was built from: `git rev-parse --short HEAD`, with
    /// "+changes" when the tree differs from it.
    static func commit() -> String {
        func git(_ arguments: [String]) -> String? {
            let process = Process()
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git"] + arguments
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return process.terminationStatus == 0 ? text.trimmingCharacters(in: .whitespacesAndNewlines) : nil
        }
        guard let head = git(["rev-parse", "--short", "HEAD"]) else { return "unknown" }
        return head + ((git(["status", "--porcelain", "--untracked-files=no"]) ?? "").isEmpty ? "" : "+changes")
    }

    func json() -> String {
        let date = ISO8601DateFormatter().string(from: Date())
        let lines = results.map { "    " + $0.result.jsonLine(workload: $0.name) }
        return """
            {
              "machine": \(jsonString(Self.machine())),
              "commit": \(jsonString(Self.commit())),
              "date": \(jsonString(date)),
              "store": \(jsonString(settings.store.rawValue)),
              "repetitions": \(settings.repetitions),
              "results": [
            \(lines.joined(separator: ",\n"))
              ]
            }

            """
    }

    /// The chart: a row per workload that has a raw baseline, bars for ObjectGraph and GRDB
    /// as multiples of raw (raw itself is the line at 1x), and a tick at the target.
    func svg() -> String {
        let rows = results.compactMap { entry -> (String, Double, Double?, Double?, Bool)? in
            guard let raw = entry.result.baselines.first(where: { $0.name == "raw" })?.seconds, raw > 0 else {
                return nil
            }
            let grdb = entry.result.baselines.first(where: { $0.name == "grdb" }).map { $0.seconds / raw }
            let target = entry.result.targets.first(where: { $0.baseline == "raw" })?.maximumRatio
            return (entry.name, entry.result.ours / raw, grdb, target, entry.result.measuresBytes)
        }
        let largest = max(2, (rows.flatMap { [$0.1, $0.2 ?? 0, $0.3 ?? 0] }.max() ?? 2).rounded(.up))
        let labelWidth = 190
        let plotWidth = 520
        let rowHeight = 34
        let top = 44
        let scale = Double(plotWidth) / largest
        let height = top + rows.count * rowHeight + 30
        let width = labelWidth + plotWidth + 90
        func x(_ ratio: Double) -> Int { labelWidth + Int((ratio * scale).rounded()) }
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" "
            + "font-family=\"DejaVu Sans, sans-serif\" font-size=\"12\" role=\"img\" aria-label=\"Benchmark ratios to raw SQLite\">"
        out += "<rect width=\"\(width)\" height=\"\(height)\" fill=\"#fff\"/>"
        out +=
            "<text x=\"10\" y=\"18\" font-weight=\"bold\">Time (memory for memory-*) as a multiple of raw SQLite's</text>"
        out += "<text x=\"10\" y=\"34\" fill=\"#555\">\(escape(Self.commit())), \(escape(Self.machine()))</text>"
        for tick in stride(from: 0.0, through: largest, by: largest > 6 ? 2 : 1) {
            out += "<line x1=\"\(x(tick))\" y1=\"\(top - 4)\" x2=\"\(x(tick))\" y2=\"\(height - 24)\" stroke=\"#ddd\"/>"
            out +=
                "<text x=\"\(x(tick))\" y=\"\(height - 10)\" text-anchor=\"middle\" fill=\"#555\">\(Int(tick))x</text>"
        }
        for (i, row) in rows.enumerated() {
            let y = top + i * rowHeight
            out += "<text x=\"\(labelWidth - 8)\" y=\"\(y + 15)\" text-anchor=\"end\">\(escape(row.0))</text>"
            out +=
                "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(x(row.1) - labelWidth)\" height=\"13\" fill=\"#3366cc\"/>"
            out += "<text x=\"\(x(row.1) + 4)\" y=\"\(y + 14)\">\(String(format: "%.2fx", row.1))</text>"
            if let grdb = row.2 {
                out +=
                    "<rect x=\"\(labelWidth)\" y=\"\(y + 18)\" width=\"\(x(grdb) - labelWidth)\" height=\"9\" fill=\"#999\"/>"
            }
            if let target = row.3 {
                out +=
                    "<line x1=\"\(x(target))\" y1=\"\(y + 1)\" x2=\"\(x(target))\" y2=\"\(y + 29)\" stroke=\"#c33\" stroke-width=\"2\"/>"
            }
        }
        out += "<line x1=\"\(x(1))\" y1=\"\(top - 4)\" x2=\"\(x(1))\" y2=\"\(height - 24)\" stroke=\"#000\"/>"
        let legend = height - 10
        out +=
            "<rect x=\"\(labelWidth + plotWidth - 250)\" y=\"\(legend - 9)\" width=\"10\" height=\"10\" fill=\"#3366cc\"/>"
        out += "<text x=\"\(labelWidth + plotWidth - 236)\" y=\"\(legend)\">ObjectGraph</text>"
        out +=
            "<rect x=\"\(labelWidth + plotWidth - 150)\" y=\"\(legend - 9)\" width=\"10\" height=\"10\" fill=\"#999\"/>"
        out += "<text x=\"\(labelWidth + plotWidth - 136)\" y=\"\(legend)\">GRDB</text>"
        out +=
            "<line x1=\"\(labelWidth + plotWidth - 80)\" y1=\"\(legend - 10)\" x2=\"\(labelWidth + plotWidth - 80)\" y2=\"\(legend + 1)\" stroke=\"#c33\" stroke-width=\"2\"/>"
        out += "<text x=\"\(labelWidth + plotWidth - 74)\" y=\"\(legend)\">target</text>"
        return out + "</svg>\n"
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
