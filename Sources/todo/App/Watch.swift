import ArgumentParser
import CoreData
import WorkbookSupport

extension ToDoCommand {
    /// `todo watch`: the article's minute timer. Every minute it fetches the to-dos due in the
    /// next five minutes and alerts each. Version 1 alerts an item at every tick while it is
    /// due, as the article complains; version 2 alerts it once, then records `lastAlertDate`,
    /// and skips items marked `doNotAlert`.
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every minute, alert the to-dos due in the next five minutes (Ctrl-C stops).")

        @Option(help: ArgumentHelp("Stop after this many checks (default: never).", valueName: "n")) var ticks: Int?
        /// Seconds between checks: a minute, as in the article; tests that run the program as a
        /// process shorten it, since the system clock cannot be moved from outside.
        @Option(help: .hidden) var interval: Double = 60
        @OptionGroup var options: StoreOptions

        func validate() throws {
            if let ticks, ticks < 1 { throw ValidationError("--ticks must be at least 1") }
            if !(interval > 0) { throw ValidationError("--interval must be a positive number of seconds") }
        }

        func run() throws { try ToDoStack.open(options) { try run(with: $0) } }

        /// The command, on the opened store.
        func run(with stack: ToDoStack) throws {
            let environment = ToDoEnvironment.current
            // Watch changes one property, lastAlertDate, of items other commands may change or
            // delete meanwhile. Its save writes only its own changes; when another process
            // saved the same item first (133020), the store's values win property by property
            // and an item deleted meanwhile stays deleted: the other command is the user's
            // newer intent, and the alert has already been shown.
            stack.context.mergePolicy = NSMergeByPropertyStoreTrumpMergePolicy
            let version =
                stack.version == 1 ? "version 1: alerts repeat every minute" : "version 2: each to-do alerts once"
            let url = options.storeURL(in: environment)
            let place = url.isFileURL ? url.lastPathComponent : ToDoStack.describe(url)
            stack.say("Watching \(place) (\(version)). Ctrl-C stops.")
            // A SQLite or PostgreSQL store tells what other processes saved through its
            // persistent history; an XML store is read afresh at each tick.
            let keepsHistory = stack.store.type == NSSQLiteStoreType || stack.store.type == .postgres
            let history = keepsHistory ? try OtherProcessesChanges(stack: stack) : nil
            var tick = 0
            while ticks.map({ tick < $0 }) ?? true {
                let start = environment.clock.now
                do {
                    try Self.alert(stack: stack, at: start, history: history)
                } catch  where stack.store.type == .postgres && Self.isUnreachable(error as NSError) {
                    // A database server restarting costs this tick, not the timer: the store
                    // reconnects, and the next tick's history merge brings what was saved
                    // meanwhile. What this tick could not record is dropped, to alert again.
                    stack.context.rollback()
                    stack.say(
                        "Can't reach the store this minute (\(error.localizedDescription)); "
                            + "trying again at the next check.")
                }
                tick += 1
                if ticks.map({ tick < $0 }) ?? true {
                    environment.clock.sleep(until: start.addingTimeInterval(interval))
                }
            }
        }

        /// Whether a tick failed because the store could not be reached or answer in time
        /// (Core Data's 134030 save, 134080 open, 134090 timeout errors), not because of what it holds.
        static func isUnreachable(_ error: NSError) -> Bool {
            error.domain == NSCocoaErrorDomain && [134030, 134080, 134090].contains(error.code)
        }

        /// The to-dos to alert at `now`: due within five minutes, not completed and, in
        /// version 2, neither alerted before nor marked do-not-alert.
        static func dueSoon(stack: ToDoStack, at now: Date) throws -> [ToDo] {
            let request = ToDo.fetchRequest()
            let soon = now.addingTimeInterval(5 * 60)
            if stack.version == 1 {
                request.predicate = NSPredicate(
                    format: "completed == NO AND dueDate >= %@ AND dueDate <= %@", now as NSDate, soon as NSDate)
            } else {
                request.predicate = NSPredicate(
                    format:
                        "completed == NO AND dueDate >= %@ AND dueDate <= %@ AND doNotAlert == NO AND lastAlertDate == nil",
                    now as NSDate, soon as NSDate)
            }
            request.sortDescriptors = [NSSortDescriptor(key: "dueDate", ascending: true)]
            return try stack.context.fetch(request)
        }

