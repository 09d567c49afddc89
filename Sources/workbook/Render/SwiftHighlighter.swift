/// Colours Swift code for the rendered book: comments, strings, keywords, numbers, types.
/// A small tokenizer is enough for listings cut from code that compiles.
enum SwiftHighlighter {
    static let keywords: Set<String> = [
        "let", "var", "func", "return", "if", "else", "guard", "for", "in", "while", "do", "catch", "try", "throw", "throws",
        "struct", "class", "enum", "protocol", "extension", "import", "public", "private", "internal", "static", "final",
        "init", "self", "Self", "nil", "true", "false", "case", "switch", "default", "where", "as", "is", "break", "continue",
        "some", "any", "inout", "mutating", "override", "open", "fileprivate", "defer", "repeat", "async", "await",
    ]

    static func html(_ code: String) -> String {
        let chars = Array(code)
        var out = ""
        var i = 0
        func span(_ cls: String, _ text: String) { out += "<span class=\"\(cls)\">\(HTML.escape(text))</span>" }
        while i < chars.count {
            let c = chars[i]
            if c == "/" && i + 1 < chars.count && chars[i + 1] == "/" {
                var j = i
                while j < chars.count && chars[j] != "\n" { j += 1 }
                span("comment", String(chars[i..<j])); i = j
            } else if c == "\"" {
                var j = i + 1
                while j < chars.count && chars[j] != "\"" && chars[j] != "\n" { if chars[j] == "\\" { j += 1 }; j += 1 }
                j = min(j + 1, chars.count)
                span("string", String(chars[i..<j])); i = j
            } else if c.isLetter || c == "_" || c == "@" || c == "#" {
                var j = i + 1
                while j < chars.count && (chars[j].isLetter || chars[j].isNumber || chars[j] == "_") { j += 1 }
                let word = String(chars[i..<j])
                if keywords.contains(word) { span("keyword", word) }
                else if c == "@" || c == "#" { span("attribute", word) }
                else if c.isUppercase { span("type", word) }
                else { out += HTML.escape(word) }
                i = j
            } else if c.isNumber {
                var j = i
                while j < chars.count && (chars[j].isNumber || chars[j] == "_" || chars[j] == ".") { j += 1 }
                span("number", String(chars[i..<j])); i = j
            } else {
                out += HTML.escape(String(c)); i += 1
            }
        }
        return out
    }
}

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
