import Foundation
import GRDB
import Testing

@testable import ObjectGraph

/// Values another program wrote into a store, of a storage class the attribute's type does
/// not take: converted where Core Data converts them, otherwise a fetch fails with an error
/// naming the entity, the key and the row. Never a crash, never a silent nil, never a
/// skipped row.
@Suite struct StoredValueTests {
    /// A store with one saved Holder (Z_PK 1), then `sql` run on it straight through GRDB,
    /// then a fetch of every Holder through a new coordinator.
    func fetchAfter(_ sql: String) throws -> Result<[ManagedObject], Error> {
        let directory = try TemporaryDirectory()
        let model = try ValueCorpus.model()
        let url = directory.file("written.sqlite")
        do {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(type: .sqlite, at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            let object = try context.insertNewObject(forEntityName: "Holder")
            try object.checkedSetValue(1, forKey: "ordinal")
            try object.checkedSetValue(7, forKey: "medium")
            try context.save()
        }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let result = Result { try context.fetch(FetchRequest(entityName: "Holder")) }
        // Faults are loaded by reading a value: a fetch hands back loaded rows already.
        if case .success(let objects) = result { for o in objects { _ = try? o.checkedValue(forKey: "medium") } }
        return result
    }

    func column(_ key: String) throws -> String {
        RelationalSchema(model: try ValueCorpus.model()).entities["Holder"]!.attributeColumns[key]!
    }

    @Test(arguments: [
        ("medium", "1e300", "REAL 1e+300"), ("medium", "9e999", "REAL inf"), ("medium", "3.5", "REAL 3.5"),
        ("medium", "'abc'", "TEXT \"abc\""), ("medium", "x'00ff'", "BLOB of 2 bytes"),
        ("small", "70000", "INTEGER 70000"), ("big", "-1e300", "REAL -1e+300"),
        ("when", "x'0102'", "BLOB of 2 bytes"), ("when", "'noon'", "TEXT \"noon\""),
        ("amount", "1e300", "REAL 1e+300"), ("amount", "'12abc'", "TEXT \"12abc\""),
        ("identifier", "x'01'", "BLOB of 1 bytes"), ("identifier", "'not a uuid'", "TEXT \"not a uuid\""),
        ("flag", "0.5", "REAL 0.5"), ("real", "'x'", "TEXT \"x\""), ("link", "x'00'", "BLOB of 1 bytes"),
    ])
    func aValueOfTheWrongTypeIsAnErrorNamingEntityKeyAndRow(key: String, literal: String, found: String) throws {
        let result = try fetchAfter("UPDATE ZHOLDER SET \(try column(key)) = \(literal) WHERE Z_PK = 1")
        guard case .failure(let failure) = result else {
            Issue.record("\(key) = \(literal) was fetched without an error")
            return
        }
        let error = try #require(failure as? CoreDataError, "\(failure)")
        #expect(error.code == .sqlite)
        #expect(error.key == key)
        #expect(error.objectURI?.hasSuffix("/Holder/p1") == true, "\(error)")
        #expect(error.message.contains("Holder.\(key)"), "\(error.message)")
        #expect(error.message.contains("Z_PK = 1"), "\(error.message)")
        #expect(error.message.contains(found), "\(error.message)")
    }

    /// What Core Data converts: a REAL that is a whole number in an integer column (SQLite
    /// keeps 3.0 there as the INTEGER 3 already), an INTEGER in a Double or Decimal column,
    /// digits in a Decimal column, the text of a UUID.
    @Test func convertibleValuesAreConverted() throws {
        let cases: [(String, String, Any)] = [
            ("medium", "3.0", 3), ("big", "CAST(4.0 AS REAL)", 4), ("real", "5", 5.0),
            ("amount", "'19.99'", Decimal(string: "19.99")!),
            ("amount", "42", Decimal(42)),
            (
                "identifier", "'F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6'",
                UUID(uuidString: "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")!
            ),
            ("when", "10", Date(timeIntervalSinceReferenceDate: 10)), ("flag", "2", true),
        ]
        for (key, literal, expected) in cases {
            let objects = try fetchAfter("UPDATE ZHOLDER SET \(try column(key)) = \(literal) WHERE Z_PK = 1").get()
            let got = try objects.first?.checkedValue(forKey: key)
            #expect(ValueCorpus.same(got, expected), "\(key) = \(literal) came back as \(ValueCorpus.describe(got))")
        }
    }

    /// A row whose Z_ENT no entity has is an error naming the table and the row, not a row
    /// left out of the results.
    @Test func aRowOfAnUnknownEntityIsAnErrorNamingTableAndRow() throws {
        let result = try fetchAfter("UPDATE ZHOLDER SET Z_ENT = 99 WHERE Z_PK = 1")
        guard case .failure(let failure) = result else {
            Issue.record("a row of entity 99 was fetched without an error: \(result)")
            return
        }
        let error = try #require(failure as? CoreDataError, "\(failure)")
        #expect(error.code == .sqlite)
        #expect(error.message.contains("ZHOLDER"), "\(error.message)")
        #expect(error.message.contains("Z_PK = 1"), "\(error.message)")
        #expect(error.message.contains("Z_ENT = 99"), "\(error.message)")
    }

    /// A NUL inside a string written by another program is part of the string.
    @Test func textWithANulWrittenElsewhereIsReadWhole() throws {
        let objects = try fetchAfter(
            "UPDATE ZHOLDER SET \(try column("text")) = CAST(x'61006200' AS TEXT) WHERE Z_PK = 1"
        ).get()
        #expect(try objects.first?.checkedValue(forKey: "text") as? String == "a\0b\0")
    }
}
