import ObjectGraph
import WorkbookSupport

enum SpecificObjects {
    static func runSelfEquals(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        let employees = try SampleData.insertEmployees(into: context)
        // ANCHOR: self-equals
        let mary = employees[0]
        let request = FetchRequest(entityName: "Employee")
        request.predicate = try Predicate(checkedFormat: "self == %@", mary)
        let withObject = try context.count(for: request)
        request.predicate = try Predicate(checkedFormat: "self == %@", mary.objectID)
        let withObjectID = try context.count(for: request)
        // ANCHOR_END: self-equals
        bench.print("Predicate: \(request.predicate!.predicateFormat)")
        bench.print("Count given the object: \(withObject); given its object ID: \(withObjectID)")

        // ANCHOR: deleted-elsewhere
        let elsewhere = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        try elsewhere.checkedDelete(try elsewhere.existingObject(with: mary.objectID))
        try elsewhere.save()
        let afterDeletion = try context.count(for: request)
        // ANCHOR_END: deleted-elsewhere
        bench.print("After another context deleted her and saved, the count is \(afterDeletion).")
    }

    static func runSelfIn(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        let employees = try SampleData.insertEmployees(into: context)
        // ANCHOR: self-in
        // Another context deletes Joe, the second employee, and saves.
        let elsewhere = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        try elsewhere.checkedDelete(try elsewhere.existingObject(with: employees[1].objectID))
        try elsewhere.save()

        let wanted = employees.prefix(3).map(\.objectID)
        let request = FetchRequest(entityName: "Employee")
        request.predicate = try Predicate(checkedFormat: "self IN %@", wanted)
        request.sortDescriptors = [SortDescriptor(key: "firstName")]
        let stillThere = try context.fetch(request)
        // ANCHOR_END: self-in
        bench.print("Asked for: \(wanted.map(\.description).joined(separator: ", "))")
        bench.print("Still in the store: \(stillThere.count) of \(wanted.count)")
        for employee in stillThere { bench.print("  \(employee.objectID)  \(Workbench.describe(object: employee))") }
    }
}
