import ExerciseCatalog
import ExerciseRunner
import Foundation
import TestSupport
import Testing
import WorkbookSupport

/// A copy of the exercises (the learner's files and the solutions) in a folder of its own, with
/// a runner that builds them against the package's built products: Swift Testing runs tests in
/// parallel, and each must edit its own files and keep its own programs.
final class ExerciseWorkspace {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Where `swift build --build-tests` put the products: the workbook tool, the modules and the
    /// exercises' library.
    static func productsDirectory() throws -> URL {
        try #require(BuiltExecutable.url(named: "workbook"), "the workbook tool is not built")
            .deletingLastPathComponent()
    }

    /// A runner for the package itself (its Exercises/ folder), with a current library.
    static func packageRunner() throws -> ExerciseRunner {
        let runner = try ExerciseRunner(packageRoot: packageRoot, productsDirectory: productsDirectory())
        try #require(
            runner.toolchain.runtimeProblem() == nil, "the exercises' library is stale: run `swift build --build-tests`"
        )
        return runner
    }

    /// The copy's root folder.
    let root: URL

    /// Copies Exercises/Workspace and Exercises/Solutions into a new temporary folder.
    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("exercise-tests-\(UUID().uuidString)")
        for folder in ["Workspace", "Solutions"] {
            let destination = root.appendingPathComponent("Exercises/\(folder)")
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: Self.packageRoot.appendingPathComponent("Exercises/\(folder)"), to: destination)
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The exercise named `name`.
    func exercise(_ name: String) throws -> Exercise {
        try #require(ExerciseCatalog.exercise(named: name))
    }

    /// Replaces the learner's file for `name` with `code`.
    func write(_ name: String, _ code: String) throws {
        try code.write(to: root.appendingPathComponent(try exercise(name).file), atomically: true, encoding: .utf8)
    }

    /// Puts the reference solution in the learner's file for `name`.
    func solve(_ name: String) throws {
        let exercise = try exercise(name)
        try write(name, try String(contentsOf: root.appendingPathComponent(exercise.solutionFile), encoding: .utf8))
    }

    /// A runner over this copy.
    func runner(timeLimit: TimeInterval = 30) throws -> ExerciseRunner {
        var runner = try ExerciseRunner(packageRoot: root, productsDirectory: Self.productsDirectory())
        try #require(
            runner.toolchain.runtimeProblem() == nil, "the exercises' library is stale: run `swift build --build-tests`"
        )
        runner.timeLimit = timeLimit
        return runner
    }
}
