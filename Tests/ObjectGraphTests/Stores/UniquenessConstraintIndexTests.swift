import Foundation
import GRDB
import ObjectGraph
import Testing

// Uniqueness constraints are Core Data's UNIQUE indexes (`Z_Car_UNIQUE_numberPlate`): a save
// that breaks one fails with 133021, as Core Data's default merge policy fails it, and writes
// nothing.
@Suite struct UniquenessConstraintIndexTests {
    @Test func aDuplicateIsRefusedWith133021AndNothingIsSaved() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Car", uniquenessConstraints: [["numberPlate"]]) {
                AttributeDescription("numberPlate", .string)
                AttributeDescription("maker", .string)
            }
        }
        let directory = try TemporaryDirectory()
        let url = directory.file("Cars.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insertNewObject(forEntityName: "Car").checkedSetValue("AB-1", forKey: "numberPlate")
        try context.save()
        let other = try context.insertNewObject(forEntityName: "Car")
        try other.checkedSetValue("AB-1", forKey: "numberPlate")
        try other.checkedSetValue("Fiat", forKey: "maker")
        let error = #expect(throws: CoreDataError.self) { try context.save() }
        #expect(error?.code == .constraintMerge)
        // The context finds the conflict before the UNIQUE index does (ConstraintTests).
        #expect(
            error?.message.contains("Car (numberPlate) with numberPlate = \"AB-1\"") == true, "\(error?.message ?? "")")
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZCAR") } == 1)
        #expect(
            try queue.read { db in
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'Z_Car_UNIQUE_numberPlate'")
            }
                == "CREATE UNIQUE INDEX Z_Car_UNIQUE_numberPlate ON ZCAR (ZNUMBERPLATE COLLATE BINARY ASC)")
    }
}
