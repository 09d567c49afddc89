// versioning-3: Alerted in the last hour
//
// Return the to-dos whose lastAlertDate lies in the hour up to a given time, both ends
// included, most recently alerted first.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// versioning-3. BETWEEN includes both ends; a nil lastAlertDate matches neither bound. The
/// two dates go in as one NSArray: `%@` takes an object.
func todos(alertedInHourBefore now: Date, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
    let request = NSFetchRequest<NSManagedObject>(entityName: "ToDo")
    request.predicate = NSPredicate(
        format: "lastAlertDate BETWEEN %@", [now.addingTimeInterval(-3_600), now] as NSArray)
    request.sortDescriptors = [NSSortDescriptor(key: "lastAlertDate", ascending: false)]
    return try context.fetch(request)
}
