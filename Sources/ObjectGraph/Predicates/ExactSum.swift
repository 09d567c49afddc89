import Foundation

/// The sum of Doubles rounded once, from the exact total, so that it does not depend on the
/// order of the elements: `@sum` and `@avg` over a to-many relationship (which has no order)
/// give the same answer in memory as in SQL (where the SQLite store computes them with the
/// `OG_FSUM` aggregate, which uses this type), whatever order the rows come in.
///
/// Shewchuk's algorithm ("Adaptive Precision Floating-Point Arithmetic", 1997), as Python's
/// `math.fsum` uses it: the running total is kept as a short list of non-overlapping partial
/// sums, each addition exact, and only the final result is rounded. Infinities are summed
/// apart: +inf and -inf together make NaN. A total beyond the largest Double is an infinity
/// of its sign.
struct ExactSum {
    /// Non-overlapping partial sums, smallest magnitude first; their exact sum is the total.
    private var partials: [Double] = []
    /// The sum of the infinities and NaNs met (0 when there were none).
    private var special = 0.0
    /// The sign of an intermediate total that overflowed the largest Double, if one did.
    private var overflow: Double?

    /// Adds one element.
    mutating func add(_ value: Double) {
        guard value.isFinite else {
            special += value
            return
        }
        var x = value
        var kept = 0
        for k in partials.indices {
            var y = partials[k]
            if abs(x) < abs(y) { swap(&x, &y) }
            let high = x + y
            guard high.isFinite else {
                overflow = high
                return
            }
            let low = y - (high - x)
            if low != 0 {
                partials[kept] = low
                kept += 1
            }
            x = high
        }
        partials.removeSubrange(kept...)
        partials.append(x)
    }

    /// The total, rounded once to the nearest Double (NaN for +inf plus -inf).
    var total: Double {
        if special != 0 || special.isNaN { return special }
        if let overflow { return overflow }
        var n = partials.count
        guard n > 0 else { return 0 }
        n -= 1
        var high = partials[n]
        var low = 0.0
        while n > 0 {
            let x = high
            n -= 1
            let y = partials[n]
            high = x + y
            low = y - (high - x)
            if low != 0 { break }
        }
        // Round half to even correctly when the rest below `low` breaks the tie.
        if n > 0, (low < 0 && partials[n - 1] < 0) || (low > 0 && partials[n - 1] > 0) {
            let y = low * 2
            let x = high + y
            if y == x - high { high = x }
        }
        return high
    }
}
