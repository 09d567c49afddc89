import AllChapters
import Foundation
import ObjectGraph
import WorkbookSupport

/// Rewrites the generated blocks of the book's pages: listings from the chapters' sources,
/// outputs from running their sections, diagrams from their models.
struct Book {
    /// The package's root folder (the one with Package.swift and book/).
    let root: URL

    var bookDirectory: URL { root.appendingPathComponent("book") }

    /// Where listings that several chapters show live: the workbook's support, and Zarra's
    /// ToDo model and policy (defined once, in their own module).
    let sharedListingDirectories = ["Sources/WorkbookSupport", "Sources/ZarraToDo"]

    /// Why the named chapter cannot run here, or nil (``ChapterEntry/availability``); the tests
    /// give another answer to see what the book does without a PostgreSQL server.
    var unavailableReason: (String) -> String? = { chapterEntry(named: $0)?.availability() }

    /// The book's pages, in file-name order.
    func pages() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: bookDirectory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// A page's text with every generated block made current.
    func updated(_ text: String, file: String, progress: (String) -> Void = { _ in }) throws -> String {
        var lines = text.components(separatedBy: "\n")
        // From the last marker back, so earlier line numbers stay valid.
        for marker in try BookMarkers.find(in: lines, file: file).reversed() {
            // A chapter that cannot run here (no PostgreSQL server for chapter 10) keeps the
            // output a run with one embedded: the check stays byte-stable, and says why.
            if marker.kind == .output, let reason = unavailableReason(marker.chapter) {
                progress("\(file): output \(marker.chapter)/\(marker.name) kept as it is, not run: \(reason)")
                continue
            }
            progress("\(file): \(marker.kind.rawValue) \(marker.chapter)/\(marker.name)")
            let content = try generate(marker, file: file)
            let block = ["```" + marker.language] + content.components(separatedBy: "\n") + ["```"]
            lines.replaceSubrange((marker.openLine + 1)..<marker.closeLine, with: block)
        }
        return lines.joined(separator: "\n")
    }

    /// The content a marker's block must hold.
    func generate(_ marker: BookMarker, file: String) throws -> String {
        guard let entry = chapterEntry(named: marker.chapter) else {
            throw BookMarkerError(
                file: file, line: marker.openLine,
                problem:
                    "no chapter named \(marker.chapter); the chapters are \(allChapters.map(\.name).joined(separator: ", "))"
            )
        }
        switch marker.kind {
        case .listing:
            // The chapter's own folder first, then what the chapters share.
            for directory in [entry.directory] + sharedListingDirectories {
                if let code = try Anchors.listing(
                    named: marker.name, inDirectory: root.appendingPathComponent(directory))
                {
                    return code
                }
            }
            throw BookMarkerError(
                file: file, line: marker.openLine,
                problem:
                    "no // ANCHOR: \(marker.name) in \(([entry.directory] + sharedListingDirectories).joined(separator: ", "))"
            )
        case .output:
            let sections = entry.sections
            guard let section = sections.first(where: { $0.name == marker.name }) else {
                throw BookMarkerError(
                    file: file, line: marker.openLine,
                    problem:
                        "chapter \(marker.chapter) has no section \(marker.name); its sections are \(sections.map(\.name).joined(separator: ", "))"
                )
            }
            return try ChapterRunner.output(of: section, showingSQL: marker.showsSQL)
        case .diagram:
            if let diagram = entry.diagrams[marker.name] { return try diagram() }
            guard let model = entry.models[marker.name] else {
                throw BookMarkerError(
                    file: file, line: marker.openLine,
                    problem:
                        "chapter \(marker.chapter) has no model or diagram named \(marker.name); it has \((entry.models.keys.sorted() + entry.diagrams.keys.sorted()).joined(separator: ", "))"
                )
            }
            return ERDiagram.mermaid(try model())
        case .codegen:
            guard let model = entry.models[marker.name] else {
                throw BookMarkerError(
                    file: file, line: marker.openLine,
                    problem:
                        "chapter \(marker.chapter) has no model named \(marker.name); it has \(entry.models.keys.sorted().joined(separator: ", "))"
                )
            }
            let files = ModelCodegen(model: try model(), modelName: marker.modelName ?? marker.name).files()
            return files.map { $0.contents.trimmingCharacters(in: .newlines) }.joined(separator: "\n\n")
        }
    }

    /// A page that is not current, with the diff that would make it so.
    struct StalePage {
        let file: String
        let diff: String
    }

    /// Every page whose generated blocks differ from what the chapters produce now.
    func stalePages(progress: (String) -> Void = { _ in }) throws -> [StalePage] {
        try pages().compactMap { page in
            let text = try String(contentsOf: page, encoding: .utf8)
            let name = "book/" + page.lastPathComponent
            let current = try updated(text, file: name, progress: progress)
            guard current != text else { return nil }
            return StalePage(file: name, diff: UnifiedDiff.make(old: text, new: current, name: name))
        }
    }

    /// Rewrites every stale page; returns the names of the pages it changed.
    func update(progress: (String) -> Void = { _ in }) throws -> [String] {
        var changed: [String] = []
        for page in try pages() {
            let text = try String(contentsOf: page, encoding: .utf8)
            let name = "book/" + page.lastPathComponent
            let current = try updated(text, file: name, progress: progress)
            if current != text {
                try current.write(to: page, atomically: true, encoding: .utf8)
                changed.append(name)
            }
        }
        return changed
    }
}
