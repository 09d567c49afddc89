import CoreData
import WorkbookSupport

/// Version 1's timer: every minute, the to-dos due in the next five minutes, alerted again
/// at every tick.
enum MinuteTimer {
    // ANCHOR: due-soon-1
    /// The to-dos the timer alerts at `now`: not completed, due in the next five minutes.
    static func dueSoon(in context: NSManagedObjectContext, at now: Date) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
        request.predicate = NSPredicate(
            format: "completed == NO AND dueDate >= %@ AND dueDate <= %@",
            now as NSDate, now.addingTimeInterval(5 * 60) as NSDate)
        request.sortDescriptors = [NSSortDescriptor(key: "dueDate", ascending: true)]
        return try context.fetch(request)
    }
    // ANCHOR_END: due-soon-1

    static func run(_ bench: Workbench) throws {
        let print = bench.print
        let context = try openToDoStore(in: try bench.makeDataFolder(), model: try ToDoModels.version1())
        try SampleData.insertToDos(into: context)
        // ANCHOR: timer-1
        var alerts: [String: Int] = [:]
        for minute in 0...6 {
            let now = nineOClock.addingTimeInterval(Double(minute) * 60)
            for todo in try dueSoon(in: context, at: now) {
                let title = todo.value(forKey: "title") as? String ?? ""
                let due = todo.value(forKey: "dueDate") as? Date
                print("\(timeOfDay(now))  alert: \(title), due \(due.map(timeOfDay) ?? "never")")
                alerts[title, default: 0] += 1
            }
        }
        // ANCHOR_END: timer-1
        print("")
        for (title, count) in alerts.sorted(by: { $0.key < $1.key }) {
            print("\(title) was alerted \(count) times.")
        }
    }
}
