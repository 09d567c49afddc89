import ObjectGraph
import WorkbookSupport

/// Version 2's timer, Listing 11: the predicate skips to-dos already alerted or marked
/// do-not-alert, and the timer records each alert.
enum AlertOnce {
    // ANCHOR: listing-11
    /// The to-dos the timer alerts at `now`, each only once.
    static func dueSoon(in context: ManagedObjectContext, at now: Date) throws -> [ManagedObject] {
        let ps = "completed == NO AND dueDate >= %@ AND dueDate <= %@ AND doNotAlert == NO AND lastAlertDate == nil"
        let request = FetchRequest(entityName: "ToDo")
        request.predicate = try Predicate(format: ps, now, now.addingTimeInterval(5 * 60))
        request.sortDescriptors = [SortDescriptor(key: "dueDate", ascending: true)]
        return try context.fetch(request)
    }
    // ANCHOR_END: listing-11

    static func run(_ bench: Workbench) throws {
        let dataFolder = try bench.makeDataFolder()
        try SampleData.insert(into: try Stack.open(in: dataFolder, model: try ToDoModels.version1(), options: bench.fixedStoreOptions()))
        let context = try AutomaticMigration.openMigrating(in: dataFolder)
        let plants = try context.insertNewObject(forEntityName: "ToDo")
        try plants.setValue("Water the plants", forKey: "title")
        try plants.setValue(Workbench.now.addingTimeInterval(3 * 60), forKey: "dueDate")
        try plants.setValue(true, forKey: "doNotAlert")
        try context.save()
        bench.print("Added \"Water the plants\", due \(SampleData.time(Workbench.now.addingTimeInterval(180))), with doNotAlert YES.")
        bench.print("")
        var alerts: [String: Int] = [:]
        // ANCHOR: timer-2
        for minute in 0...6 {
            let now = Workbench.now.addingTimeInterval(Double(minute) * 60)
            for todo in try dueSoon(in: context, at: now) {
                let title = try todo.value(forKey: "title") as! String
                bench.print("\(SampleData.time(now))  alert: \(title), due \(SampleData.time(try todo.value(forKey: "dueDate") as! Date))")
                alerts[title, default: 0] += 1
                try todo.setValue(now, forKey: "lastAlertDate")
            }
            try context.save()
        }
        // ANCHOR_END: timer-2
        bench.print("")
        for (title, count) in alerts.sorted(by: { $0.key < $1.key }) {
            bench.print("\(title) was alerted \(count == 1 ? "once" : "\(count) times").")
        }
        if alerts["Water the plants"] == nil { bench.print("Water the plants was never alerted.") }
    }
}
