import ExerciseCatalog
import Foundation
import WorkbookSupport

/// Builds each exercise into a program of its own and runs it in its own process: the
/// learner's file, a main.swift that calls the catalog's check on it, and the catalog's shared
/// library. A file that does not compile, a trap or an endless loop is then that exercise's
/// verdict, and nothing else stops: not the other exercises, not the tool, not `swift test`.
///
/// Programs and verdicts live in `.build/exercises/<name>/`. A verdict is reused until the
/// file, the exercise or the library changes, so `workbook exercises` lists progress at once.
public struct ExerciseRunner: Sendable {
    /// The package's root folder: the learner's files are relative to it.
    public let packageRoot: URL
    /// The compiler, flags and library the programs are built with.
    public let toolchain: ExerciseToolchain
    /// Where programs and verdicts are kept.
    public let workDirectory: URL
    /// How long a check may run before it counts as stuck (an endless loop).
    public var timeLimit: TimeInterval = 30

    /// A runner for the package at `packageRoot`, with products built in `productsDirectory`.
    public init(packageRoot: URL, productsDirectory: URL) throws {
        self.packageRoot = packageRoot
        toolchain = try ExerciseToolchain(productsDirectory: productsDirectory)
        // Under the root's own .build, so a copy of the workspace (a test's) keeps its own.
        workDirectory = packageRoot.appendingPathComponent(".build/exercises")
    }

    /// Checks the learner's file for `exercise`.
    public func check(_ exercise: Exercise) -> ExerciseOutcome {
        check(exercise, file: exercise.file)
    }

    /// Checks `exercise` with the code in `file` (relative to the package root) instead of the
    /// learner's: the reference solution, or a test's own version.
    public func check(_ exercise: Exercise, file: String) -> ExerciseOutcome {
        do {
            return try checkOrThrow(exercise, file: file)
        } catch {
            return ExerciseOutcome(verdict: .crashed("The exercise could not be checked: \(error)"))
        }
    }

    /// Checks several exercises, as many at once as the machine has cores, in their order.
    public func check(_ exercises: [Exercise]) -> [ExerciseOutcome] {
        let results = OutcomeList(count: exercises.count)
        DispatchQueue.concurrentPerform(iterations: exercises.count) { index in
            results.set(index, check(exercises[index]))
        }
        return results.outcomes
    }

