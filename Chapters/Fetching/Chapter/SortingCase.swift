import ObjectGraph
import WorkbookSupport

/// A sort descriptor's comparator: Core Data sorts strings case-sensitively unless told
/// otherwise, as NSSortDescriptor's `selector:` (here `comparator:`) tells it.
enum SortingCase {
    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let context = try bench.makeContext(model: FetchingModels.company())
        try SampleData.insertEmployees(into: context)
        // ANCHOR: sort-case
        let request = FetchRequest(entityName: "Employee")
        request.sortDescriptors = [SortDescriptor(key: "lastName"), SortDescriptor(key: "firstName")]
        let byDefault = try context.fetch(request)
        request.sortDescriptors = [
            SortDescriptor(key: "lastName", ascending: true, comparator: .caseInsensitiveCompare),
            SortDescriptor(key: "firstName"),
        ]
        let ignoringCase = try context.fetch(request)
        // ANCHOR_END: sort-case
        for (heading, employees) in [("By last name, then first name (the default compare:):", byDefault),
                                     ("The same, with the last name compared by caseInsensitiveCompare:", ignoringCase)] {
            print(heading)
            let names = try employees.map { "\(try $0.checkedValue(forKey: "firstName") ?? "") \(try $0.checkedValue(forKey: "lastName") ?? "")" }
            print("  " + names.joined(separator: ", "))
        }
    }
}
