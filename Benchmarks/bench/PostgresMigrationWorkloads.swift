import Foundation
import ObjectGraph
import ObjectGraphPostgres
import ZarraToDo

/// `--store postgres` migrations: Zarra's custom policy migrating a store of to-dos into a new
/// schema with a ``MigrationManager``, against one raw `INSERT ... SELECT` per table between the
/// two schemas, on the same server in the same run (100,000 to-dos unless `--rows`).
///
/// - migrate-custom: the policy says it leaves createRelationships to the base class, so each
///   to-do is inserted with its category and written once.
/// - migrate-custom-two-pass: the policy as written; the second pass updates each to-do.
let postgresMigrationWorkloads: [Workload] = [
    Workload(
        name: "migrate-custom",
        summary: "to-dos through Zarra's custom policy into a new schema vs raw INSERT ... SELECT (PostgreSQL)",
        run: { try runPostgresCustomMigration($0, twoPass: false) }),
    Workload(
        name: "migrate-custom-two-pass",
        summary: "migrate-custom with Zarra's policy as written: a second pass updates each to-do (PostgreSQL)",
        run: { try runPostgresCustomMigration($0, twoPass: true) }),
]

/// Zarra's policy, saying that its relationship creation is the base class's.
private final class SinglePassPostgresPolicy: DoNotAlertForAPolicy {
    override class var overridesCreateRelationships: Bool { false }
}

private let postgresBenchTitles = [
    "Answer mail", "buy milk", "Call Alice", "apply patch", "Write article", "archive photos", "Back up disk",
]

/// A version 1 store of 10 categories and `count` to-dos in the schema `url` names, written by
/// ObjectGraph (untimed).
private func makePostgresToDoStore(at url: URL, count: Int) throws {
    let coordinator = PersistentStoreCoordinator(managedObjectModel: try ToDoModels.model(version: 1))
    let store = try coordinator.addPersistentStore(with: .postgres(url: url))
    defer { try? coordinator.remove(store) }
    let context = ManagedObjectContext(coordinator: coordinator)
    var categories: [ManagedObject] = []
    for i in 1...10 {
        let category = try context.insertNewObject(forEntityName: "Category")
        try category.checkedSetValue("Category \(i)", forKey: "name")
        categories.append(category)
    }
    try context.save()
    for i in 1...count {
        let todo = try context.insertNewObject(forEntityName: "ToDo")
        try todo.checkedSetValue("\(postgresBenchTitles[i % postgresBenchTitles.count]) \(i)", forKey: "title")
        try todo.checkedSetValue(Date(timeIntervalSinceReferenceDate: Double(i) * 60), forKey: "dueDate")
        try todo.checkedSetValue(i % 3 == 0, forKey: "completed")
        try todo.checkedSetValue(categories[i % 10], forKey: "category")
        if i % 10_000 == 0 { try context.save() }
    }
    try context.save()
}

/// The migrated store in `url` has every to-do, the flags and the categories.
private func checkPostgresMigrated(_ url: URL, rows: Int) throws {
    let db = try RawPostgres(url: url)
    func scalar(_ sql: String) throws -> Int {
        Int(try db.query(sql).rows.first?.decode(Int64.self) ?? -1)
    }
    let count = try scalar("SELECT COUNT(*) FROM ZTODO")
    let flagged = try scalar("SELECT COUNT(*) FROM ZTODO WHERE ZDONOTALERT = 1")
    let expected = (1...rows).filter { postgresBenchTitles[$0 % postgresBenchTitles.count].lowercased().hasPrefix("a") }
        .count
    let categorized = try scalar("SELECT COUNT(*) FROM ZTODO t JOIN ZCATEGORY c ON c.Z_PK = t.ZCATEGORY")
    guard count == rows, flagged == expected, categorized == rows else {
        throw BenchError(
            "migrated PostgreSQL store has \(count) rows (\(rows) expected), \(flagged) flagged (\(expected)), \(categorized) with a category"
        )
    }
}

private func runPostgresCustomMigration(_ settings: BenchSettings, twoPass: Bool) throws -> WorkloadResult {
    let rows = rowCount(settings)
    let source = try BenchPostgres.newStoreURL(settings, prefix: "migrate_v1")
    defer { try? BenchPostgres.dropStore(at: source) }
    try makePostgresToDoStore(at: source, count: rows)
    let v1 = try ToDoModels.version1()
    let v2 = try ToDoModels.version2()
    let sourceSchema = PostgresNames.quoted(PostgresNames.schemaName(of: source))
    let timings = try interleavedMedians(
        settings,
        [
            (
                "ours",
                {
                    let destination = try BenchPostgres.newStoreURL(settings, prefix: "migrate_v2")
                    defer { try? BenchPostgres.dropStore(at: destination) }
                    let mapping = try ToDoModels.doNotAlertMappingModel(
                        policy: twoPass ? DoNotAlertForAPolicy.self : SinglePassPostgresPolicy.self)
                    let manager = MigrationManager(sourceModel: v1, destinationModel: v2)
                    let t = try timed {
                        try manager.migrateStore(
                            from: source, type: .postgres, with: mapping, to: destination, type: .postgres)
                    }
                    try checkPostgresMigrated(destination, rows: rows)
                    return t.seconds
                }
            ),
            (
                "raw",
                {
                    // The destination's tables, made empty by ObjectGraph, for the raw SQL to fill.
                    let destination = try BenchPostgres.newStoreURL(settings, prefix: "migrate_raw")
                    defer { try? BenchPostgres.dropStore(at: destination) }
                    let coordinator = PersistentStoreCoordinator(managedObjectModel: v2)
                    try coordinator.remove(try coordinator.addPersistentStore(with: .postgres(url: destination)))
                    let db = try RawPostgres(url: destination)
                    let t = try timed {
                        try db.execute("BEGIN")
                        try db.execute(
                            "INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZNAME) SELECT Z_PK, Z_ENT, 1, ZNAME FROM \(sourceSchema).ZCATEGORY"
                        )
                        try db.execute(
                            """
                            INSERT INTO ZTODO (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZDUEDATE, ZCOMPLETED, ZLASTALERTDATE, ZDONOTALERT, ZCATEGORY)
                            SELECT Z_PK, Z_ENT, 1, ZTITLE, ZDUEDATE, ZCOMPLETED, NULL, (lower(substr(ZTITLE, 1, 1)) = 'a')::int, ZCATEGORY
                            FROM \(sourceSchema).ZTODO
                            """)
                        try db.execute(
                            "UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT MAX(Z_PK) FROM ZTODO) WHERE Z_NAME = 'ToDo'")
                        try db.execute(
                            "UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT MAX(Z_PK) FROM ZCATEGORY) WHERE Z_NAME = 'Category'"
                        )
                        try db.execute("COMMIT")
                    }
                    try checkPostgresMigrated(destination, rows: rows)
                    return t.seconds
                }
            ),
        ])
    return WorkloadResult(
        ours: timings[0], baselines: [("raw", timings[1])], unit: "s per migration of \(rows) to-dos",
        details: [("store", jsonString("postgres")), ("rows", String(rows)), ("two_pass", twoPass ? "true" : "false")])
}
