import CoreData
import WorkbookSupport

/// A uniqueness constraint at work: a new book whose code is already stored fails the save with
/// the default merge policy (133021, its NSConstraintConflict shown), and becomes an update of
/// the stored book with a merging policy.
enum Uniqueness {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let container = try Shelf.makeContainer(in: bench.makeDataFolder())
        try Shelf.insertBooks(into: container)
        print("The store holds \(try Shelf.count(in: container)) books; ZAR-2009 is \(try stored(in: container))")
        let importer = container.newBackgroundContext()
        // ANCHOR: duplicate
        try importer.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: importer)
            book.setValue("ZAR-2009", forKey: "code") // the code of a stored book
            book.setValue("Core Data, 2nd edition", forKey: "title")
            book.setValue(2, forKey: "copies")
            do {
                try importer.save() // with NSErrorMergePolicy, every context's default
            } catch let error where (error as NSError).code == NSManagedObjectConstraintMergeError {
                let error = error as NSError
                print("save() failed: \(error.domain) \(error.code)")
                let conflicts = error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict]
                for conflict in conflicts ?? [] {
                    let values = Shelf.describe(snapshot: conflict.constraintValues)
                    print("  constraint: \(conflict.constraint), constraintValues: \(values)")
                    print("  databaseObject: \(conflict.databaseObject.map(Shelf.describe) ?? "nil")")
                    print("  databaseSnapshot: \(Shelf.describe(snapshot: conflict.databaseSnapshot))")
                    let objects = conflict.conflictingObjects.map(Shelf.describe)
                    print("  conflictingObjects: \(objects.joined(separator: "; "))")
                }
            }
        }
        // ANCHOR_END: duplicate
        print("The store still holds \(try Shelf.count(in: container)) books; ZAR-2009 is \(try stored(in: container))")
        print("")

        let insertedID = importer.performAndWait { importer.insertedObjects.first?.objectID }
        // ANCHOR: upsert
        try importer.performAndWait {
            importer.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            try importer.save() // the same insert, saved again
        }
        // ANCHOR_END: upsert
        print("With NSMergeByPropertyObjectTrumpMergePolicy, save() went through.")
        print("The store holds \(try Shelf.count(in: container)) books; ZAR-2009 is \(try stored(in: container))")
        let storedID = try storedID(in: container)
        importer.performAndWait {
            let book = importer.registeredObjects.first { $0.value(forKey: "code") as? String == "ZAR-2009" }
            print("The inserted object was temporary: \(insertedID?.isTemporaryID == true)")
            print("It now has the stored book's ID: \(book?.objectID == storedID)")
        }
    }

    static func stored(in container: NSPersistentContainer) throws -> String {
        try Shelf.stored(code: "ZAR-2009", in: container) ?? "missing"
    }

    /// The object ID of the stored ZAR-2009.
    static func storedID(in container: NSPersistentContainer) throws -> NSManagedObjectID? {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "code == %@", "ZAR-2009")
            return try reader.fetch(request).first?.objectID
        }
    }
}
