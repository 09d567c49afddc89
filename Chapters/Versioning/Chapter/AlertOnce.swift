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
        request.predicate = try Predicate(checkedFormat: ps, now, now.addingTimeInterval(5 * 60))
        request.sortDescriptors = [SortDescriptor(key: "dueDate", ascending: true)]
        return try context.fetch(request)
    }
    // ANCHOR_END: listing-11

    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let folder = try bench.makeDataFolder()
        try SampleData.insertToDos(into: try openToDoStore(in: folder, model: try ToDoModels.version1()))
        // ANCHOR: water-the-plants
        let context = try openMigratingToDoStore(in: folder)
        let plants = try context.insertNewObject(forEntityName: "ToDo")
        try plants.checkedSetValue("Water the plants", forKey: "title")
        try plants.checkedSetValue(nineOClock.addingTimeInterval(3 * 60), forKey: "dueDate")
        try plants.checkedSetValue(true, forKey: "doNotAlert")
        try context.save()
        // ANCHOR_END: water-the-plants
        // ANCHOR: timer-2
        var alerts: [String: Int] = [:]
        for minute in 0...6 {
            let now = nineOClock.addingTimeInterval(Double(minute) * 60)
            for todo in try dueSoon(in: context, at: now) {
                let title = try todo.checkedValue(forKey: "title") as? String ?? ""
                let due = try todo.checkedValue(forKey: "dueDate") as? Date
                print("\(timeOfDay(now))  alert: \(title), due \(due.map(timeOfDay) ?? "never")")
                alerts[title, default: 0] += 1
                try todo.checkedSetValue(now, forKey: "lastAlertDate")
            }
            try context.save()
        }
        // ANCHOR_END: timer-2
        print("")
        for (title, count) in alerts.sorted(by: { $0.key < $1.key }) {
            print("\(title) was alerted \(count == 1 ? "once" : "\(count) times").")
        }
        if alerts["Water the plants"] == nil { print("Water the plants was never alerted.") }
    }
}
