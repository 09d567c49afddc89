// swift-format-ignore-file
// (Apple's sample code, kept as Apple writes it: LEDGER.md counts its lines.)
// Article: "NSFetchedResultsController"
// https://developer.apple.com/documentation/coredata/nsfetchedresultscontroller
//
// The class documentation: "You configure an instance of this class using a fetch request that
// specifies the entity, optionally a filter predicate, and an array containing at least one sort
// ordering"; after `performFetch()`, a controller with a delegate "monitors changes to objects in
// its associated managed object context, and reports changes in the results set to its
// delegate". The delegate (NSFetchedResultsControllerDelegate) hears
// `controllerWillChangeContent(_:)`, one `controller(_:didChange:at:for:newIndexPath:)` per
// object inserted, deleted, moved or updated, and `controllerDidChangeContent(_:)`.
import CoreData
import Testing

/// A table view's delegate, recording what it is told instead of animating rows.
final class ChangeRecorder: NSObject, NSFetchedResultsControllerDelegate {
    var events: [String] = []

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        events.append("will")
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        let code = (anObject as! Quake).code
        switch type {
        case .insert:
            events.append("insert \(code) at \(newIndexPath!.row)")
        case .delete:
            events.append("delete \(code) from \(indexPath!.row)")
        case .move:
            events.append("move \(code) from \(indexPath!.row) to \(newIndexPath!.row)")
        case .update:
            events.append("update \(code) at \(indexPath!.row)")
        @unknown default:
            events.append("unknown")
        }
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        events.append("did")
    }
}

@Suite @MainActor struct FetchedResultsControllerSampleTests {
    @Test func delegateHearsInsertsUpdatesMovesAndDeletes() throws {
        let directory = try TemporaryDirectory()
        let container = NSPersistentContainer(name: "Earthquakes", managedObjectModel: SampleModel.earthquakes)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: directory.store("Earthquakes.sqlite"))]
        container.loadPersistentStores { _, error in
            if let error { fatalError("Unresolved error \(error)") }
        }
        let context = container.viewContext

        func addQuake(_ code: String, _ magnitude: Float) -> Quake {
            let quake = Quake(context: context)
            quake.code = code
            quake.magnitude = magnitude
            quake.place = "Somewhere"
            quake.time = Date(timeIntervalSince1970: 0)
            return quake
        }
        let small = addQuake("small", 1.0)
        let large = addQuake("large", 5.0)
        try context.save()

        let fetchRequest: NSFetchRequest<Quake> = Quake.fetchRequest()
        fetchRequest.sortDescriptors = [NSSortDescriptor(key: "magnitude", ascending: false)]
        let controller = NSFetchedResultsController<Quake>(fetchRequest: fetchRequest, managedObjectContext: context,  // LINUX: the type argument is spelled out: the typealias's parameter is not used, so it cannot be inferred
                                                    sectionNameKeyPath: nil, cacheName: nil)
        let recorder = ChangeRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        #expect((controller.fetchedObjects as? [Quake])?.map(\.code) == ["large", "small"])  // LINUX: fetchedObjects is [NSManagedObject]?, not [Quake]?
        #expect(controller.sections?.first?.numberOfObjects == 2)
        #expect((controller.object(at: IndexPath(row: 0, section: 0)) as! Quake).code == "large")

        // Insert: the new quake goes between the two.
        _ = addQuake("medium", 3.0)
        context.processPendingChanges()
        #expect(recorder.events == ["will", "insert medium at 1", "did"])

        // Update without moving, then an update that moves.
        recorder.events = []
        small.place = "Elsewhere"
        context.processPendingChanges()
        #expect(recorder.events == ["will", "update small at 2", "did"])
        recorder.events = []
        small.magnitude = 9.0
        context.processPendingChanges()
        #expect(recorder.events == ["will", "move small from 2 to 0", "did"])

        // Delete.
        recorder.events = []
        context.delete(large)
        context.processPendingChanges()
        #expect(recorder.events == ["will", "delete large from 1", "did"])
        #expect((controller.fetchedObjects as? [Quake])?.map(\.code) == ["small", "medium"])  // LINUX: fetchedObjects is [NSManagedObject]?, not [Quake]?
        #expect(controller.indexPath(forObject: small) == IndexPath(row: 0, section: 0))
    }
}
