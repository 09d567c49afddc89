import CoreData
import TestSupport
import Testing
import WorkbookSupport

@testable import ExerciseCatalog

// The scaling checks explain the mistakes the chapter warns about; those that need PostgreSQL
// are skipped, saying why, without a server.
@Suite struct ScalingCheckTests {
    static func messages(_ verdict: Verdict) -> String {
        if case .failed(let messages) = verdict { return messages.joined(separator: "\n") }
        return "verdict \(verdict)"
    }

    /// Whether the private server runs; if not, having said why.
    static func hasServer(_ test: String = #function) throws -> Bool {
        try PostgresTestServer.url(schema: "unused", for: test) != nil
    }

    /// A container on `url` whose description is `describe(url)`, loaded.
    static func container(_ description: NSPersistentStoreDescription) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "ToDo", managedObjectModel: try ToDoModels.version2())
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    @Test func aDescriptionLeftSQLiteIsExplained() throws {
        guard try Self.hasServer() else { return }
        let message = Self.messages(ScalingChecks.openByURL { url in try Self.container(.init(url: url)) })
        #expect(message.contains("describes a SQLite store until you set its type"), "\(message)")
    }

    @Test func aContainerNeverLoadedIsExplained() throws {
        guard try Self.hasServer() else { return }
        let message = Self.messages(
            ScalingChecks.openByURL { _ in
                NSPersistentContainer(name: "ToDo", managedObjectModel: try ToDoModels.version2())
            })
        #expect(message.contains("The container has no store"), "\(message)")
    }

    @Test func aPostgresDescriptionIsSolved() throws {
        guard try Self.hasServer() else { return }
        let verdict = ScalingChecks.openByURL { url in
            let description = NSPersistentStoreDescription(url: url)
            description.type = .postgres
            return try Self.container(description)
        }
        #expect(verdict == .solved, "\(verdict)")
    }

    /// scaling-2's request with `predicate` and `sorts`.
    static func fetch(_ format: String, sorts: [NSSortDescriptor]) -> Verdict {
        ScalingChecks.sameOnBoth { date in
            let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
            request.predicate = NSPredicate(format: format, date as NSDate)
            request.sortDescriptors = sorts
            return request
        }
    }

    @Test func forgettingCompletedIsExplained() {
        let message = Self.messages(
            Self.fetch("dueDate < %@", sorts: [NSSortDescriptor(key: "dueDate", ascending: true)]))
        #expect(message.contains("\"Call the plumber\" is done"), "\(message)")
    }

    @Test func theWrongOrderIsExplained() {
        let message = Self.messages(
            Self.fetch("completed == NO AND dueDate < %@", sorts: [NSSortDescriptor(key: "title", ascending: true)]))
        #expect(message.contains("The right to-dos in the wrong order"), "\(message)")
    }

    @Test func theRightFetchIsSolvedOnBothStores() {
        let verdict = Self.fetch(
            "completed == NO AND dueDate < %@", sorts: [NSSortDescriptor(key: "dueDate", ascending: true)])
        #expect(verdict == .solved, "\(verdict)")
    }

    /// scaling-3's save with `policy`.
    static func saveTitle(with policy: NSMergePolicy) -> Verdict {
        ScalingChecks.acrossProcesses { title, id, editor in
            try editor.performAndWait {
                editor.mergePolicy = policy
                editor.object(with: id).setValue(title, forKey: "title")
                try editor.save()
            }
        }
    }

    @Test func aPlainSaveIsExplained() throws {
        guard try Self.hasServer() else { return }
        #expect(Self.messages(Self.saveTitle(with: .error)).contains("The save failed with 133020"))
    }

    @Test func overwritingIsExplained() throws {
        guard try Self.hasServer() else { return }
        let message = Self.messages(Self.saveTitle(with: .overwrite))
        #expect(message.contains("your save wrote back the value the editor had read"), "\(message)")
    }

    @Test func objectTrumpIsSolved() throws {
        guard try Self.hasServer() else { return }
        #expect(Self.saveTitle(with: .mergeByPropertyObjectTrump) == .solved)
    }

    // Without a server, the checks that need one are skipped with the reason, not failed.
    @Test func aCheckSkippedSaysWhy() {
        #expect(
            judge { throw CheckSkipped("skipped: PostgreSQL is not installed") }
                == .skipped("skipped: PostgreSQL is not installed"))
    }
}
