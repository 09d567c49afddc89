import Foundation
import WorkbookSupport

/// Where the learner is: the exercise `workbook exercises watch` works on, kept between runs in
/// `.build/exercises/current` (solved or not is not kept here: each verdict is kept with its
/// program, and found again from the files).
public struct ExerciseProgress: Sendable {
    /// The file that holds the current exercise's name.
    public let file: URL

    /// The progress of the package at `packageRoot`.
    public init(packageRoot: URL) {
        file = packageRoot.appendingPathComponent(".build/exercises/current")
    }

    /// The exercise the learner was on, if any and if it still exists.
    public func current(in exercises: [Exercise]) -> Exercise? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        let name = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return exercises.first { $0.name == name }
    }

    /// Remembers the exercise the learner is on.
    public func setCurrent(_ exercise: Exercise) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((exercise.name + "\n").utf8).write(to: file, options: .atomic)
    }

    /// The first exercise after `exercise` (wrapping round) that is not solved, by `isSolved`.
    public static func next(after exercise: Exercise?, in exercises: [Exercise], isSolved: (Exercise) -> Bool)
        -> Exercise?
    {
        let start = exercise.flatMap { current in exercises.firstIndex { $0.name == current.name } }.map { $0 + 1 } ?? 0
        for offset in 0..<exercises.count {
            let candidate = exercises[(start + offset) % exercises.count]
            if !isSolved(candidate) { return candidate }
        }
        return nil
    }
}
