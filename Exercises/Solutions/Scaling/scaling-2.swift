// scaling-2: One fetch, two stores
//
// Return a fetch request for the to-dos not done whose due date is before the given date,
// soonest first. The check runs it on SQLite and on PostgreSQL, and both must give the same
// answer.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// scaling-2. The predicate and the sort run in SQL on either store, so both answer alike.
func openToDos(dueBefore date: Date) throws -> NSFetchRequest<NSManagedObject> {
    let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
    request.predicate = NSPredicate(format: "completed == NO AND dueDate < %@", date as NSDate)
    request.sortDescriptors = [NSSortDescriptor(key: "dueDate", ascending: true)]
    return request
}
