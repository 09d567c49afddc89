import AllChapters
import CompoundingChapter
import FetchingChapter
import Foundation
import MigrationPoliciesChapter
import ObjectGraph
import PredicatesChapter
import TestSupport
import Testing
import VersioningChapter
import WorkbookSupport

// `--sql` shows the SQL of every chapter (issue 14): each chapter's SQLite sections print
// their statements, migrations included, the same bytes on every run, and sections with XML
// stores say they ran none.
@Suite struct SQLOutputTests {
    // Every chapter, from the one list (AllChapters). Computed, not stored: metatypes are not
    // Sendable, so a stored static would be shared mutable state to Swift 6.
    static var chapters: [any Chapter.Type] { chapterTypes.map(\.type) }

    /// For each chapter, the sections that use SQLite, as the chapter shows them.
    static var sqliteSections: [(chapter: any Chapter.Type, section: String)] {
        [
            (FetchingChapter.self, "listing-1"),
            (PredicatesChapter.self, "sql"),
            (CompoundingChapter.self, "compound-sql"),
            (VersioningChapter.self, "schema-diff"),
            (VersioningChapter.self, "fixture-stores"),
            (MigrationPoliciesChapter.self, "listing-12-sqlite"),
        ]
    }

    static func sqlOutput(_ chapter: any Chapter.Type, _ name: String) throws -> String {
        try ChapterRunner.output(of: ChapterRunner.section(named: name, in: chapter), showingSQL: true)
    }

    @Test(arguments: 0..<sqliteSections.count)
    func sqliteSectionShowsItsSQL(_ index: Int) throws {
        let (chapter, name) = Self.sqliteSections[index]
        let output = try Self.sqlOutput(chapter, name)
        #expect(output.contains("    CoreData: sql: SELECT "), "\(chapter.name)/\(name) printed no SELECT")
        #expect(!output.contains("no SQL ran"), "\(chapter.name)/\(name)")
        // No timings and no temporary paths: the book embeds these bytes.
        #expect(!output.contains("execution time"), "\(chapter.name)/\(name)")
        #expect(!output.contains(FileManager.default.temporaryDirectory.path), "\(chapter.name)/\(name)")
        #expect(!output.contains("workbook-"), "\(chapter.name)/\(name)")
        #expect(
            try Self.sqlOutput(chapter, name) == output, "\(chapter.name)/\(name) printed other bytes the second time")
    }

    /// A section's setup shows too: the save's INSERT once, with its row count, and the save.
    @Test func theSetupSaveShowsEachInsertOnceWithItsRowCount() throws {
        let output = try Self.sqlOutput(FetchingChapter.self, "sort-case")
        let lines = output.split(separator: "\n").map(String.init)
        let insert =
            "    CoreData: sql: INSERT INTO ZEMPLOYEE(Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZLASTNAME, ZSALARY) VALUES(?, ?, ?, ?, ?, ?)  -- run 5 times, once per row"
        let save = "    CoreData: annotation: save of 5 inserted, 0 updated, 0 deleted."
        #expect(lines.filter { $0.contains("INSERT INTO") } == [insert])
        let insertIndex = try #require(lines.firstIndex(of: insert))
        #expect(lines[insertIndex + 1] == save)
        // The setup's bound values stay out; the fetches' stay in.
        #expect(!output.contains("bind[3] = \"Mary\""))
        #expect(lines.firstIndex { $0.contains("SELECT") }.map { $0 > insertIndex } == true)
    }

    @Test(arguments: 0..<chapters.count)
    func everySectionShowsSQLOrSaysItRanNone(_ index: Int) throws {
        let chapter = Self.chapters[index]
        var sectionsWithSQL = 0
        for section in chapter.sections {
            let output = try ChapterRunner.output(of: section, showingSQL: true)
            let hasSQL = output.contains("    CoreData: sql: ")
            let saysNone = output.hasSuffix(
                "    (no SQL ran: this section uses no SQLite store, only XML or in-memory ones, if any)")
            #expect(hasSQL != saysNone, "\(chapter.name)/\(section.name): SQL \(hasSQL), note \(saysNone)")
            if hasSQL { sectionsWithSQL += 1 }
            // Without --sql the section prints none of it.
            let plain = try ChapterRunner.output(of: section)
            #expect(!plain.contains("CoreData: ") && !plain.contains("no SQL ran"), "\(chapter.name)/\(section.name)")
        }
        #expect(sectionsWithSQL > 0, "\(chapter.name) has no section that shows SQL")
    }

    // Zarra's automatic migration, on a SQLite store (the schema-diff and fixture-stores
    // sections; automatic-migration itself opens Zarra's XML store, which runs no SQL).
    @Test(arguments: ["schema-diff", "fixture-stores"])
    func automaticMigrationShowsItsStatements(_ name: String) throws {
        let lines = try Self.sqlOutput(VersioningChapter.self, name).split(separator: "\n").map(String.init)
        let begin = try #require(
            lines.firstIndex {
                $0.hasPrefix(
                    "    CoreData: annotation: migration ToDo -> ToDo 2 (lightweight) of ToDo.sqlite, in place begins.")
            })
        let end = try #require(
            lines.firstIndex {
                $0.hasPrefix(
                    "    CoreData: annotation: migration ToDo -> ToDo 2 (lightweight) of ToDo.sqlite, in place ends.")
            })
        let migration = lines[begin..<end]
        #expect(migration.contains("    CoreData: sql: ALTER TABLE ZTODO ADD COLUMN ZLASTALERTDATE TIMESTAMP"))
        #expect(migration.contains("    CoreData: sql: ALTER TABLE ZTODO ADD COLUMN ZDONOTALERT INTEGER DEFAULT 0"))
        #expect(
            migration.contains(
                "    CoreData: sql: INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)"))
        #expect(migration.contains("    CoreData: sql: UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1"))
    }

    @Test func automaticMigrationOnXMLSaysItRanNoSQL() throws {
        let output = try Self.sqlOutput(VersioningChapter.self, "automatic-migration")
        #expect(!output.contains("CoreData: sql:"))
        #expect(output.hasSuffix("(no SQL ran: this section uses no SQLite store, only XML or in-memory ones, if any)"))
    }

    @Test func migrationManagerShowsItsReadsAndWrites() throws {
        let lines = try Self.sqlOutput(MigrationPoliciesChapter.self, "listing-12-sqlite").split(separator: "\n").map(
            String.init)
        let begin = try #require(
            lines.firstIndex(of: "    CoreData: annotation: migration of ToDo.sqlite into ToDo 2.sqlite begins."))
        let end = try #require(
            lines.firstIndex(of: "    CoreData: annotation: migration of ToDo.sqlite into ToDo 2.sqlite ends."))
        let migration = lines[begin..<end]
        #expect(
            migration.contains {
                $0.hasPrefix(
                    "    CoreData: sql: SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.ZCOMPLETED, t0.ZCATEGORY, t0.ZDUEDATE, t0.ZTITLE FROM ZTODO t0 WHERE t0.Z_PK > ?"
                )
            })
        #expect(
            migration.filter { $0.hasPrefix("    CoreData: sql: INSERT INTO ZTODO(") }.count == SampleToDos.todos.count)
        #expect(migration.filter { $0.hasPrefix("    CoreData: sql: INSERT INTO ZCATEGORY(") }.count == 2)
        #expect(
            migration.filter { $0.hasPrefix("    CoreData: sql: UPDATE ZTODO SET ") }.count == SampleToDos.todos.count)
    }
}

