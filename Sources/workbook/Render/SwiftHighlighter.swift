/// Colours Swift code for the rendered book: comments, strings, keywords, numbers, types.
/// A small tokenizer is enough for listings cut from code that compiles. Swift's contextual
/// keywords (`open`, `some`, `get`, ...) and the reserved words it lets code use as argument
/// labels (`count(for:)`, `fetch(_:in:)`) are coloured only where they act as keywords.
enum SwiftHighlighter {
    /// Words that are keywords wherever they stand, except as argument labels or after a dot.
    static let reserved: Set<String> = [
        "let", "var", "func", "return", "if", "else", "guard", "while", "do", "catch", "try", "throw", "throws",
        "rethrows", "struct", "class", "enum", "protocol", "extension", "import", "public", "private", "internal",
        "fileprivate", "static", "init", "deinit", "self", "Self", "super", "nil", "true", "false", "case", "switch",
        "default", "where", "as", "is", "break", "continue", "fallthrough", "inout", "defer", "repeat", "subscript",
        "typealias", "associatedtype", "operator", "await",
    ]
    /// Declaration modifiers that are keywords only in front of a declaration (`open class`,
    /// `final func`) and plain names elsewhere (`store.open()`, `func open()`).
    static let modifiers: Set<String> = [
        "open", "final", "override", "mutating", "nonmutating", "convenience", "required", "lazy", "dynamic",
        "optional", "indirect", "nonisolated", "package", "prefix", "postfix", "infix", "weak", "unowned",
    ]
    /// What may follow a modifier for it to be one.
    static let declarationStarts: Set<String> = [
        "class", "struct", "enum", "protocol", "extension", "actor", "func", "var", "let", "init", "deinit",
        "subscript", "typealias", "associatedtype", "public", "private", "internal", "fileprivate", "static",
    ]
    /// Names after a dot that are still keywords (`Book.self`, `.init(...)`).
    static let memberKeywords: Set<String> = ["self", "init", "Type", "Protocol"]
    /// Words that may appear in a closure's signature before its `in`.
    static let closureSignatureWords: Set<String> = [
        "self", "Self", "weak", "unowned", "inout", "async", "throws", "rethrows", "some", "any", "_",
    ]

    enum Kind: Equatable { case word, number, string, comment, space, punct }
    struct Token {
        var kind: Kind
        var text: String
    }

    /// The code as HTML: each token escaped, coloured ones in a `span` with their class.
    static func html(_ code: String) -> String {
        let tokens = tokenize(code)
        let classes = classify(tokens)
        var out = ""
        for (token, cls) in zip(tokens, classes) {
            if let cls {
                out += "<span class=\"\(cls)\">\(HTML.escape(token.text))</span>"
            } else {
                out += HTML.escape(token.text)
            }
        }
        return out
    }

