import CoreData
import WorkbookSupport

enum Transient {
    static func run(_ bench: Workbench) throws {
        // The listings print with `print`, as a reader's code would; here into the output.
        let print = bench.print
        let context = try bench.makeContext(model: FetchingModels.company())
        let employees = try SampleData.insertEmployees(into: context)
        // ANCHOR: transient-initials
        for employee in employees {
            let first = (employee.value(forKey: "firstName") as? String)?.prefix(1) ?? ""
            let last = (employee.value(forKey: "lastName") as? String)?.prefix(1) ?? ""
            employee.setValue(String(first + last).uppercased(), forKey: "initials")
        }
        // ANCHOR_END: transient-initials
        // ANCHOR: transient-fetch
        let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
        request.predicate = NSPredicate(format: "initials == %@", "MW")
        do {
            _ = try context.fetch(request)
        } catch {
            print("The SQLite store refuses: \(error)")
        }
        // ANCHOR_END: transient-fetch
        // ANCHOR: transient-in-memory
        let everyone = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Employee"))
        let matching = everyone.filter { request.predicate!.evaluate(with: $0) }
        // ANCHOR_END: transient-in-memory
        bench.print("Filtering the fetched objects in memory finds \(matching.count):")
        for employee in matching { bench.print("  " + Workbench.describe(object: employee)) }
    }
}