        /// One tick of the timer: prints an alert per to-do due soon, and in version 2 records
        /// that it was alerted.
        static func alert(stack: ToDoStack, at now: Date, history: OtherProcessesChanges? = nil) throws {
            // The store as it is now, with what other processes added, changed or deleted
            // since the last tick: merged from history, or (XML) the context emptied, which
            // watch can do since it holds no unsaved change between ticks.
            if let history { try history.merge() } else { stack.context.reset() }
            let zone = stack.environment.timeZone
            let bell = stack.environment.isTerminal ? "\u{7}" : ""
            var alerted: [NSManagedObjectID] = []
            for todo in try dueSoon(stack: stack, at: now) {
                let item = try ToDoItem(todo, version: stack.version)
                guard let due = item.dueDate else { continue }
                let minutes = Int((due.timeIntervalSince(now) / 60).rounded(.up))
                let when = minutes <= 0 ? "now" : minutes == 1 ? "in 1 minute" : "in \(minutes) minutes"
                stack.say(
                    "\(bell)[\(When.format(now, timeZone: zone))] Due \(when): #\(item.number) \(item.title) (at \(When.format(due, timeZone: zone)))"
                )
                alerted.append(todo.objectID)
            }
            if stack.version >= 2 && !alerted.isEmpty { try record(alerted, at: now, stack: stack) }
        }

        /// Records that the to-dos `alerted` were alerted at `now` (version 2). When other
        /// processes keep saving them between the merge and the save, fetches them again and
        /// records again (ToDoStack.saveRetrying); one deleted meanwhile is skipped. If that
        /// still fails, the watch goes on and says so: those to-dos may alert once more, and
        /// stopping the timer would alert nothing at all.
        static func record(_ alerted: [NSManagedObjectID], at now: Date, stack: ToDoStack) throws {
            do {
                try stack.saveRetrying {
                    for id in alerted {
                        guard let todo = try? stack.context.existingObject(with: id) as? ToDo else { continue }
                        todo.lastAlertDate = now
                    }
                }
            } catch is ToDoStack.ConflictPersisted {
                let numbers = alerted.map { "#\(ToDoStack.number(of: $0))" }.joined(separator: ", ")
                stack.say(
                    "Could not record that \(numbers) \(alerted.count == 1 ? "was" : "were") alerted: other processes kept changing \(alerted.count == 1 ? "it" : "them") (\(ToDoStack.changeAttempts) tries); \(alerted.count == 1 ? "it" : "they") may alert again."
                )
            }
        }
    }
}

/// What other processes saved to a SQLite or PostgreSQL store since the watch last looked,
/// learned from the store's persistent history (Apple's "Consuming Relevant Store Changes"): each transaction
/// after the last token that another process made is merged into the watch's context, so an
/// item added a second ago is fetched and one edited or deleted is seen as it now is.
final class OtherProcessesChanges {
    private let stack: ToDoStack
    /// The last transaction merged.
    private var token: NSPersistentHistoryToken?
    /// The watch's own saves are recorded under this author and not merged back.
    private let author: String

    init(stack: ToDoStack) throws {
        self.stack = stack
        author = "todo watch \(ProcessInfo.processInfo.processIdentifier)"
        stack.context.transactionAuthor = author
        // The first tick fetches everything anyway: history before it is not needed.
        token = try stack.context.persistentStoreCoordinator.currentPersistentHistoryToken()
    }

    /// Merges the transactions saved since the last call into the context.
    func merge() throws {
        let request = NSPersistentHistoryChangeRequest.fetchHistory(after: token)
        guard
            let transactions = (try stack.context.execute(request) as? NSPersistentHistoryResult)?.result
                as? [NSPersistentHistoryTransaction]
        else { return }
        for transaction in transactions {
            if transaction.author != author {
                // The throwing twin of mergeChanges(fromContextDidSave:): refreshing may read an
                // object another process deleted meanwhile, which Apple's would stop the program for.
                try stack.context.checkedMergeChanges(fromContextDidSave: transaction.objectIDNotification())
            }
            token = transaction.token
        }
    }
}
