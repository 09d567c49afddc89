import Foundation

/// Seconds taken by `body`.
@inline(never)
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// One untimed warm-up run, then `repetitions` timed runs; the median of the timings.
func medianSeconds(repetitions: Int, warmUp: Bool = true, _ body: () throws -> Void) rethrows -> Double {
    if warmUp { try body() }
    var timings: [Double] = []
    for _ in 0..<max(1, repetitions) { timings.append(try seconds(body)) }
    return median(timings)
}

/// Times several implementations of the same work under the same conditions: one warm-up
/// each, then `repetitions` rounds in which every body runs once (the order rotating from
/// round to round, so none always runs first). The median per body, in the order given.
func interleavedMedianSeconds(repetitions: Int, _ bodies: [() throws -> Void]) throws -> [Double] {
    for body in bodies { try body() }
    var timings = Array(repeating: [Double](), count: bodies.count)
    for round in 0..<max(1, repetitions) {
        for k in 0..<bodies.count {
            let i = (round + k) % bodies.count
            timings[i].append(try seconds(bodies[i]))
        }
    }
    return timings.map(median)
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// A deterministic pseudo-random generator (SplitMix64), so every run sees the same data.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Seconds taken by `body`, and what it returned. The result is released by the caller,
/// after the clock has stopped, so freeing what a fetch built is not timed.
@inline(never)
func timed<T>(_ body: () throws -> T) rethrows -> (seconds: Double, result: T) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try body()
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, result)
}

/// Like ``interleavedMedianSeconds(repetitions:_:)`` for bodies that time themselves, so
/// each can prepare untimed (an empty store file, a new context) and clean up after: each
/// body returns the seconds of its timed part. One warm-up each, then `settings.repetitions`
/// rounds in rotating order; the median per body, in the order given. With `--only NAME`
/// (for a profiler) only that body runs, and the others' medians are NaN.
func interleavedMedians(_ settings: BenchSettings, _ bodies: [(name: String, body: () throws -> Double)]) throws
    -> [Double]
{
    let active = bodies.indices.filter { settings.only == nil || bodies[$0].name == settings.only }
    for i in active { _ = try bodies[i].body() }
    var timings = Array(repeating: [Double](), count: bodies.count)
    for round in 0..<max(1, settings.repetitions) {
        for k in active.indices {
            let i = active[(round + k) % active.count]
            timings[i].append(try bodies[i].body())
        }
    }
    return timings.map(median)
}
