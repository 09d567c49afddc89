import Foundation

/// Code listings cut from the chapters' Swift sources between `// ANCHOR: name` and
/// `// ANCHOR_END: name`, so the book shows code that compiles.
enum Anchors {
    /// The lines of an anchor in a chapter folder, without the anchor comments (of this or
    /// nested anchors) and without their common indentation.
    static func listing(named name: String, inDirectory directory: URL) throws -> String? {
        let files =
            (FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
            ?? [])
            .filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            guard
                let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "// ANCHOR: \(name)" })
            else { continue }
            guard
                let end = lines[start...].firstIndex(where: {
                    $0.trimmingCharacters(in: .whitespaces) == "// ANCHOR_END: \(name)"
                })
            else {
                throw BookMarkerError(
                    file: file.path, line: start, problem: "// ANCHOR: \(name) has no // ANCHOR_END: \(name)")
            }
            let body = lines[(start + 1)..<end].filter {
                let t = $0.trimmingCharacters(in: .whitespaces)
                return !t.hasPrefix("// ANCHOR: ") && !t.hasPrefix("// ANCHOR_END: ")
            }
            let indent =
                body.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                .map { $0.prefix { $0 == " " }.count }.min() ?? 0
            return body.map {
                $0.count >= indent ? String($0.dropFirst(indent)) : $0.trimmingCharacters(in: .whitespaces)
            }
            .joined(separator: "\n")
        }
        return nil
    }
}
