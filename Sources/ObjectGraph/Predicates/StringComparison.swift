import Foundation

/// String operations with Apple's option semantics, shared by the in-memory evaluator and the
/// SQLite store's registered functions, so that both give the same answers.
///
/// Without options, strings compare by their Unicode scalars, as NSString's `isEqual:` compares
/// code units and as SQLite's BINARY collation compares bytes: `"é"` precomposed and decomposed
/// differ. With `[c]` or `[d]` both sides are folded first.
public enum StringComparison {
    /// Folds a string for the options: `[c]` case, `[d]` diacritics (either adds width, as
    /// Apple's does); `[n]` means the caller already normalized, so nothing is done.
    public static func fold(_ s: String, _ options: ComparisonPredicate.Options) -> String {
        if options.contains(.normalized) { return s }
        let caseInsensitive = options.contains(.caseInsensitive)
        let diacriticInsensitive = options.contains(.diacriticInsensitive)
        guard caseInsensitive || diacriticInsensitive else { return s }
        // ASCII has no diacritics, no width variants and nothing to compose; Foundation's case
        // folding of ASCII is lowercasing. This skips Foundation's slow path for most strings.
        if isASCII(s) { return caseInsensitive ? s.lowercased() : s }
        var folding: String.CompareOptions = [.widthInsensitive]
        if caseInsensitive { folding.insert(.caseInsensitive) }
        if diacriticInsensitive { folding.insert(.diacriticInsensitive) }
        return s.folding(options: folding, locale: nil).precomposedStringWithCanonicalMapping
    }

    @inline(__always)
    static func isASCII(_ s: String) -> Bool {
        if let ascii = s.utf8.withContiguousStorageIfAvailable({ bytes in bytes.allSatisfy { $0 < 0x80 } }) {
            return ascii
        }
        return s.utf8.allSatisfy { $0 < 0x80 }
    }

    // The operations below work on UTF-8 bytes: UTF-8 keeps the order of Unicode scalars and
    // a valid UTF-8 needle can only match at scalar boundaries, so comparing bytes gives the
    // same answers as comparing scalars, without decoding.

    /// How two strings can be compared byte by byte without folding them first: `false` when
    /// no folding applies (no options, or `[n]`), `true` when both are ASCII and `[c]` is on
    /// (so bytes are compared lowercased), `false` for ASCII under `[d]` alone; nil when
    /// a side is not ASCII and needs Foundation's folding.
    @inline(__always)
    private static func byteFolding(_ a: String, _ b: String, _ options: ComparisonPredicate.Options) -> Bool? {
        if options.contains(.normalized) { return false }
        let caseInsensitive = options.contains(.caseInsensitive)
        guard caseInsensitive || options.contains(.diacriticInsensitive) else { return false }
        guard isASCII(a) && isASCII(b) else { return nil }
        return caseInsensitive
    }

    @inline(__always)
    private static func lowercaseASCII(_ b: UInt8) -> UInt8 { (b &- 65) < 26 ? b | 0x20 : b }

    /// `==` on strings with options.
    public static func equal(_ a: String, _ b: String, _ options: ComparisonPredicate.Options) -> Bool {
        if let lower = byteFolding(a, b, options) {
            return lower
                ? a.utf8.elementsEqual(b.utf8) { lowercaseASCII($0) == lowercaseASCII($1) }
                : a.utf8.elementsEqual(b.utf8)
        }
        return fold(a, options).utf8.elementsEqual(fold(b, options).utf8)
    }

