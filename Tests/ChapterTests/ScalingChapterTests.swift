import CoreData
import TestSupport
import Testing
import WorkbookSupport

@testable import ScalingChapter

// What the scaling chapter states, asserted through its sections' output on the private
// PostgreSQL server (PostgresTestServer, the same definition the chapter uses). Without a server
// each test says why it did not run, and passes (on CI a missing server fails).
@Suite struct ScalingChapterTests {
    /// The section's output; nil, having said why, when there is no server.
    static func output(_ name: String, test: String = #function) throws -> String? {
        guard try PostgresTestServer.url(schema: "unused", for: test) != nil else { return nil }
        return try ChapterRunner.output(of: try ChapterRunner.section(named: name, in: ScalingChapter.self))
    }

    static var executableIsBuilt: Bool { ChapterProcess.executable(named: "scaling") != nil }

    // NSPersistentStoreDescription(url:) and the store's type: the store opens by its URL, and
    // its schema holds Core Data's tables, as a SQLite store's file does.
    @Test func theStoreOpensByURLWithCoreDatasTables() throws {
        guard let text = try Self.output("open-by-url") else { return }
        #expect(text.contains("Opened postgres://postgres@127.0.0.1:PORT/postgres?schema=todo"), "\(text)")
        #expect(text.contains("type: PostgreSQL"), "\(text)")
        #expect(text.contains("Saved 5 to-dos in 3 categories."), "\(text)")
        for table in [
            "ZTODO | Z_PK bigint, Z_ENT bigint, Z_OPT bigint", "ZCATEGORY | Z_PK", "Z_METADATA", "Z_PRIMARYKEY",
        ] {
            #expect(text.contains(table), "\(table) in \(text)")
        }
        #expect(!text.contains("scaling_") && !text.contains("todo_"), "no real schema name: \(text)")
    }

    // The same requests give the same answers on both stores.
    @Test func theSameFetchesAnswerAlikeOnBothStores() throws {
        guard let text = try Self.output("same-fetches") else { return }
        #expect(text.components(separatedBy: "the same on both: yes").count == 4, "\(text)")
        #expect(!text.contains("the same on both: NO"))
        #expect(text.contains("  Buy milk; Review pull request"), "\(text)")
    }

    // With --sql, SQLite's SQL binds with ? and PostgreSQL's with $1.
    @Test func theSQLShowsEachStoresPlaceholders() throws {
        guard try PostgresTestServer.url(schema: "unused") != nil else { return }
        let section = try ChapterRunner.section(named: "same-fetches", in: ScalingChapter.self)
        let text = try ChapterRunner.output(of: section, showingSQL: true)
        #expect(text.contains("$1"), "\(text)")
        #expect(text.contains("?"), "\(text)")
        // Byte for byte the same on the next run: no schema name, port or timing of this run.
        #expect(!text.contains("same_"), "\(text)")
        #expect(try ChapterRunner.output(of: section, showingSQL: true) == text)
    }

    // Several processes save into one store at once; none loses a save, every to-do gets its
    // own primary key, and each process sees the others' to-dos by fetching again.
    @Test(.enabled(if: executableIsBuilt, "the scaling executable is built by `swift build`"))
    func threeProcessesWriteOneStore() throws {
        guard let text = try Self.output("several-processes") else { return }
        #expect(text.contains("This process fetches 12 to-dos with 12 different primary keys."), "\(text)")
        for writer in ["alpha", "beta", "gamma"] {
            #expect(text.contains("  \(writer): saved 4 to-dos"), "\(text)")
            #expect(text.contains("a new fetch saw 12 to-dos, 4 of them mine"), "\(text)")
            #expect(text.contains("  \(writer): \(writer) 1, \(writer) 2, \(writer) 3, \(writer) 4"), "\(text)")
        }
    }

    // NSMergeConflict between processes: the other process's save makes this one's 133020,
    // and NSMergeByPropertyObjectTrumpMergePolicy keeps both changes.
    @Test(.enabled(if: executableIsBuilt, "the scaling executable is built by `swift build`"))
    func aConflictBetweenProcessesIs133020ThenResolved() throws {
        guard let text = try Self.output("conflict-across-processes") else { return }
        #expect(text.contains("  marked \"Buy milk\" done and saved"), "\(text)")
        #expect(text.contains("save() failed: NSCocoaErrorDomain 133020"), "\(text)")
        #expect(text.contains("  versions: read 1, stored 2"), "\(text)")
        #expect(text.hasSuffix("The store holds \"Buy oat milk\", due 2009-06-02 09:00 UTC, done"), "\(text)")
    }

    // Persistent history: the transaction another process saved, with its author.
    @Test(.enabled(if: executableIsBuilt, "the scaling executable is built by `swift build`"))
    func historyShowsAnotherProcesssSave() throws {
        guard let text = try Self.output("history-across-processes") else { return }
        #expect(text.contains("transaction by phone: insert /ToDo/p6"), "\(text)")
        #expect(text.contains("The context now has \"Call Marcus\", due 2009-06-02 09:00 UTC, open"), "\(text)")
        #expect(text.hasSuffix("and counts 6 to-dos."), "\(text)")
    }

    // Without a server every section says, in one line, why it skipped.
    @Test(.enabled(if: executableIsBuilt, "the scaling executable is built by `swift build`"))
    func withoutAServerEverySectionSaysWhyItSkipped() throws {
        let executable = try #require(ChapterProcess.executable(named: "scaling"))
        let child = try ChapterProcess.run(executable, arguments: [], environment: ["OBJECTGRAPH_NO_POSTGRES": "1"])
        #expect(child.status == 0, "\(child.errors)")
        let skips = child.outputLines.filter { $0.hasPrefix("skipped: ") }
        #expect(skips.count == ScalingChapter.sections.count, "\(child.output)")
        #expect(skips.allSatisfy { $0 == "skipped: OBJECTGRAPH_NO_POSTGRES is set, so no PostgreSQL server starts" })
        let headings = child.outputLines.filter { $0.hasPrefix("## ") }
        #expect(headings.count == ScalingChapter.sections.count)
        // The title and its underline, then each section's heading and its one skip line.
        #expect(child.outputLines.count == 2 + 2 * ScalingChapter.sections.count, "\(child.output)")
    }
}
