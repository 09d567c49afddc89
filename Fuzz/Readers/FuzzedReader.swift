import Foundation
import ObjectGraph

/// One reader of bytes someone else wrote, as the fuzzers drive it: the libFuzzer targets in
/// Fuzz/Targets (`bash Fuzz/run.sh <name>`) and the suite's bounded fuzz
/// (Tests/ObjectGraphTests/Robustness/ReaderFuzzTests.swift) call the same ``check``, so the two
/// can never judge an input differently.
///
/// A check feeds one input to the reader's public entry point and judges what happens. Reading
/// it, or throwing the error the reader's documentation promises (a ``CoreDataError`` naming
/// the file, for a file), is right. A crash or hang is caught by whoever runs the check; any
/// other behaviour (another error type, an error that names no file, a round trip that differs)
/// is returned as a finding.
package struct FuzzedReader: Sendable {
    /// The name in `Fuzz/<name>/seed`, in `bash Fuzz/run.sh <name>` and in the target `fuzz-<name>`.
    package let name: String
    /// What the reader reads and through which entry point.
    package let summary: String
    /// Feeds one input; nil when the reader behaved, else what went wrong.
    package let check: @Sendable (Data, FuzzScratch) -> String?
}

/// Every reader of outside bytes in ObjectGraph, by name.
package enum FuzzedReaders {
    /// All of them, in the order `bash Fuzz/run.sh all` runs them.
    package static let all: [FuzzedReader] = [
        predicateReader, modelReader, currentVersionReader, mappingReader, compiledMappingReader,
        xmlStoreReader, binaryStoreReader, keyedArchiveReader,
    ]

    /// The reader with this name, or nil.
    package static func named(_ name: String) -> FuzzedReader? { all.first { $0.name == name } }

    /// The folder of this checkout's `Fuzz` directory, found from this file: seeds live there.
    package static var fuzzDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The seed inputs of a reader (`Fuzz/<name>/seed`), sorted by file name.
    package static func seeds(of name: String) throws -> [(name: String, data: Data)] {
        let folder = fuzzDirectory.appendingPathComponent(name).appendingPathComponent("seed")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
            ($0, try Data(contentsOf: folder.appendingPathComponent($0)))
        }
    }
}

/// A folder a check may write its input into (a file reader reads files), with what a check
/// sets up once per folder (the model bundle around `.xccurrentversion`). libFuzzer uses one per
/// process; each test of the suite makes its own, since tests run in parallel.
package final class FuzzScratch: @unchecked Sendable {
    /// The folder; the caller makes it and removes it.
    package let directory: URL
    /// What checks keep between inputs, by name; one thread uses a scratch folder at a time.
    var prepared: Set<String> = []

    /// A scratch area in `directory`, which must exist.
    package init(directory: URL) {
        self.directory = directory
    }

    /// A path in the folder.
    func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Writes the input to `url`; a failure to write is the machine's problem, not the reader's.
    func write(_ data: Data, to url: URL) {
        do { try data.write(to: url) } catch { fatalError("fuzz scratch: cannot write \(url.path): \(error)") }
    }
}

/// What is wrong with an error a file reader threw, or nil when it is a ``CoreDataError`` whose
/// message names the file (by its path or, for a folder's file, the folder's).
func fileReaderFinding(_ error: any Error, naming url: URL, in scratch: FuzzScratch) -> String? {
    guard let error = error as? CoreDataError else {
        return "threw \(type(of: error)) (\(error)), not a CoreDataError"
    }
    // The file, or a folder around it inside the scratch folder (a bundle, an .xcmappingmodel).
    var named = [url.path]
    var folder = url.deletingLastPathComponent()
    while folder.path.count > scratch.directory.path.count {
        named.append(folder.path)
        folder = folder.deletingLastPathComponent()
    }
    guard named.contains(where: { error.message.contains($0) }) else {
        return "the error does not name the file \(url.path): \(error.message)"
    }
    return nil
}
