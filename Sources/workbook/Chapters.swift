import CompoundingChapter
import FetchingChapter
import MigrationPoliciesChapter
import PredicatesChapter
import VersioningChapter
import ObjectGraph
import WorkbookSupport

/// A chapter as the workbook tool knows it: its name, sections and models, and where its
/// sources are. (Built from the chapter type once, so later code needs no existential
/// metatypes, which crash Swift 6.3's SIL generation here.)
struct ChapterEntry: Sendable {
    let name: String
    let title: String
    let sections: [ChapterSection]
    let models: [String: @Sendable () throws -> ManagedObjectModel]
    /// The folder of the chapter's sources, relative to the package root.
    let directory: String

    init<C: Chapter>(_ chapter: C.Type, directory: String) {
        name = C.name
        title = C.title
        sections = C.sections
        models = C.models
        self.directory = directory
    }

    /// The `--list` text of the chapter.
    var sectionList: String {
        let width = sections.map(\.name.count).max() ?? 0
        return sections.map { $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.title }.joined(separator: "\n")
    }
}

/// Every chapter, in book order.
let allChapters: [ChapterEntry] = [
    ChapterEntry(FetchingChapter.self, directory: "Chapters/Fetching"),
    ChapterEntry(PredicatesChapter.self, directory: "Chapters/Predicates"),
    ChapterEntry(CompoundingChapter.self, directory: "Chapters/Compounding"),
    ChapterEntry(VersioningChapter.self, directory: "Chapters/Versioning"),
    ChapterEntry(MigrationPoliciesChapter.self, directory: "Chapters/MigrationPolicies"),
]

func chapterEntry(named name: String) -> ChapterEntry? {
    allChapters.first { $0.name == name }
}
