import CoreData
import WorkbookSupport

/// `performAndWait` (returns the block's value, rethrows its error), `perform` (returns at once;
/// blocks run one at a time, in order), and the container's `performBackgroundTask`.
enum Performing {
    static func run(_ bench: Workbench) throws {
        let container = try Library.makeContainer(in: bench.makeDataFolder())
        _ = try Library.insertBooks(into: container)
        let background = container.newBackgroundContext()
        try andWait(bench, background)
        bench.print()
        inOrder(bench, background)
        bench.print()
        backgroundTask(bench, container)
    }

    static func andWait(_ bench: Workbench, _ background: NSManagedObjectContext) throws {
        let print = bench.print
        // ANCHOR: perform-and-wait
        let count = try background.performAndWait {
            try background.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book"))
        }
        print("performAndWait returned the block's value: \(count) books")

        do {
            try background.performAndWait {
                _ = NSEntityDescription.insertNewObject(forEntityName: "Book", into: background) // no title
                try background.save()
            }
        } catch {
            let error = error as NSError
            print("performAndWait rethrew the block's error: \(error.domain) \(error.code)")
            background.performAndWait { background.rollback() }
        }
        // ANCHOR_END: perform-and-wait
    }

    static func inOrder(_ bench: Workbench, _ background: NSManagedObjectContext) {
        // A block runs on the context's queue, so it prints with a print that any queue may use.
        let print = bench.printFromAnyQueue
        // ANCHOR: perform
        let finished = DispatchGroup()
        for step in 1...3 {
            finished.enter()
            background.perform {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
                request.predicate = NSPredicate(format: "year < %@", NSNumber(value: 2005 + 5 * step))
                let count = (try? background.count(for: request)) ?? 0
                print("block \(step): \(count) books from before \(2005 + 5 * step)")
                finished.leave()
            }
        }
        // perform has returned three times; wait for the blocks, as a test would. An app
        // would not wait: the last block hands its result on instead.
        finished.wait()
        // ANCHOR_END: perform
    }

    static func backgroundTask(_ bench: Workbench, _ container: NSPersistentContainer) {
        let print = bench.printFromAnyQueue
        // ANCHOR: background-task
        let saved = DispatchGroup()
        saved.enter()
        container.performBackgroundTask { context in
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue("Core Data Programming Guide", forKey: "title")
            book.setValue("Apple", forKey: "author")
            do {
                try context.save()
                print("performBackgroundTask: saved on a \(context.concurrencyType) context of its own")
            } catch {
                print("performBackgroundTask: \(error)")
            }
            saved.leave()
        }
        saved.wait()
        // ANCHOR_END: background-task
        let reader = container.newBackgroundContext()
        let total = try? reader.performAndWait {
            try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book"))
        }
        bench.print("The store now holds \(total ?? 0) books.")
    }
}
