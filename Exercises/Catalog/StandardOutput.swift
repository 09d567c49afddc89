// A file of its own: Swift 6 sees the C global `stdout` as shared mutable state, and only a
// file that imports Glibc with @preconcurrency (and not through Foundation) may touch it. The
// program touches it once, on its one thread, before the learner's code runs.
#if canImport(Glibc)
    @preconcurrency import Glibc
#else
    @preconcurrency import Darwin
#endif

/// The exercise program's standard output.
enum StandardOutput {
    /// Makes standard output line-buffered, so what the learner's code printed before a trap is
    /// not lost in a buffer.
    static func flushEachLine() {
        setvbuf(stdout, nil, _IOLBF, 0)
    }
}
