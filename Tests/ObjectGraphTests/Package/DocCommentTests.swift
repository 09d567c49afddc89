import Foundation
import Testing

// The house rule: every public type and method has a one-line doc comment.
@Suite struct DocCommentTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let skipped = [
        "public static func ==", "public func hash(into", "public var description", "public init(rawValue",
        "public let rawValue",
    ]

    @Test func everyPublicDeclarationHasADocComment() throws {
        let sources = Self.packageRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(!files.isEmpty)
        var missing: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (i, line) in lines.enumerated() {
                let text = line.trimmingCharacters(in: .whitespaces)
                guard text.hasPrefix("public ") || text.hasPrefix("open ") else { continue }
                guard !Self.skipped.contains(where: { text.hasPrefix($0) }) else { continue }
                var j = i - 1
                // Attributes between the comment and the declaration, including one that the
                // formatter spread over several lines: `@available(` ... `)`, `@Option(` ... `))`.
                outer: while j >= 0 {
                    let above = lines[j].trimmingCharacters(in: .whitespaces)
                    if above.hasPrefix("///") || above.isEmpty { break }
                    if above.hasPrefix("@") {
                        j -= 1
                        continue
                    }
                    // Only the end of an attribute (a closing parenthesis) can continue one.
                    guard above.hasSuffix(")") else { break }
                    for k in stride(from: j - 1, through: max(0, j - 10), by: -1)
                    where lines[k].trimmingCharacters(in: .whitespaces).hasPrefix("@") {
                        let spread = lines[k...j].joined()
                        let opened = spread.filter { $0 == "(" }.count
                        if opened > 0 && opened == spread.filter({ $0 == ")" }).count {
                            j = k - 1
                            continue outer
                        }
                    }
                    break
                }
                if j < 0 || !lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                    missing.append(
                        "\(file.path.replacingOccurrences(of: Self.packageRoot.path + "/", with: "")):\(i + 1): \(text)"
                    )
                }
            }
        }
        #expect(missing.isEmpty, "public declarations without a doc comment:\n\(missing.joined(separator: "\n"))")
    }
}