// The library's side: SQLLog.routing(to:) scopes the process-wide log to one piece of work.
@Suite struct SQLLogRoutingTests {
    @Test func coordinatorsAndMigrationsMadeInsideTheRoutingLogToIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sql-routing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = LockedLines()
        let routed = SQLLog()
        routed.includesTimings = false
        routed.handler = { lines.append($0) }

        // Made outside: its lines do not reach the routed log.
        let outside = PersistentStoreCoordinator(managedObjectModel: try ToDoModels.version2())
        try outside.addPersistentStore(type: .sqlite, at: folder.appendingPathComponent("Outside.sqlite"))
        _ = try ManagedObjectContext(coordinator: outside).fetch(FetchRequest(entityName: "ToDo"))
        #expect(lines.all.isEmpty)

        // Made inside: its fetches, and the lightweight migration adding the store runs, reach it.
        let v1 = try ToDoModels.version1()
        let versions = try ToDoModels.versionedModel()
        let url = folder.appendingPathComponent("ToDo.sqlite")
        let first = PersistentStoreCoordinator(managedObjectModel: v1)
        try first.addPersistentStore(type: .sqlite, at: url)
        try first.remove(first.persistentStores[0])
        try SQLLog.routing(to: routed) {
            let coordinator = PersistentStoreCoordinator(versionedModel: versions)
            try coordinator.addPersistentStore(
                type: .sqlite, at: url,
                options: [
                    StoreOption.migratePersistentStoresAutomatically: true,
                    StoreOption.inferMappingModelAutomatically: true,
                ])
            _ = try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "ToDo"))
        }
        #expect(lines.all.contains("CoreData: sql: ALTER TABLE ZTODO ADD COLUMN ZDONOTALERT INTEGER DEFAULT 0"))
        #expect(lines.all.contains { $0.hasPrefix("CoreData: sql: SELECT ") && $0.contains("FROM ZTODO") })
        #expect(!lines.all.contains { $0.contains("execution time") })
    }
}
