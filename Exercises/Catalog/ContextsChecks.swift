import ContextsChapter
import ObjectGraph
import WorkbookSupport

/// How the chapter 6 exercises are judged: each check builds a container on a fresh SQLite
/// store, calls the learner's code with its contexts, then reads the contexts and the store
/// (each on its own queue) and explains what differs from what Core Data would do. A context
/// used off its queue stops the exercise's program with the debug check's message, which the
/// runner shows.
public enum ContextsChecks {
    /// contexts-1: books inserted and saved on a background context, their IDs returned.
    public static func importBooks(_ attempt: ([String], PersistentContainer) throws -> [ManagedObjectID]) -> Verdict {
        judge {
            let bench = Workbench { _ in }
            let container = try Library.makeContainer(in: bench.makeDataFolder())
            let titles = ["Dune", "Emma", "Ulysses", "Beloved"]
            let ids = try attempt(titles, container)
            if ids.count != titles.count {
                return [
                    "You returned \(ids.count) IDs for \(titles.count) titles: insert one Book per title and return each one's objectID."
                ]
            }
            if ids.contains(where: \.isTemporaryID) {
                return [
                    "You returned temporary IDs: a new object's ID is temporary until its context saves it, and another context cannot find it by that ID. Save the background context first, then take each book's objectID."
                ]
            }
            let viewContext = container.viewContext
            let viewHolds = viewContext.performAndWait { viewContext.registeredObjects.count }
            if viewHolds > 0 {
                return [
                    "The view context holds \(viewHolds) of the books: you inserted them there. The view context serves the interface on the main queue; an import belongs on a background context, container.newBackgroundContext(), used inside its performAndWait."
                ]
            }
            let reader = container.newBackgroundContext()
            let stored: [String?] = reader.performAndWait {
                ids.map { id in
                    (try? reader.existingObject(with: id)).flatMap { try? $0.checkedValue(forKey: "title") as? String }
                }
            }
            if stored.contains(where: { $0 == nil }) {
                return [
                    "Another context cannot find every book in the store by the IDs you returned: save the background context after inserting (try context.save() inside the block)."
                ]
            }
            let found = stored.compactMap { $0 }
            if found != titles {
                if Set(found) == Set(titles) {
                    return [
                        "The IDs are those of the right books, but in the order \(found); return them in the order of the titles, \(titles). (registeredObjects and insertedObjects are sets, with no order: keep the books in an array as you insert them.)"
                    ]
                }
                return ["The IDs you returned are books titled \(found), but the titles given were \(titles)."]
            }
            return []
        }
    }

    /// contexts-2: a change made in a child of the view context, kept (the child saved into the
    /// view context) or thrown away, never saved to the store.
    public static func scratchPad(_ attempt: (ManagedObjectID, String, Bool, ManagedObjectContext) throws -> Void)
        -> Verdict
    {
        judge {
            let bench = Workbench { _ in }
            let container = try Library.makeContainer(in: bench.makeDataFolder())
            let ids = try Library.insertBooks(into: container)
            let viewContext = container.viewContext
            let original = Library.books[0].title
            let unsaved = "Core Data (a change not saved yet)"
            func viewTitle(_ id: ManagedObjectID) throws -> String {
                try viewContext.performAndWait {
                    try viewContext.existingObject(with: id).checkedValue(forKey: "title") as? String ?? "nil"
                }
            }
            // The view context holds a change of its own, as an application's often does.
            try viewContext.performAndWait {
                try viewContext.existingObject(with: ids[1]).checkedSetValue(unsaved, forKey: "title")
            }
            var problems: [String] = []

            try attempt(ids[0], "A title thrown away", false, viewContext)
            if try viewTitle(ids[0]) == "A title thrown away" {
                problems.append(
                    "With keep false the change should be thrown away, but the view context has the new title: make the change in a child context (a new context whose parent is the view context) and do not save the child."
                )
            }
            if try viewTitle(ids[1]) != unsaved {
                problems.append(
                    "The view context's own unsaved change to another book is gone: rollback() or reset() on the view context throws away everything it holds, not only your change. Throw away the child context instead (rollback() on the child, or simply let it go)."
                )
            }
            if try Library.storedTitle(of: ids[0], in: container) != original {
                problems.append(
                    "With keep false, the store's title changed: nothing should be saved when the change is thrown away."
                )
            }
            if !problems.isEmpty { return problems }

            try attempt(ids[0], "Fetch, Clarus, Fetch!", true, viewContext)
            if try viewTitle(ids[0]) != "Fetch, Clarus, Fetch!" {
                problems.append(
                    "With keep true the change should become the view context's, but the view context shows \"\(try viewTitle(ids[0]))\": save the child, whose save hands its changes to its parent. (perform returns before its block has run: use performAndWait.)"
                )
            }
            if try Library.storedTitle(of: ids[0], in: container) != original {
                problems.append(
                    "The new title reached the store: you saved the view context too, which also wrote the view context's own unsaved change (\"\(unsaved)\"). Save only the child: the application saves the view context when it chooses."
                )
            } else if try viewTitle(ids[1]) != unsaved {
                problems.append(
                    "The view context's own unsaved change to another book is gone after keeping the change.")
            }
            return problems
        }
    }

    /// contexts-3: every save of one context merged into another, on the other's queue.
    public static func mergeSaves(_ attempt: (ManagedObjectContext, ManagedObjectContext) throws -> NSObjectProtocol)
        -> Verdict
    {
        judge {
            let bench = Workbench { _ in }
            let container = try Library.makeContainer(in: bench.makeDataFolder())
            let ids = try Library.insertBooks(into: container)
            let (reader, writer, other) = (
                container.newBackgroundContext(), container.newBackgroundContext(), container.newBackgroundContext()
            )
            reader.name = "reader"
            writer.name = "writer"
            other.name = "other"
            func readerTitle(_ id: ManagedObjectID) -> String {
                reader.performAndWait {
                    (try? reader.object(with: id).checkedValue(forKey: "title") as? String) ?? "nil"
                }
            }
            // The reader has loaded both books, so a merge has something to refresh.
            _ = (readerTitle(ids[0]), readerTitle(ids[1]))
            let observer = try attempt(writer, reader)
            defer { NotificationCenter.default.removeObserver(observer) }
            for (context, id, title) in [(writer, ids[0], "Fetch, Clarus, Fetch!"), (other, ids[1], "Core Data!")] {
                try context.performAndWait {
                    try context.existingObject(with: id).checkedSetValue(title, forKey: "title")
                    try context.save()
                }
            }
            // Blocks enqueued on the reader's queue by the observer run before this one.
            var problems: [String] = []
            if readerTitle(ids[0]) != "Fetch, Clarus, Fetch!" {
                problems.append(
                    "After the writer saved \"Fetch, Clarus, Fetch!\", the reader still shows \"\(readerTitle(ids[0]))\": observe .NSManagedObjectContextDidSave with object: writer and queue: nil, and in the block merge the notification on the reader's queue, reader.perform { reader.mergeChanges(fromContextDidSave: notification) }. (An observer given a queue waits for that queue to run the block.)"
                )
            }
            if readerTitle(ids[1]) == "Core Data!" {
                problems.append(
                    "The reader also took in a save by another context: merge only the writer's saves (object: writer when you add the observer). automaticallyMergesChangesFromParent merges the saves of every context on the coordinator."
                )
            }
            if reader.performAndWait({ reader.hasChanges }) {
                problems.append(
                    "The reader has unsaved changes: merge the notification with mergeChanges(fromContextDidSave:) instead of setting values on the reader's objects."
                )
            }
            return problems
        }
    }
}
