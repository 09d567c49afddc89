import CoreData
import WorkbookSupport

/// Changing a to-do while other `todo` processes change the same store.
///
/// Each process has its own context, and a save checks that every row it changes or deletes
/// is still at the version the context read (optimistic locking); a row another process saved
/// first is a merge conflict, Core Data's error 133020. `edit`, `done` and `delete` resolve
/// it as a Core Data app would, with a merge policy chosen on purpose, ``ToDoMergePolicy``:
/// property by property, the command's own values win where both changed the same property
/// (the last writer wins, which is what a person expects of `todo edit 1 --title`), and the
/// other process's values stay everywhere else, so nothing it changed is reverted.
///
/// When other processes keep saving between the merge and the save, the context gives up
/// after a few rounds; the command then forgets what it read, fetches the to-do again and
/// applies its change again, up to ``ToDoStack/changeAttempts`` times, and then fails saying
/// so and what to run again. Nothing is written by a command that fails.
extension ToDoStack {
    /// How many times a command fetches what it changes and applies its change again when
    /// other processes keep saving the same to-do in between.
    static let changeAttempts = 8

    /// A save that still met a merge conflict after every attempt: another process kept
    /// changing the same objects. Nothing was written.
    struct ConflictPersisted: Error {
        /// The error of the last attempt.
        let last: NSError
    }

    /// Runs `attempt`, which fetches what it changes and changes it, then saves. When the save
    /// fails with a merge conflict the merge policy could not settle, forgets every object
    /// and runs `attempt` again, on the store as it is now, up to ``changeAttempts`` times;
    /// then throws ``ConflictPersisted``. Other errors (a to-do deleted meanwhile) end at once.
    func saveRetrying(_ attempt: () throws -> Void) throws {
        for round in 1... {
            do {
                try attempt()
                try context.save()
                return
            } catch let error where (error as NSError).code == NSManagedObjectMergeError {
                // A failed save keeps the context's changes; they go, and are made again on
                // the store as it is now.
                context.reset()
                if round >= Self.changeAttempts { throw ConflictPersisted(last: error as NSError) }
            } catch {
                context.reset()
                throw error
            }
        }
    }

    /// Fetches to-do #`number`, applies `change` to it and saves, as ``saveRetrying(_:)`` does.
    /// Returns the to-do as saved, whose values are the store's at the moment of the save, and
    /// the properties another process changed meanwhile (kept, as the merge policy says).
    /// `command` is the command line to run again when other processes kept changing it.
    func change(todo number: Int64, command: String, _ change: (ToDo) throws -> Void) throws -> (
        todo: ToDo, keptFromOthers: [String]
    ) {
        context.mergePolicy = ToDoMergePolicy(number: number)
        var todo: ToDo?
        var intended: ToDoItem?
        do {
            try saveRetrying {
                let fetched: ToDo
                do {
                    fetched = try self.todo(number: number)
                } catch  where intended != nil {
                    // It was there at the first attempt.
                    throw ToDoMergePolicy.deleted(number: number)
                }
                try change(fetched)
                // What this command means the to-do to be, on the store as first read.
                if intended == nil { intended = try ToDoItem(fetched, version: version) }
                todo = fetched
            }
        } catch is ConflictPersisted {
            throw Self.keptChanging(number: number, command: command)
        }
        guard let todo, let intended else {
            throw ToDoError("There is no to-do #\(number). `todo list` shows their numbers.")
        }
        return (todo, try ToDoItem(todo, version: version).differences(from: intended))
    }

    /// Runs `attempt`, which fetches a category and changes or deletes it, then saves, as
    /// ``saveRetrying(_:)`` does: a category another process changed meanwhile (a to-do added to
    /// it, a rename) is fetched again and the change made again on the store as it is now.
    /// `command` is the command line to run again when other processes kept changing it.
    func changeCategory(command: String, _ attempt: () throws -> Void) throws {
        do {
            try saveRetrying(attempt)
        } catch is ConflictPersisted {
            throw ToDoError(
                """
                Other processes kept changing this category while the command ran (\(Self.changeAttempts) tries); \
                nothing was changed. Run it again: \(command)
                """)
        }
    }

    /// The error of a command that gave up because other processes kept saving to-do
    /// #`number` in between: it says to run `command` again.
    static func keptChanging(number: Int64, command: String) -> ToDoError {
        ToDoError(
            """
            Other processes kept changing #\(number) while this command ran (\(changeAttempts) tries); \
            nothing was changed. Run it again: \(command)
            """)
    }

    /// The line that says what another process changed meanwhile, nil when nothing.
    static func keptLine(_ kept: [String], number: Int64) -> String? {
        guard !kept.isEmpty else { return nil }
        let list = kept.count == 1 ? kept[0] : kept.dropLast().joined(separator: ", ") + " and " + kept[kept.count - 1]
        return "Another process changed #\(number) meanwhile; its \(list) \(kept.count == 1 ? "is" : "are") kept."
    }
}

/// The merge policy of the commands that change a to-do: `mergeByPropertyObjectTrump`
/// (NSMergeByPropertyObjectTrumpMergePolicy: "merges conflicts between the persistent store's
/// version of the object and the current in-memory version by individual property, with the
/// in-memory changes trumping external changes"), except for a to-do another process deleted
/// meanwhile: Core Data's policy would save it again, bringing back what the user deleted, so
/// the command fails instead and changes nothing. A to-do deleted here that another process
/// changed is deleted, as asked.
final class ToDoMergePolicy: NSMergePolicy, @unchecked Sendable {
    /// The to-do's number, for the message.
    let number: Int64

    /// The policy for a command on to-do #`number`.
    init(number: Int64) {
        self.number = number
        super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    }

    /// Refuses to bring back a deleted to-do or category; merges property by property otherwise.
    override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        for conflict in list where conflict.newVersionNumber == 0 && !conflict.sourceObject.isDeleted {
            let object = conflict.sourceObject
            if let category = object as? Category {
                // Its row is gone: a fault could not be loaded, and it has no name to give.
                let name = (try? category.loaded())?.name ?? ""
                throw ToDoError(
                    "Another process deleted the category \"\(name)\" while this command ran; nothing was changed.")
            }
            throw Self.deleted(number: object is ToDo ? ToDoStack.number(of: object) : number)
        }
        try super.resolve(optimisticLockingConflicts: list)
    }

    /// The error for a to-do another process deleted while a command changed it.
    static func deleted(number: Int64) -> ToDoError {
        ToDoError("Another process deleted #\(number) while this command ran; nothing was changed.")
    }
}