    /// Orders two strings by Unicode scalar, after folding: the order of SQLite's BINARY
    /// collation over UTF-8.
    public static func compare(_ a: String, _ b: String, _ options: ComparisonPredicate.Options) -> ComparisonResult {
        let x = fold(a, options).utf8
        let y = fold(b, options).utf8
        var i = x.makeIterator()
        var j = y.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case (let p?, let q?):
                if p < q { return .orderedAscending }
                if p > q { return .orderedDescending }
            }
        }
    }

    /// BEGINSWITH: false when either side is empty, as `rangeOfString:` finds nothing for "".
    public static func beginsWith(_ s: String, _ prefix: String, _ options: ComparisonPredicate.Options) -> Bool {
        if let lower = byteFolding(s, prefix, options) {
            guard !prefix.isEmpty else { return false }
            return lower
                ? s.utf8.starts(with: prefix.utf8) { lowercaseASCII($0) == lowercaseASCII($1) }
                : s.utf8.starts(with: prefix.utf8)
        }
        let p = fold(prefix, options)
        guard !p.isEmpty else { return false }
        return fold(s, options).utf8.starts(with: p.utf8)
    }

    /// ENDSWITH: false when the suffix is empty.
    public static func endsWith(_ s: String, _ suffix: String, _ options: ComparisonPredicate.Options) -> Bool {
        if let lower = byteFolding(s, suffix, options) {
            guard !suffix.isEmpty, s.utf8.count >= suffix.utf8.count else { return false }
            let tail = s.utf8.suffix(suffix.utf8.count)
            return lower
                ? tail.elementsEqual(suffix.utf8) { lowercaseASCII($0) == lowercaseASCII($1) }
                : tail.elementsEqual(suffix.utf8)
        }
        let p = fold(suffix, options)
        guard !p.isEmpty else { return false }
        let t = fold(s, options)
        return t.utf8.count >= p.utf8.count && t.utf8.reversed().starts(with: p.utf8.reversed())
    }

    /// CONTAINS on strings (and IN with a string on the right): false for an empty needle.
    public static func contains(_ s: String, _ needle: String, _ options: ComparisonPredicate.Options) -> Bool {
        let p = Array(fold(needle, options).utf8)
        guard let first = p.first else { return false }
        let folded = fold(s, options)
        return folded.utf8.withContiguousStorageIfAvailable { t in search(t, p, first) }
            ?? search(Array(folded.utf8), p, first)
    }

    private static func search<C: RandomAccessCollection>(_ t: C, _ p: [UInt8], _ first: UInt8) -> Bool
    where C.Element == UInt8, C.Index == Int {
        guard t.count >= p.count else { return false }
        for start in t.startIndex...(t.endIndex - p.count) where t[start] == first {
            if t[start..<(start + p.count)].elementsEqual(p) { return true }
        }
        return false
    }

    /// LIKE: `*` matches any run of characters, `?` exactly one, over the whole string; `\*`, `\?`
    /// and `\\` are literal.
    ///
    /// An empty pattern matches nothing.
    ///
    /// Throws when the pattern ends with a lone backslash, in Apple's words.
    public static func like(_ s: String, _ pattern: String, _ options: ComparisonPredicate.Options) throws -> Bool {
        let p = Array(fold(pattern, options).unicodeScalars)
        guard !p.isEmpty else { return false }
        let t = Array(fold(s, options).unicodeScalars)
        // Compile the pattern into tokens first so the escape rule is checked once.
        enum Piece: Equatable {
            case literal(Unicode.Scalar)
            case one
            case any
        }
        var pieces: [Piece] = []
        var i = 0
        while i < p.count {
            switch p[i] {
            case "\\":
                guard i + 1 < p.count else {
                    throw PredicateError(
                        .invalidPattern,
                        "The backslash is a wildcard char, and cannot appear unescaped at the end of a string (LIKE pattern \(PredicatePrinter.quote(pattern))); write \\\\ for a literal backslash"
                    )
                }
                pieces.append(.literal(p[i + 1]))
                i += 2
                continue
            case "*": if pieces.last != .any { pieces.append(.any) }
            case "?": pieces.append(.one)
            default: pieces.append(.literal(p[i]))
            }
            i += 1
        }
        // Greedy matching with a single backtrack point: linear for one star, O(n*m) at worst.
        var ti = 0
        var pi = 0
        var starPiece = -1
        var starText = 0
        while ti < t.count {
            if pi < pieces.count {
                switch pieces[pi] {
                case .any:
                    starPiece = pi
                    starText = ti
                    pi += 1
                    continue
                case .one:
                    ti += 1
                    pi += 1
                    continue
                case .literal(let c) where c == t[ti]:
                    ti += 1
                    pi += 1
                    continue
                default: break
                }
            }
            guard starPiece >= 0 else { return false }
            pi = starPiece + 1
            starText += 1
            ti = starText
        }
        while pi < pieces.count, pieces[pi] == .any { pi += 1 }
        return pi == pieces.count
    }

    /// MATCHES: the whole string matches an ICU regular expression (compiled with dot-matches-all
    /// and multi-line anchors, as Apple compiles it).
    ///
    /// An empty pattern matches nothing. Throws when the pattern does not compile.
    public static func matches(_ s: String, _ pattern: String, _ options: ComparisonPredicate.Options) throws -> Bool {
        guard !pattern.isEmpty else { return false }
        var folding = options
        folding.remove(.caseInsensitive)
        let regex = try RegularExpressionCache.shared.expression(
            for: fold(pattern, folding),
            caseInsensitive: options.contains(.caseInsensitive) && !options.contains(.normalized))
        let subject = fold(s, folding)
        let range = NSRange(subject.startIndex..., in: subject)
        return regex.firstMatch(in: subject, options: [.anchored], range: range) != nil
    }
}

