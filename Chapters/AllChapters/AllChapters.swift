import CompoundingChapter
import CoreData
import FetchingChapter
import MigrationPoliciesChapter
import PredicatesChapter
import VersioningChapter
import WorkbookSupport

/// Every chapter's type, in book order, with the folder of its sources relative to the package
/// root: the one list of chapters that the workbook tool and the tests read (Package.swift has
/// its own, since a manifest cannot import code). Computed, not stored: metatypes are not
/// Sendable, so a stored global would be shared mutable state to Swift 6.
public var chapterTypes: [(type: any Chapter.Type, directory: String)] {
    [
        (FetchingChapter.self, "Chapters/Fetching"),
        (PredicatesChapter.self, "Chapters/Predicates"),
        (CompoundingChapter.self, "Chapters/Compounding"),
        (VersioningChapter.self, "Chapters/Versioning"),
        (MigrationPoliciesChapter.self, "Chapters/MigrationPolicies"),
    ]
}

/// A chapter as the workbook tool knows it: its name, sections and models, and where its
/// sources are. (Built from the chapter type once, so later code needs no existential
/// metatypes, which crash Swift 6.3's SIL generation in the workbook tool.)
public struct ChapterEntry: Sendable {
    /// The chapter's name: its executable's, and its book page's.
    public let name: String
    /// The chapter's title.
    public let title: String
    /// The chapter's sections, in order.
    public let sections: [ChapterSection]
    /// The models the chapter introduces, by name, for the book's diagrams.
    public let models: [String: @Sendable () throws -> NSManagedObjectModel]
    /// The folder of the chapter's sources, relative to the package root.
    public let directory: String

    /// The entry of `chapter`, whose sources are in `directory`.
    public init(_ chapter: any Chapter.Type, directory: String) {
        name = chapter.name
        title = chapter.title
        sections = chapter.sections
        models = chapter.models
        self.directory = directory
    }

    /// The `--list` text of the chapter.
    public var sectionList: String {
        let width = sections.map(\.name.count).max() ?? 0
        return sections.map { $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.title }.joined(
            separator: "\n")
    }
}

/// Every chapter, in book order.
public let allChapters: [ChapterEntry] = chapterTypes.map { ChapterEntry($0.type, directory: $0.directory) }

/// The chapter named `name`, if there is one.
public func chapterEntry(named name: String) -> ChapterEntry? {
    allChapters.first { $0.name == name }
}
