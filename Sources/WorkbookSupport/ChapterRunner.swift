import ObjectGraph

/// Runs a chapter's sections and prints them under headings.
public enum ChapterRunner {
    /// What went wrong choosing sections.
    public struct UnknownSection: Error, CustomStringConvertible {
        /// The name given.
        public let name: String
        /// The chapter's sections.
        public let available: [String]
        /// Says what to type instead.
        public var description: String {
            "There is no section named \"\(name)\". The sections are: \(available.joined(separator: ", ")) (see --list)."
        }
    }

    /// The output of one section, without its heading: what the book embeds.
    public static func output(of section: ChapterSection, showingSQL: Bool = false) throws -> String {
        var lines: [String] = []
        let workbench = Workbench(showsSQL: showingSQL) { lines.append($0) }
        if let echo = workbench.sqlEcho {
            // Every coordinator and migration the section makes, the workbench's or its own,
            // logs to this section's echo, and to nothing else running at the same time.
            try SQLLog.routing(to: echo.log) { try section.run(workbench) }
            echo.finish()
        } else {
            try section.run(workbench)
        }
        return lines.joined(separator: "\n")
    }

    /// The section with this name, or an error listing the names there are.
    public static func section(named name: String, in chapter: Chapter.Type) throws -> ChapterSection {
        guard let section = chapter.sections.first(where: { $0.name == name }) else {
            throw UnknownSection(name: name, available: chapter.sections.map(\.name))
        }
        return section
    }

    /// Runs the named sections (all when none are named), each under a heading, writing
    /// every line to `write`.
    public static func run(_ chapter: Chapter.Type, sections names: [String], showingSQL: Bool, write: (String) -> Void)
        throws
    {
        let sections = try names.isEmpty ? chapter.sections : names.map { try section(named: $0, in: chapter) }
        write(chapter.title)
        write(String(repeating: "=", count: chapter.title.count))
        for section in sections {
            write("")
            write("## \(section.title)  [\(section.name)]")
            write("")
            let text = try output(of: section, showingSQL: showingSQL)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) { write(String(line)) }
        }
    }

    /// The `--list` text: each section's name and title.
    public static func list(_ chapter: Chapter.Type) -> String {
        let width = chapter.sections.map(\.name.count).max() ?? 0
        return chapter.sections.map { $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.title }
            .joined(separator: "\n")
    }
}
