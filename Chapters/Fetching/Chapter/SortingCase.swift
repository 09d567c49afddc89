import CoreData
import WorkbookSupport

/// A sort descriptor's comparator: Core Data sorts strings case-sensitively unless told
/// otherwise, as NSSortDescriptor's `selector:` (here `comparator:`) tells it.
enum SortingCase {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let context = try bench.makeContext(model: FetchingModels.company())
        try SampleData.insertEmployees(into: context)
        // ANCHOR: sort-case
        let request = NSFetchRequest<NSManagedObject>(entityName: "Employee")
        request.sortDescriptors = [
            NSSortDescriptor(key: "lastName", ascending: true), NSSortDescriptor(key: "firstName", ascending: true),
        ]
        let byDefault = try context.fetch(request)
        request.sortDescriptors = [
            NSSortDescriptor(key: "lastName", ascending: true, comparator: .caseInsensitiveCompare),
            NSSortDescriptor(key: "firstName", ascending: true),
        ]
        let ignoringCase = try context.fetch(request)
        // ANCHOR_END: sort-case
        for (heading, employees) in [
            ("By last name, then first name (the default compare:):", byDefault),
            ("The same, with the last name compared by caseInsensitiveCompare:", ignoringCase),
        ] {
            print(heading)
            let names = employees.map { "\($0.value(forKey: "firstName") ?? "") \($0.value(forKey: "lastName") ?? "")" }
            print("  " + names.joined(separator: ", "))
        }
    }
}
