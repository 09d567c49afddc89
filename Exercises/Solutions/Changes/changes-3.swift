// changes-3: The open to-dos
//
// Make a fetched results controller of the to-dos not completed, soonest due first, in one
// section, and fetch.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// changes-3. With the predicate in the request, a to-do that is completed leaves the list:
/// the controller tells its delegate it was deleted, not updated.
func openToDos(in context: NSManagedObjectContext) throws -> NSFetchedResultsController<NSManagedObject> {
    let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
    request.predicate = NSPredicate(format: "completed == NO")
    request.sortDescriptors = [NSSortDescriptor(key: "dueDate", ascending: true)]
    let controller = NSFetchedResultsController<NSManagedObject>(
        fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
    try controller.performFetch()
    return controller
}
