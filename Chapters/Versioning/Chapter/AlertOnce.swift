import CoreData
import WorkbookSupport

/// Version 2's timer, Listing 11: the predicate skips to-dos already alerted or marked
/// do-not-alert, and the timer records each alert.
enum AlertOnce {
    // ANCHOR: listing-11
    /// The to-dos the timer alerts at `now`, each only once.
    static func dueSoon(in context: NSManagedObjectContext, at now: Date) throws -> [NSManagedObject] {
        let ps = "completed == NO AND dueDate >= %@ AND dueDate <= %@ AND doNotAlert == NO AND lastAlertDate == nil"
        let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
        request.predicate = NSPredicate(format: ps, now as NSDate, now.addingTimeInterval(5 * 60) as NSDate)
        request.sortDescriptors = [NSSortDescriptor(key: "dueDate", ascending: true)]
        return try context.fetch(request)
    }
    // ANCHOR_END: listing-11

    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let folder = try bench.makeDataFolder()
        try SampleData.insertToDos(into: try openToDoStore(in: folder, model: try ToDoModels.version1()))
        // ANCHOR: water-the-plants
        let context = try openMigratingToDoStore(in: folder)
        let plants = NSEntityDescription.insertNewObject(forEntityName: "ToDo", into: context)
        plants.setValue("Water the plants", forKey: "title")
        plants.setValue(nineOClock.addingTimeInterval(3 * 60), forKey: "dueDate")
        plants.setValue(true, forKey: "doNotAlert")
        try context.save()
        // ANCHOR_END: water-the-plants
        // ANCHOR: timer-2
        var alerts: [String: Int] = [:]
        for minute in 0...6 {
            let now = nineOClock.addingTimeInterval(Double(minute) * 60)
            for todo in try dueSoon(in: context, at: now) {
                let title = todo.value(forKey: "title") as? String ?? ""
                let due = todo.value(forKey: "dueDate") as? Date
                print("\(timeOfDay(now))  alert: \(title), due \(due.map(timeOfDay) ?? "never")")
                alerts[title, default: 0] += 1
                todo.setValue(now, forKey: "lastAlertDate")
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
