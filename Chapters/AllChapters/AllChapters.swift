import BatchChapter
import ChangesChapter
import CompoundingChapter
import ConflictsChapter
import ContextsChapter
import CoreData
import FetchingChapter
import MigrationPoliciesChapter
import PredicatesChapter
import ScalingChapter
import VersioningChapter
import WorkbookSupport

/// A part of the book: the chapters that follow the classic articles, and those that build an
/// application. The book's contents, the rendered sidebar, the phone menu and the printed pages
/// show each chapter under its part, read from ``chapterTypes``.
public enum BookPart: Int, CaseIterable, Sendable, Comparable {
    /// Part I: fetching, predicates and versioning, after LaMarche's, Apple's and Zarra's articles.
    case classicArticles = 1
    /// Part II: contexts, changes, conflicts, batch work and history, scaling out.
    case application = 2

    /// The part's numeral: `I`, `II`.
    public var numeral: String {
        switch self {
        case .classicArticles: return "I"
        case .application: return "II"
        }
    }

    /// The part's title, without its number.
    public var title: String {
        switch self {
        case .classicArticles: return "Three classic articles"
        case .application: return "Core Data in an application"
        }
    }

    /// `Part II: Core Data in an application`.
    public var heading: String { "Part \(numeral): \(title)" }

    /// Parts in book order.
    public static func < (a: BookPart, b: BookPart) -> Bool { a.rawValue < b.rawValue }
}

/// Every chapter's type, in book order, with the folder of its sources relative to the package
/// root and the part of the book it belongs to: the one list of chapters that the workbook tool
/// and the tests read (Package.swift has its own, since a manifest cannot import code). A new
/// chapter is one line here. Computed, not stored: metatypes are not Sendable, so a stored
/// global would be shared mutable state to Swift 6.
public var chapterTypes: [(type: any Chapter.Type, directory: String, part: BookPart)] {
    [
        (FetchingChapter.self, "Chapters/Fetching", .classicArticles),
        (PredicatesChapter.self, "Chapters/Predicates", .classicArticles),
        (CompoundingChapter.self, "Chapters/Compounding", .classicArticles),
        (VersioningChapter.self, "Chapters/Versioning", .classicArticles),
        (MigrationPoliciesChapter.self, "Chapters/MigrationPolicies", .classicArticles),
        (ContextsChapter.self, "Chapters/Contexts", .application),
        (ChangesChapter.self, "Chapters/Changes", .application),
        (ConflictsChapter.self, "Chapters/Conflicts", .application),
        (BatchChapter.self, "Chapters/Batch", .application),
        (ScalingChapter.self, "Chapters/Scaling", .application),
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
    /// The chapter's other diagrams (a stack of contexts), by name, as Mermaid source.
    public let diagrams: [String: @Sendable () throws -> String]
    /// The folder of the chapter's sources, relative to the package root.
    public let directory: String
    /// The part of the book the chapter belongs to.
    public let part: BookPart
    /// Why the chapter cannot run here, or nil (``Chapter/availability``).
    public let availability: @Sendable () -> String?

    /// The entry of `chapter`, whose sources are in `directory`, in `part` of the book.
    public init(_ chapter: any Chapter.Type, directory: String, part: BookPart = .classicArticles) {
        name = chapter.name
        title = chapter.title
        sections = chapter.sections
        models = chapter.models
        diagrams = chapter.diagrams
        self.directory = directory
        self.part = part
        availability = chapter.availability
    }

    /// The `--list` text of the chapter.
    public var sectionList: String {
        let width = sections.map(\.name.count).max() ?? 0
        return sections.map { $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.title }.joined(
            separator: "\n")
    }
}

/// Every chapter, in book order.
public let allChapters: [ChapterEntry] = chapterTypes.map {
    ChapterEntry($0.type, directory: $0.directory, part: $0.part)
}

/// The chapter named `name`, if there is one.
public func chapterEntry(named name: String) -> ChapterEntry? {
    allChapters.first { $0.name == name }
}