/// Compiled regular expressions by pattern, so a predicate evaluated over many objects
/// compiles its pattern once.
final class RegularExpressionCache: Sendable {
    static let shared = RegularExpressionCache()
    private let cache = Lock<[String: NSRegularExpression]>([:])

    func expression(for pattern: String, caseInsensitive: Bool) throws -> NSRegularExpression {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        if let cached = cache.withLock({ $0[key] }) { return cached }
        var options: NSRegularExpression.Options = [.dotMatchesLineSeparators, .anchorsMatchLines]
        if caseInsensitive { options.insert(.caseInsensitive) }
        let regex: NSRegularExpression
        do {
            _ = try NSRegularExpression(pattern: pattern, options: options)
            // Anchored at the start by the match option and at the very end by \z: a whole-string
            // match, as ICU's uregex_matches does.
            regex = try NSRegularExpression(
                pattern: RegularExpressionCache.wholeMatchPattern(pattern), options: options)
        } catch {
            throw PredicateError(
                .invalidPattern,
                "Can't do regex matching, reason: the pattern \(PredicatePrinter.quote(pattern)) is not a valid ICU regular expression"
            )
        }
        // Compiled outside the lock: two threads may compile one pattern at once, and the
        // second result replaces the first, which is as good.
        cache.withLock { cache in
            if cache.count > 512 { cache.removeAll() }
            cache[key] = regex
        }
        return regex
    }

    /// `(?:pattern)\z`, closing first whatever the pattern leaves open at its end that would
    /// swallow the suffix: a `\Q` quotation without its `\E`, or free-spacing mode (`(?x)`),
    /// where a `#` comment runs to the end of the line. The pattern is already known to compile.
    static func wholeMatchPattern(_ pattern: String) -> String {
        let p = Array(pattern.unicodeScalars)
        func isLineEnd(_ c: Unicode.Scalar) -> Bool {
            c == "\n" || c == "\r" || c == "\u{85}" || c == "\u{2028}" || c == "\u{2029}"
        }
        func isFlag(_ c: Unicode.Scalar) -> Bool {
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "-"
        }
        // Whether free-spacing mode is on, per open group (the innermost last).
        var extended: [Bool] = [false]
        var inQuote = false
        var classDepth = 0
        var i = 0
        while i < p.count {
            let c = p[i]
            if inQuote {
                if c == "\\", i + 1 < p.count, p[i + 1] == "E" {
                    inQuote = false
                    i += 2
                } else {
                    i += 1
                }
                continue
            }
            if c == "\\" {
                if i + 1 < p.count, p[i + 1] == "Q" { inQuote = true }
                i += 2
                continue
            }
            if classDepth > 0 {
                if c == "[" { classDepth += 1 } else if c == "]" { classDepth -= 1 }
                i += 1
                continue
            }
            let freeSpacing = extended[extended.count - 1]
            if freeSpacing && c == "#" {
                while i < p.count && !isLineEnd(p[i]) { i += 1 }
                continue
            }
            switch c {
            case "[":
                classDepth = 1
                i += 1
                // A `]` straight after `[` or `[^` is a literal.
                if i < p.count, p[i] == "^" { i += 1 }
                if i < p.count, p[i] == "]" { i += 1 }
            case "(":
                if i + 1 < p.count, p[i + 1] == "?" {
                    if i + 2 < p.count, p[i + 2] == "#" {
                        // (?# comment )
                        i += 3
                        while i < p.count && p[i] != ")" { i += 1 }
                        i += 1
                        continue
                    }
                    var j = i + 2
                    var on = true
                    var x: Bool?
                    while j < p.count, isFlag(p[j]) {
                        if p[j] == "-" { on = false } else if p[j] == "x" { x = on }
                        j += 1
                    }
                    if j < p.count, p[j] == ")" {
                        // (?flags): changes the mode for the rest of the enclosing group.
                        extended[extended.count - 1] = x ?? freeSpacing
                        i = j + 1
                        continue
                    }
                    if j < p.count, p[j] == ":" {
                        extended.append(x ?? freeSpacing)
                        i = j + 1
                        continue
                    }
                }
                extended.append(freeSpacing)
                i += 1
            case ")":
                if extended.count > 1 { extended.removeLast() }
                i += 1
            default:
                i += 1
            }
        }
        var closing = ""
        if inQuote { closing += "\\E" }
        if extended[0] { closing += "\n" }
        return "(?:" + pattern + closing + ")\\z"
    }
}
