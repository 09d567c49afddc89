import Foundation
import ObjectGraph
import TestSupport
import Testing

/// What a batch request runs on the SQLite store: SQL statements that never read objects' rows
/// (NSBatchUpdateRequest, NSBatchDeleteRequest: "without loading any data into memory").
@Suite("Batch requests as SQL")
struct BatchRequestSQLTests {
    @Test("a batch update is one UPDATE ... WHERE that raises Z_OPT (NSBatchUpdateRequest)")
    func updateIsOneStatement() throws {
        let fixture = try StackFixture(.sqlite, model: try batchModel())
        _ = try fixture.context.execute(
            BatchInsertRequest(entityName: "Item", objects: (1...3).map { ["code": "i\($0)", "count": $0] }))
        let request = BatchUpdateRequest(entityName: "Item")
        request.predicate = try Predicate(checkedFormat: "count > %@", 1)
        request.propertiesToUpdate = ["done": true]
        let sql = try fixture.sql { _ = try fixture.context.execute(request) }
        #expect(sql.count == 1)
        #expect(
            sql.first?.contains("UPDATE ZITEM AS t0 SET Z_OPT = Z_OPT + 1, ZDONE = ? WHERE (t0.ZCOUNT > ?") == true,
            "\(sql)")
    }

    @Test(
        "a batch delete without relationships is one DELETE; with them, keys are read and rows deleted by key (NSBatchDeleteRequest)"
    )
    func deleteStatements() throws {
        let fixture = try StackFixture(.sqlite, model: try batchModel())
        _ = try fixture.context.execute(
            BatchInsertRequest(entityName: "Item", objects: [["code": "a"], ["code": "b"]]))
        let sql = try fixture.sql {
            _ = try fixture.context.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Item")))
        }
        #expect(sql.count == 1)
        #expect(sql.first?.contains("DELETE FROM ZITEM AS t0") == true, "\(sql)")

        let books = try StackFixture(.sqlite)
        try books.seedBooks(["A", "B"])
        let cascade = try books.sql {
            _ = try books.context.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Publisher")))
        }
        #expect(
            !cascade.contains { $0.contains("SELECT") && $0.contains("ZTITLE") }, "no row's values are read: \(cascade)"
        )
        #expect(cascade.contains { $0.contains("DELETE FROM ZBOOK WHERE Z_PK IN") })
        #expect(cascade.contains { $0.contains("DELETE FROM ZPUBLISHER WHERE Z_PK IN") })
    }

    @Test("a batch insert advances Z_PRIMARYKEY's Z_MAX in its transaction (NSBatchInsertRequest)")
    func insertAdvancesZMax() throws {
        let fixture = try StackFixture(.sqlite, model: try batchModel())
        let sql = try fixture.sql {
            _ = try fixture.context.execute(
                BatchInsertRequest(entityName: "Item", objects: [["code": "a"], ["code": "b"]]))
        }
        #expect(sql.contains { $0.contains("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?") })
        #expect(sql.filter { $0.contains("INSERT INTO ZITEM") }.count == 2)
    }

    @Test(
        "each batch request's statements end with an annotation naming it, as a save's do (SQLDebug)",
        arguments: [StoreType.sqlite, .postgres])
    func eachRequestEndsWithAnAnnotation(_ type: StoreType) throws {
        guard let fixture = try StackFixture.ifAvailable(type, model: try batchModel()) else { return }
        let lines = LockedLines()
        fixture.coordinator.sqlLog.includesTimings = false
        fixture.coordinator.sqlLog.handler = { lines.append($0) }
        defer { fixture.coordinator.sqlLog.handler = nil }
        _ = try fixture.context.execute(
            BatchInsertRequest(entityName: "Item", objects: [["code": "a"], ["code": "b"]]))
        let update = BatchUpdateRequest(entityName: "Item")
        update.propertiesToUpdate = ["done": true]
        _ = try fixture.context.execute(update)
        _ = try fixture.context.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Item")))
        let all = lines.all
        let annotations = all.filter { $0.hasPrefix("CoreData: annotation: batch") }
        #expect(
            annotations == [
                "CoreData: annotation: batch insert of Item objects.",
                "CoreData: annotation: batch update of Item objects.",
                "CoreData: annotation: batch delete of Item objects.",
            ], "\(all)")
        // Each one follows its request's last statement: nothing of the request comes after it.
        #expect(all.last == "CoreData: annotation: batch delete of Item objects.", "\(all)")
        let insert = try #require(all.firstIndex(of: annotations[0]))
        #expect(all[..<insert].contains { $0.contains("INSERT INTO ZITEM") })
        #expect(!all[insert...].contains { $0.contains("INSERT INTO ZITEM") })
    }
}
