import CoreData
import WorkbookSupport

enum ListingOne {
    static func run(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        try SampleData.insertEmployees(into: context)
        // ANCHOR: listing-1
        let salaryFloor = 70_000
        let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
        request.predicate = NSPredicate(
            format: "(lastName LIKE[c] 'Worsley') AND (salary > %@)", salaryFloor as NSNumber)
        request.sortDescriptors = [NSSortDescriptor(key: "firstName", ascending: true)]
        let employees = try context.fetch(request)
        // ANCHOR_END: listing-1
        bench.print("Predicate, as Core Data prints it: \(request.predicate!.predicateFormat)")
        bench.print("Employees named Worsley (any case) earning more than \(salaryFloor), by first name:")
        for employee in employees { bench.print("  " + Workbench.describe(object: employee)) }
    }
}
