import Foundation

/// What each libFuzzer target's `LLVMFuzzerTestOneInput` calls: the reader's check, with one
/// scratch folder for the process, and a finding turned into a crash, which libFuzzer saves.
package enum FuzzEntry {
    /// The scratch folder of this process, in `$TMPDIR` (Fuzz/run.sh points it into .build-fuzz).
    nonisolated(unsafe) private static var scratch: FuzzScratch?

    /// Runs the named reader's check on one input; aborts, naming the finding, on a finding.
    package static func run(_ name: String, _ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        guard let reader = FuzzedReaders.named(name) else { fatalError("no fuzzed reader is named \(name)") }
        let scratch =
            self.scratch
            ?? {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "objectgraph-fuzz-\(name)-\(getpid())")
                do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
                    fatalError("cannot make the scratch folder \(directory.path): \(error)")
                }
                let made = FuzzScratch(directory: directory)
                self.scratch = made
                return made
            }()
        let data = Data(bytes: bytes, count: size)
        if let finding = reader.check(data, scratch) {
            FileHandle.standardError.write(Data("\nFUZZ FINDING (\(name)): \(finding)\n".utf8))
            abort()
        }
        return 0
    }
}
