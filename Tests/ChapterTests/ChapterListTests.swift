import AllChapters
import Foundation
import Testing

// A chapter is named in two lists, Package.swift's (a manifest cannot import code) and
// AllChapters' chapterTypes; a chapter added to one and not the other fails here, naming it.
@Suite struct ChapterListTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Package.swift's chapters, as (folder, executable) in its order.
    static func manifestChapters() throws -> [(folder: String, executable: String)] {
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        return manifest.components(separatedBy: "\n").compactMap { line -> (String, String)? in
            guard line.contains("BookChapter(folder: ") else { return nil }
            let quoted = line.components(separatedBy: "\"")
            return quoted.count >= 4 ? (quoted[1], quoted[3]) : nil
        }
    }

    @Test func packageAndAllChaptersListTheSameChaptersInTheSameOrder() throws {
        let manifest = try Self.manifestChapters()
        #expect(manifest.count == 10, "Package.swift's chapters: \(manifest)")
        #expect(manifest.map { "Chapters/" + $0.folder } == chapterTypes.map(\.directory))
        #expect(manifest.map(\.executable) == chapterTypes.map { $0.type.name })
        #expect(allChapters.map(\.name) == chapterTypes.map { $0.type.name })
    }

    @Test func everyChapterFolderIsListed() throws {
        let folders = try FileManager.default.contentsOfDirectory(
            atPath: Self.packageRoot.appendingPathComponent("Chapters").path
        )
        .filter {
            FileManager.default.fileExists(
                atPath: Self.packageRoot.appendingPathComponent("Chapters/\($0)/Chapter").path)
        }
        #expect(Set(folders.map { "Chapters/" + $0 }) == Set(chapterTypes.map(\.directory)))
    }
}