    /// The code as HTML, one string a source line: a token that spans lines (a block comment,
    /// a multi-line string) is closed at each line's end and reopened on the next, so every
    /// line is well-formed HTML on its own.
    static func htmlLines(_ code: String) -> [String] {
        let tokens = tokenize(code)
        let classes = classify(tokens)
        var lines = [""]
        for (token, cls) in zip(tokens, classes) {
            for (n, piece) in token.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if n > 0 { lines.append("") }
                guard !piece.isEmpty else { continue }
                if cls == "string" {
                    lines[lines.count - 1] += stringHTML(String(piece))
                } else if let cls {
                    lines[lines.count - 1] += "<span class=\"\(cls)\">\(HTML.escape(String(piece)))</span>"
                } else {
                    lines[lines.count - 1] += HTML.escape(String(piece))
                }
            }
        }
        return lines
    }

    /// A piece of a string literal as HTML, each interpolation `\(...)` in a span of its own
    /// that does not wrap: a listing wrapped right after the `\` reads as a line continuation,
    /// and one wrapped inside the parentheses leaves a lone `)` or `}` on a line.
    static func stringHTML(_ text: String) -> String {
        var out = ""
        var plain = ""
        var i = text.startIndex
        func flush(_ cls: String, _ part: String) {
            if !part.isEmpty { out += "<span class=\"\(cls)\">\(HTML.escape(part))</span>" }
        }
        while i < text.endIndex {
            guard text[i...].hasPrefix("\\("), let end = interpolationEnd(in: text, from: text.index(i, offsetBy: 2))
            else {
                plain.append(text[i])
                i = text.index(after: i)
                continue
            }
            flush("string", plain)
            plain = ""
            flush("string nowrap", String(text[i..<end]))
            i = end
        }
        flush("string", plain)
        return out
    }

    /// The index after the `)` that closes an interpolation whose contents start at `start`.
    private static func interpolationEnd(in text: String, from start: String.Index) -> String.Index? {
        var depth = 1
        var i = start
        while i < text.endIndex {
            if text[i] == "(" { depth += 1 }
            if text[i] == ")" {
                depth -= 1
                if depth == 0 { return text.index(after: i) }
            }
            i = text.index(after: i)
        }
        return nil
    }

    /// Splits code into words, numbers, strings, comments, runs of white space and punctuation.
    static func tokenize(_ code: String) -> [Token] {
        let chars = Array(code)
        var tokens: [Token] = []
        var i = 0
        func take(_ kind: Kind, upTo j: Int) {
            tokens.append(Token(kind: kind, text: String(chars[i..<j])))
            i = j
        }
        func at(_ k: Int, _ s: String) -> Bool {
            let needle = Array(s)
            return k + needle.count <= chars.count && Array(chars[k..<(k + needle.count)]) == needle
        }
        while i < chars.count {
            let c = chars[i]
            if at(i, "//") {
                var j = i
                while j < chars.count && chars[j] != "\n" { j += 1 }
                take(.comment, upTo: j)
            } else if at(i, "/*") {
                var j = i + 2
                while j < chars.count && !at(j, "*/") { j += 1 }
                take(.comment, upTo: min(j + 2, chars.count))
            } else if at(i, "\"\"\"") {
                var j = i + 3
                while j < chars.count && !at(j, "\"\"\"") { j += chars[j] == "\\" ? 2 : 1 }
                take(.string, upTo: min(j + 3, chars.count))
            } else if c == "\"" {
                var j = i + 1
                var depth = 0 // inside \( ... ) a quote does not end the string
                while j < chars.count && chars[j] != "\n" && (chars[j] != "\"" || depth > 0) {
                    if chars[j] == "\\" && j + 1 < chars.count && chars[j + 1] == "(" {
                        depth += 1
                        j += 2
                        continue
                    }
                    if chars[j] == "\\" {
                        j += 2
                        continue
                    }
                    if depth > 0 && chars[j] == "(" { depth += 1 }
                    if depth > 0 && chars[j] == ")" { depth -= 1 }
                    j += 1
                }
                take(.string, upTo: min(j + 1, chars.count))
            } else if c.isLetter || c == "_" || c == "@" || c == "#" {
                var j = i + 1
                while j < chars.count && (chars[j].isLetter || chars[j].isNumber || chars[j] == "_") { j += 1 }
                take(.word, upTo: j)
            } else if c.isNumber {
                var j = i
                while j < chars.count
                    && (chars[j].isNumber || chars[j] == "_"
                        || (chars[j] == "." && j + 1 < chars.count && chars[j + 1].isNumber))
                { j += 1 }
                take(.number, upTo: j)
            } else if c.isWhitespace {
                var j = i
                while j < chars.count && chars[j].isWhitespace { j += 1 }
                take(.space, upTo: j)
            } else if at(i, "->") {
                take(.punct, upTo: i + 2)
            } else {
                take(.punct, upTo: i + 1)
            }
        }
        return tokens
    }

    /// The class each token is shown with, nil for plain text. Keywords depend on their
    /// neighbours, so this looks at the tokens around each word.
    static func classify(_ tokens: [Token]) -> [String?] {
        var classes: [String?] = tokens.map { $0.kind == .comment ? "comment" : nil }
        // Indices of the tokens that are not white space or comments.
        let significant = tokens.indices.filter { tokens[$0].kind != .space && tokens[$0].kind != .comment }
        func text(_ n: Int) -> String? { n >= 0 && n < significant.count ? tokens[significant[n]].text : nil }
        func kind(_ n: Int) -> Kind? { n >= 0 && n < significant.count ? tokens[significant[n]].kind : nil }
        func newlineBefore(_ n: Int) -> Bool {
            let from = n > 0 ? significant[n - 1] + 1 : 0
            return tokens[from..<significant[n]].contains { $0.text.contains("\n") }
        }
        var closureSignature: [Bool] = [] // one entry per open brace: could an `in` still end its signature?
        var forLoopAwaitsIn = false
        for (n, index) in significant.enumerated() {
            let token = tokens[index]
            switch token.kind {
            case .string: classes[index] = "string"
            case .number: classes[index] = "number"
            case .comment, .space: break // not significant: classified above
            case .punct:
                switch token.text {
                case "{": closureSignature.append(true)
                case "}": _ = closureSignature.popLast()
                case "(", ")", "[", "]", ",", ":", "?", "!", "<", ">", ".", "->": break
                default: if !closureSignature.isEmpty { closureSignature[closureSignature.count - 1] = false }
                }
            case .word:
                let word = token.text
                let previous = text(n - 1)
                let next = text(n + 1)
                let isMember = previous == "." && !memberKeywords.contains(word)
                // `count(for: request)`, `func fetch(_ r: R, in context: C)`: a label, not a keyword.
                let isLabel =
                    (previous == "(" || previous == ",")
                    && (next == ":" || (kind(n + 1) == .word && text(n + 2) == ":"))
                let atStatementStart =
                    previous == nil || previous == "{" || previous == "}" || previous == ";"
                    || previous == ":" || newlineBefore(n)
                var isKeyword = false
                if !isMember && !isLabel && previous != "`" {
                    if word == "for" {
                        isKeyword = atStatementStart
                        if isKeyword { forLoopAwaitsIn = true }
                    } else if word == "in" {
                        if forLoopAwaitsIn {
                            isKeyword = true
                            forLoopAwaitsIn = false
                        } else if closureSignature.last == true {
                            isKeyword = true
                        }
                    } else if reserved.contains(word) {
                        isKeyword = true
                    } else if modifiers.contains(word) {
                        isKeyword =
                            next.map { declarationStarts.contains($0) || modifiers.contains($0) } ?? false
                            || ((word == "weak" || word == "unowned") && kind(n + 1) == .word
                                && (previous == "[" || previous == ","))
                    } else if word == "some" || word == "any" {
                        isKeyword = kind(n + 1) == .word && next?.first?.isUppercase == true
                    } else if word == "get" || word == "set" || word == "willSet" || word == "didSet" {
                        isKeyword =
                            next == "{" || next == "}" || ["get", "set", "async", "throws"].contains(next ?? "")
                            || (next == "(" && (previous == "{" || previous == "}"))
                    } else if word == "async" {
                        isKeyword = previous == ")" || ["let", "var", "throws", "rethrows", "->"].contains(next ?? "")
                    }
                }
                if isKeyword {
                    classes[index] = "keyword"
                } else if word.first == "@" || word.first == "#" {
                    classes[index] = "attribute"
                } else if word.first?.isUppercase == true {
                    classes[index] = "type"
                }
                // A closure's signature holds names, types and a few keywords; anything else
                // (`let`, `return`, a call's result) means the braces are not a closure's.
                if !closureSignature.isEmpty && word != "in" && (isKeyword || word.first == "#")
                    && !closureSignatureWords.contains(word)
                {
                    closureSignature[closureSignature.count - 1] = false
                }
                if word == "in" && isKeyword && !closureSignature.isEmpty {
                    closureSignature[closureSignature.count - 1] = false
                }
            }
        }
        return classes
    }
}

/// Escapes text for HTML.
enum HTML {
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
