import ChangesChapter
import Foundation
import ObjectGraph
import WorkbookSupport

/// How the chapter 7 exercises are judged: each check builds a container on a fresh SQLite
/// store with the chapter's four to-dos, makes the changes an application would, and compares
/// what the learner's code saw or kept with what Core Data tells; each message names the
/// notification, property or method that tells it right.
public enum ChangesChecks {
    /// changes-1: each save of one context reported once, with its inserted, updated and
    /// deleted counts, from its did-save notification.
    public static func saveCounts(
        _ attempt: (ManagedObjectContext, @escaping @Sendable (Int, Int, Int) -> Void) throws -> NSObjectProtocol
    ) -> Verdict {
        judge {
            let bench = Workbench { _ in }
            let container = try ToDoList.makeContainer(in: bench.makeDataFolder())
            let (context, other) = (container.newBackgroundContext(), container.newBackgroundContext())
            let ids = try context.performAndWait { try ToDoList.insertToDos(into: context) }
            let otherIDs = try other.performAndWait { try ToDoList.insertToDos(into: other) }
            let reports = Reports()
            let observer = try attempt(context) { reports.append([$0, $1, $2]) }
            defer { NotificationCenter.default.removeObserver(observer) }
            try context.performAndWait {
                for title in ["Call the bank", "Water the plants"] {
                    let todo = try context.insertNewObject(forEntityName: "ToDo")
                    try todo.checkedSetValue(title, forKey: "title")
                }
                context.processPendingChanges()
                try context.object(with: ids[1]).checkedSetValue("Pay the rent", forKey: "title")
                context.delete(context.object(with: ids[0]))
                try context.save()
            }
            try other.performAndWait {
                try other.object(with: otherIDs[2]).checkedSetValue(true, forKey: "completed")
                try other.save()
            }
            let seen = reports.all
            if seen.isEmpty {
                return [
                    "Nothing was reported after the context saved: observe NSManagedObjectContext.didSaveObjectsNotification (object: context, queue: nil) and call report in the observer's block."
                ]
            }
            // Another context's save is reported as [0, 1, 0] after this context's [2, 1, 1].
            if seen.count > 1 && seen.contains([2, 1, 1]) {
                return [
                    "You reported \(seen.count) times (\(describe(seen))) for one save of the context: another context's save reached your observer. Pass object: context when you add it, so that only this context's saves are reported."
                ]
            }
            if seen.count > 1 {
                return [
                    "You reported \(seen.count) times (\(describe(seen))) for one save: you observe objects-did-change, which is posted at the end of every event (processPendingChanges, and the start of each save). The did-save notification, NSManagedObjectContext.didSaveObjectsNotification, is posted once per save, with everything it saved."
                ]
            }
            if seen[0] != [2, 1, 1] {
                return [
                    "The save inserted 2 to-dos, updated 1 and deleted 1, but you reported \(describe(seen)). Read each set from the notification's userInfo under NSManagedObjectContext.NotificationKey.insertedObjects.rawValue (and updatedObjects, deletedObjects) as Set<NSManagedObject>; a key is missing when its set is empty, so count a missing one as 0."
                ]
            }
            return []
        }
    }

    /// "inserted 2, updated 1, deleted 1; ..." for each report.
    static func describe(_ reports: [[Int]]) -> String {
        reports.map { "inserted \($0[0]), updated \($0[1]), deleted \($0[2])" }.joined(separator: "; ")
    }

