import CoreData
import WorkbookSupport

enum SpecificObjects {
    static func runSelfEquals(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        let employees = try SampleData.insertEmployees(into: context)
        // ANCHOR: self-equals
        let mary = employees[0]
        let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
        request.predicate = NSPredicate(format: "self == %@", mary)
        let withObject = try context.count(for: request)
        request.predicate = NSPredicate(format: "self == %@", mary.objectID)
        let withObjectID = try context.count(for: request)
        // ANCHOR_END: self-equals
        bench.print("Predicate: \(request.predicate!.predicateFormat)")
        bench.print("Count given the object: \(withObject); given its object ID: \(withObjectID)")

        // ANCHOR: deleted-elsewhere
        let elsewhere = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        elsewhere.persistentStoreCoordinator = context.persistentStoreCoordinator
        try elsewhere.performAndWait {
            try elsewhere.delete(elsewhere.existingObject(with: mary.objectID))
            try elsewhere.save()
        }
        let afterDeletion = try context.count(for: request)
        // ANCHOR_END: deleted-elsewhere
        bench.print("After another context deleted her and saved, the count is \(afterDeletion).")
    }

    static func runSelfIn(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        let employees = try SampleData.insertEmployees(into: context)
        // ANCHOR: self-in
        // Another context deletes Joe, the second employee, and saves.
        let elsewhere = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        elsewhere.persistentStoreCoordinator = context.persistentStoreCoordinator
        let joeID = employees[1].objectID
        try elsewhere.performAndWait {
            try elsewhere.delete(elsewhere.existingObject(with: joeID))
            try elsewhere.save()
        }

        let wanted = employees.prefix(3).map(\.objectID)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
        request.predicate = NSPredicate(format: "self IN %@", wanted as NSArray)
        request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
        let stillThere = try context.fetch(request)
        // ANCHOR_END: self-in
        bench.print("Asked for: \(wanted.map(\.description).joined(separator: ", "))")
        bench.print("Still in the store: \(stillThere.count) of \(wanted.count)")
        for employee in stillThere { bench.print("  \(employee.objectID)  \(Workbench.describe(object: employee))") }
    }
}
