// versioning-3: Alerted in the last hour
//
// Return the to-dos whose lastAlertDate lies in the hour up to a given time, both ends
// included, most recently alerted first.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import ObjectGraph

/// versioning-3. BETWEEN includes both ends; a nil lastAlertDate matches neither bound.
func todos(alertedInHourBefore now: Date, in context: ManagedObjectContext) throws -> [ManagedObject] {
    let request = FetchRequest(entityName: "ToDo")
    request.predicate = try Predicate(checkedFormat: "lastAlertDate BETWEEN %@", [now.addingTimeInterval(-3_600), now])
    request.sortDescriptors = [SortDescriptor(key: "lastAlertDate", ascending: false)]
    return try context.fetch(request)
}