    /// changes-2: the unsaved title changes of a context, committed title to new title, read
    /// from each updated object's change state.
    public static func titleChanges(_ attempt: (ManagedObjectContext) throws -> [String: String]) -> Verdict {
        judge {
            let bench = Workbench { _ in }
            let container = try ToDoList.makeContainer(in: bench.makeDataFolder())
            let context = container.newBackgroundContext()
            let answer: [String: String] = try context.performAndWait {
                let ids = try ToDoList.insertToDos(into: context)
                try context.object(with: ids[1]).checkedSetValue("Pay the rent", forKey: "title")
                try context.object(with: ids[2]).checkedSetValue(true, forKey: "completed")
                let raise = context.object(with: ids[3])
                try raise.checkedSetValue("Ask for a big raise", forKey: "title")
                try raise.checkedSetValue("Ask for a raise", forKey: "title")
                context.delete(context.object(with: ids[0]))
                let bank = try context.insertNewObject(forEntityName: "ToDo")
                try bank.checkedSetValue("Call the bank", forKey: "title")
                return try attempt(context)
            }
            let expected = ["Pay rent": "Pay the rent"]
            if answer == expected { return [] }
            var problems: [String] = []
            if answer["Pay the rent"] != nil {
                problems.append(
                    "The renamed to-do's old title came back as \"Pay the rent\", its new one: value(forKey:) gives the current value. The title last saved is in committedValues(forKeys: [\"title\"])."
                )
            } else if answer["Pay rent"] != "Pay the rent" {
                problems.append(
                    "\"Pay rent\" was renamed \"Pay the rent\", but your dictionary has \(answer["Pay rent"].map { "\"\($0)\"" } ?? "no entry") for it: look at each object of context.updatedObjects whose changedValues() has a \"title\"."
                )
            }
            if answer.values.contains("Call the bank") || answer.keys.contains("Call the bank") {
                problems.append(
                    "You included \"Call the bank\", which is inserted, not updated: an inserted object has no saved title to change from. Look at updatedObjects only."
                )
            }
            if answer.values.contains("Buy milk") || answer.keys.contains("Buy milk") {
                problems.append(
                    "You included \"Buy milk\", which is deleted: deletedObjects is another set. Look at updatedObjects only."
                )
            }
            if answer.values.contains("Answer Marcus's mail") || answer.keys.contains("Answer Marcus's mail") {
                problems.append(
                    "You included \"Answer Marcus's mail\", whose title did not change: only its completed flag did. Keep the objects whose changedValues() has the key \"title\"."
                )
            }
            if answer.values.contains("Ask for a raise") || answer.keys.contains("Ask for a raise") {
                problems.append(
                    "You included \"Ask for a raise\", whose title was changed and then set back to the saved one: the object is still updated (isUpdated is true), but changedValues() no longer names the title. Ask changedValues(), not isUpdated."
                )
            }
            if problems.isEmpty {
                problems.append(
                    "Expected \(expected), the one title changed and not saved, but you returned \(answer).")
            }
            return problems
        }
    }

    /// changes-3: a fetched results controller of the open to-dos, soonest due first, that
    /// reports a to-do completed as deleted from the list, and a new due date as a move.
    public static func openToDos(_ attempt: (ManagedObjectContext) throws -> FetchedResultsController) -> Verdict {
        judge {
            let bench = Workbench { _ in }
            let container = try ToDoList.makeContainer(in: bench.makeDataFolder())
            let context = container.newBackgroundContext()
            return try context.performAndWait { () throws -> [String] in
                let ids = try ToDoList.insertToDos(into: context)
                try context.object(with: ids[2]).checkedSetValue(true, forKey: "completed")
                try context.save()
                let controller = try attempt(context)
                func titles() -> [String] {
                    (controller.fetchedObjects ?? []).map { (try? $0.checkedValue(forKey: "title") as? String) ?? "?" }
                }
                guard controller.fetchedObjects != nil else {
                    return [
                        "The controller has no objects: call try controller.performFetch() before returning it; until then fetchedObjects is nil."
                    ]
                }
                if (controller.sections?.count ?? 0) > 1 {
                    return [
                        "The list has \(controller.sections?.count ?? 0) sections: pass sectionNameKeyPath: nil for one list."
                    ]
                }
                let open = ["Buy milk", "Pay rent", "Ask for a raise"]
                if titles().contains("Answer Marcus's mail") {
                    return [
                        "The list holds \"Answer Marcus's mail\", which is completed: give the request the predicate NSPredicate(format: \"completed == NO\")."
                    ]
                }
                if titles() == Array(open.reversed()) {
                    return [
                        "The list runs from the latest due date to the soonest, \(titles()): sort on \"dueDate\" with ascending: true."
                    ]
                }
                if titles() != open {
                    return ["The list is \(titles()), but the open to-dos soonest due first are \(open)."]
                }
                let calls = RecordedCalls()
                controller.delegate = calls
                try context.object(with: ids[0]).checkedSetValue(true, forKey: "completed")
                try context.save()
                try context.object(with: ids[3]).checkedSetValue(
                    Date(timeIntervalSinceReferenceDate: 265_550_400), forKey: "dueDate")
                try context.save()
                if calls.changes != ["delete 0.0 -", "move 0.1 0.0"] || titles() != ["Ask for a raise", "Pay rent"] {
                    return [
                        "After \"Buy milk\" was completed and \"Ask for a raise\" made due first, the delegate was told \(calls.changes) and the list is \(titles()); Core Data tells delete 0.0 (the completed to-do left the list) and move 0.1 0.0, and the list is [\"Ask for a raise\", \"Pay rent\"]. Did the request change after performFetch()?"
                    ]
                }
                return []
            }
        }
    }
}

/// What a check's report closure was called with, from any queue.
final class Reports: @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private let lock = NSLock()
    private var reports: [[Int]] = []

    /// Adds a report.
    func append(_ report: [Int]) { lock.withLock { reports.append(report) } }
    /// The reports so far.
    var all: [[Int]] { lock.withLock { reports } }
}

/// A delegate that writes down each object change as `type at new`.
final class RecordedCalls: FetchedResultsControllerDelegate {
    var changes: [String] = []

    func controller(
        _ controller: FetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        func place(_ path: IndexPath?) -> String { path.map { "\($0[0]).\($0[1])" } ?? "-" }
        changes.append("\(type) \(place(indexPath)) \(place(newIndexPath))")
    }
}