    private func checkOrThrow(_ exercise: Exercise, file: String) throws -> ExerciseOutcome {
        let source = packageRoot.appendingPathComponent(file)
        guard let code = FileManager.default.contents(atPath: source.path) else {
            return ExerciseOutcome(
                verdict: .failed(["\(file) is missing. `git checkout -- \(file)` brings back the starting code."]))
        }
        let text = String(decoding: code, as: UTF8.self)
        let broken = exercise.sourceRules.compactMap { $0.violation(in: text) }
        guard broken.isEmpty else { return ExerciseOutcome(verdict: .failed(broken)) }
        let directory = workDirectory.appendingPathComponent(
            file == exercise.file ? exercise.name : "\(exercise.name)-\(Self.fingerprint(of: file))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stamp = stamp(exercise: exercise, file: file, code: code)
        let saved = directory.appendingPathComponent("outcome.json")
        if let cached = try? JSONDecoder().decode(SavedOutcome.self, from: Data(contentsOf: saved)),
            cached.stamp == stamp
        {
            return cached.outcome
        }
        let outcome: ExerciseOutcome
        switch try build(exercise, file: file, in: directory) {
        case .program(let program): outcome = try run(program, file: file, in: directory)
        case .failed(let failure): outcome = failure
        }
        try JSONEncoder().encode(SavedOutcome(stamp: stamp, outcome: outcome)).write(to: saved, options: .atomic)
        return outcome
    }

    /// What the inputs of a check were: the code, its file, the statement that calls it, the
    /// library's version and the compiler. Any change means the check runs again.
    private func stamp(exercise: Exercise, file: String, code: Data) -> String {
        var fingerprint = Fingerprint()
        fingerprint.add(code)
        fingerprint.add(file)
        fingerprint.add(exercise.entry)
        fingerprint.add(toolchain.swiftc)
        fingerprint.add(toolchain.moduleFlags.joined(separator: " "))
        let attributes = try? FileManager.default.attributesOfItem(atPath: toolchain.runtimeLibrary.path)
        fingerprint.add("\((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)")
        fingerprint.add("\((attributes?[.size] as? Int) ?? 0)")
        return fingerprint.hex
    }

    private static func fingerprint(of text: String) -> String {
        var fingerprint = Fingerprint()
        fingerprint.add(text)
        return fingerprint.hex
    }

    // MARK: Building

    private enum Build {
        case program(URL)
        case failed(ExerciseOutcome)
    }

    /// The program's module name: `fetching_1`.
    static func moduleName(_ exercise: Exercise) -> String {
        "Exercise_" + exercise.name.replacingOccurrences(of: "-", with: "_")
    }

    /// The program's main.swift: one call of the catalog's check with the learner's code.
    static func mainSource(_ exercise: Exercise, file: String) -> String {
        """
        // Written by `workbook exercises` for \(exercise.name): runs the catalog's check on the code
        // in \(file). Edit that file, not this one.
        import ExerciseCatalog

        ExerciseProgram.report(\(exercise.entry))

        """
    }

    /// Compiles the learner's file and a main.swift into `directory/program`.
    private func build(_ exercise: Exercise, file: String, in directory: URL) throws -> Build {
        let main = directory.appendingPathComponent("main.swift")
        try Self.mainSource(exercise, file: file).write(to: main, atomically: true, encoding: .utf8)
        let program = directory.appendingPathComponent("program")
        try? FileManager.default.removeItem(at: program)
        let products = toolchain.productsDirectory.path
        let arguments =
            toolchain.moduleFlags + [
                "-module-name", Self.moduleName(exercise), "-Onone", "-g",
                "-module-cache-path", workDirectory.appendingPathComponent("ModuleCache").path,
                "-L", products, "-lExerciseCatalog", "-Xlinker", "-rpath", "-Xlinker", products,
                file, main.path, "-o", program.path,
            ]
        let result = try ProcessRunner.run(
            executable: toolchain.swiftc, arguments: arguments, in: packageRoot, timeLimit: 600)
        switch result.status {
        case .exited(0):
            return .program(program)
        case .timedOut:
            return .failed(
                ExerciseOutcome(verdict: .doesNotCompile("The compiler did not finish \(file) within 600 seconds.")))
        default:
            return .failed(
                ExerciseOutcome(verdict: .doesNotCompile(Self.compilerMessage(result.output, main: main, file: file))))
        }
    }

    /// The compiler's messages, with the generated main.swift named for what it is. When only
    /// main.swift has errors, the learner's file compiled but no longer fits the check: a
    /// renamed function or a changed signature.
    static func compilerMessage(_ output: String, main: URL, file: String) -> String {
        let named = output.replacingOccurrences(of: main.path, with: "(the exercise's main.swift)")
        let text = named.trimmingCharacters(in: .whitespacesAndNewlines)
        if !output.contains(file + ":") && output.contains(main.path + ":") {
            return """
                Your file compiles, but the check cannot call your code: keep the names and \
                signatures of the starting code (`git diff \(file)` shows what you changed).
                \(text)
                """
        }
        return text
    }

    // MARK: Running

    /// Runs the program and reads its verdict.
    private func run(_ program: URL, file: String, in directory: URL) throws -> ExerciseOutcome {
        let verdictFile = directory.appendingPathComponent("verdict.json")
        try? FileManager.default.removeItem(at: verdictFile)
        let result = try ProcessRunner.run(
            executable: program.path, arguments: [], in: packageRoot,
            environment: [
                ExerciseProgram.verdictFileVariable: verdictFile.path, "SWIFT_BACKTRACE": Self.backtraceSettings,
            ],
            timeLimit: timeLimit)
        switch result.status {
        case .exited(0):
            guard let data = try? Data(contentsOf: verdictFile),
                let verdict = try? JSONDecoder().decode(Verdict.self, from: data)
            else {
                return ExerciseOutcome(
                    verdict: .crashed(
                        "The program ended before the check gave its verdict: does your code call exit()?"),
                    output: result.output)
            }
            return ExerciseOutcome(verdict: verdict, output: result.output)
        case .exited(let code):
            return ExerciseOutcome(
                verdict: .crashed(
                    "The program exited with code \(code) before the check gave its verdict.\n" + result.standardError),
                output: result.standardOutput)
        case .signalled(let signal):
            return ExerciseOutcome(
                verdict: .crashed(Self.crashReport(signal: signal, standardError: result.standardError, file: file)),
                output: result.standardOutput)
        case .timedOut:
            return ExerciseOutcome(
                verdict: .crashed(
                    "Your code did not finish within \(Int(timeLimit)) seconds (an endless loop?), so the program was stopped."
                ),
                output: result.output)
        }
    }

    /// Swift's crash report: on, short, plain text, no interaction.
    static let backtraceSettings =
        "enable=yes,interactive=no,color=no,threads=crashed,registers=none,images=none,limit=24,top=8"

    /// What a crash looks like to the learner: the signal in words, Swift's fatal error, and the
    /// lines of their file the backtrace passes through, innermost first. Swift's whole report
    /// follows only when it names no line of theirs (a crash inside the check or the library).
    static func crashReport(signal: Int32, standardError: String, file: String) -> String {
        let what: String
        switch signal {
        case 4 where standardError.contains("Fatal error: Concurrency violation:"),
            5 where standardError.contains("Fatal error: Concurrency violation:"):
            // The debug check of chapter 6: a context used off its queue.
            what =
                "Your code trapped: it used a context off its queue. Use a private queue context only inside its perform or performAndWait block, and hop to another context's queue (its perform) before using that context."
        case 4, 5:
            what =
                "Your code trapped (a Swift runtime error such as an index out of range, a nil unwrapped with !, or an overflow)."
        case 6: what = "Your code aborted."
        case 7, 11: what = "Your code crashed with a memory error."
        default: what = "Your code was stopped by signal \(signal)."
        }
        let lines = standardError.split(separator: "\n").map(String.init)
        let fatal = lines.filter { $0.contains("Fatal error") }.map { namingTheLearnersFile(file, in: $0) }
        let places = lines.compactMap { frame(in: $0, file: file) }
        if places.isEmpty {
            return ([what] + [standardError.trimmingCharacters(in: .whitespacesAndNewlines)]).joined(separator: "\n")
        }
        return ([what] + fatal + places.map { "  at \($0)" }).joined(separator: "\n")
    }

    /// `line` with the copy of the learner's file that the program was built from
    /// (`…/Exercise_fetching_1/fetching-1.swift:7: Fatal error: …`) named as the learner knows
    /// it (`Exercises/Workspace/Fetching/fetching-1.swift:7: …`).
    static func namingTheLearnersFile(_ file: String, in line: String) -> String {
        let name = NSRegularExpression.escapedPattern(for: (file as NSString).lastPathComponent)
        guard let copy = try? NSRegularExpression(pattern: "[^\\s:]*/" + name + "(?=:)") else { return line }
        let template = NSRegularExpression.escapedTemplate(for: file)
        return copy.stringByReplacingMatches(
            in: line, range: NSRange(line.startIndex..., in: line), withTemplate: template)
    }

    /// "function at file:line:column" from a backtrace line that points into `file`, such as
    /// `3 [ra] 0x000056521b77e528 employees(earningMoreThan:in:) + 455 in program at F:5:16`.
    static func frame(in line: String, file: String) -> String? {
        guard let at = line.range(of: " at \(file):"),
            let address = line.range(of: " 0x"),
            let afterAddress = line[address.upperBound...].firstIndex(of: " "),
            let plus = line.range(of: " + ", range: afterAddress..<at.lowerBound)
        else { return nil }
        let function = line[afterAddress..<plus.lowerBound].trimmingCharacters(in: .whitespaces)
        return "\(function), \(line[line.index(after: at.lowerBound)...].dropFirst(3))"
    }
}

/// An outcome as saved in `outcome.json`, with the stamp of the inputs it was found for.
private struct SavedOutcome: Codable {
    let stamp: String
    let outcome: ExerciseOutcome
}

/// Outcomes filled in from several threads.
private final class OutcomeList: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [ExerciseOutcome?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ outcome: ExerciseOutcome) {
        lock.lock()
        defer { lock.unlock() }
        slots[index] = outcome
    }

    /// Every outcome, once all are set.
    var outcomes: [ExerciseOutcome] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0 ?? ExerciseOutcome(verdict: .crashed("not checked")) }
    }
}
