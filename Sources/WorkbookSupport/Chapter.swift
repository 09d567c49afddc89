import ObjectGraph

/// A chapter of the workbook: named sections that mirror the sections of the article it
/// follows, run in order by the chapter's executable.
public protocol Chapter {
    /// The executable's name, also the book file's name: `fetching`.
    static var name: String { get }
    /// The chapter's title.
    static var title: String { get }
    /// The sections, in the article's order.
    static var sections: [ChapterSection] { get }
    /// The models the chapter introduces, by name, for the book's diagrams.
    static var models: [String: @Sendable () throws -> ManagedObjectModel] { get }
    /// Other diagrams the chapter draws from its code, by name, as Mermaid `erDiagram` source
    /// (a stack of contexts, say); the book's `<!-- diagram chapter/name -->` finds these first.
    static var diagrams: [String: @Sendable () throws -> String] { get }
    /// Says why the chapter cannot run on this machine (chapter 10 needs a PostgreSQL server),
    /// or nil when it can. A closure, asked only when the chapter is about to run: asking may
    /// start a server. The book then keeps the chapter's embedded output as it is.
    static var availability: @Sendable () -> String? { get }
}

extension Chapter {
    /// No diagrams but the models'.
    public static var diagrams: [String: @Sendable () throws -> String] { [:] }
    /// Runs anywhere.
    public static var availability: @Sendable () -> String? { { nil } }
}

/// One section of a chapter: a name for `--section`, a title for its heading, and the code
/// that prints its output.
public struct ChapterSection: Sendable {
    /// The name `--section` takes and the book's markers use: `all-employees`.
    public let name: String
    /// The heading printed above the output.
    public let title: String
    /// The section's code.
    public let run: @Sendable (Workbench) throws -> Void

    /// Declares a section.
    public init(_ name: String, _ title: String, run: @escaping @Sendable (Workbench) throws -> Void) {
        self.name = name
        self.title = title
        self.run = run
    }
}
