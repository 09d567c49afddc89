import ObjectGraph
import WorkbookSupport

enum SpecificValues {
    static func run(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: FetchingModels.company())
        try SampleData.insertEmployees(into: context)
        // ANCHOR: sample-events
        let dates = ISO8601DateFormatter()
        for (name, day) in [("Launch", "2009-05-02T09:00:00Z"), ("Review", "2009-05-30T09:00:00Z"), ("Party", "2009-06-06T09:00:00Z")] {
            let event = try context.insertNewObject(forEntityName: "Event")
            try event.checkedSetValue(name, forKey: "name")
            try event.checkedSetValue(dates.date(from: day), forKey: "creationDate")
        }
        try context.save()
        // ANCHOR_END: sample-events
        // ANCHOR: max-salary
        let request = FetchRequest(entityName: "Employee")
        request.resultType = .dictionary
        let maxSalary = ExpressionDescription(
            name: "maxSalary", expression: try Expression(checkedFormat: "max:(salary)"), resultType: .decimal)
        request.propertiesToFetch = [.expression(maxSalary)]
        let results = try context.fetchDictionaries(request)
        // ANCHOR_END: max-salary
        bench.print("Maximum salary: \(Workbench.describe(results.first?["maxSalary"]))")

        // ANCHOR: min-date
        let events = FetchRequest(entityName: "Event")
        events.resultType = .dictionary
        events.propertiesToFetch = [.expression(ExpressionDescription(
            name: "minDate", expression: try Expression(checkedFormat: "min:(creationDate)"), resultType: .date))]
        let earliest = try context.fetchDictionaries(events).first?["minDate"]
        // ANCHOR_END: min-date
        bench.print("Earliest event: \(Workbench.describe(earliest))")

        // ANCHOR: dictionaries
        let names = FetchRequest(entityName: "Employee")
        names.resultType = .dictionary
        names.propertiesToFetch = [.named("lastName")]
        names.returnsDistinctResults = true
        names.sortDescriptors = [SortDescriptor(key: "lastName")]
        let distinctNames = try context.fetchDictionaries(names)
        // ANCHOR_END: dictionaries
        bench.print("Distinct last names, as dictionaries:")
        for row in distinctNames { bench.print("  " + Workbench.describe(row)) }
    }
}
