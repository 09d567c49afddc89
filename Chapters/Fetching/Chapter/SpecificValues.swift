import CoreData
import WorkbookSupport

enum SpecificValues {
    static func run(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        try SampleData.insertEmployees(into: context)
        // ANCHOR: sample-events
        let dates = ISO8601DateFormatter()
        for (name, day) in [
            ("Launch", "2009-05-02T09:00:00Z"), ("Review", "2009-05-30T09:00:00Z"), ("Party", "2009-06-06T09:00:00Z"),
        ] {
            let event = NSEntityDescription.insertNewObject(forEntityName: "Event", into: context)
            event.setValue(name, forKey: "name")
            event.setValue(dates.date(from: day), forKey: "creationDate")
        }
        try context.save()
        // ANCHOR_END: sample-events
        // ANCHOR: max-salary
        let request = NSFetchRequest<NSDictionary>(entityName: "Employee")
        request.resultType = .dictionaryResultType
        let maxSalary = NSExpressionDescription(
            name: "maxSalary", expression: NSExpression(format: "max:(salary)"), resultType: .decimalAttributeType)
        request.propertiesToFetch = [.expression(maxSalary)]
        let results = try context.fetch(request)
        // ANCHOR_END: max-salary
        bench.print("Maximum salary: \(Workbench.describe(results.first?["maxSalary"]))")

        // ANCHOR: min-date
        let events = NSFetchRequest<NSDictionary>(entityName: "Event")
        events.resultType = .dictionaryResultType
        events.propertiesToFetch = [
            .expression(
                NSExpressionDescription(
                    name: "minDate", expression: NSExpression(format: "min:(creationDate)"),
                    resultType: .dateAttributeType))
        ]
        let earliest = try context.fetch(events).first?["minDate"]
        // ANCHOR_END: min-date
        bench.print("Earliest event: \(Workbench.describe(earliest))")

        // ANCHOR: dictionaries
        let names = NSFetchRequest<NSDictionary>(entityName: "Employee")
        names.resultType = .dictionaryResultType
        names.propertiesToFetch = ["lastName"]
        names.returnsDistinctResults = true
        names.sortDescriptors = [NSSortDescriptor(key: "lastName", ascending: true)]
        let distinctNames = try context.fetch(names)
        // ANCHOR_END: dictionaries
        bench.print("Distinct last names, as dictionaries:")
        for row in distinctNames { bench.print("  " + Workbench.describe(row as? [String: Any])) }
    }
}
