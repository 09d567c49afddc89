// changes-2: Renamed, not saved
//
// Return the context's unsaved title changes: for each updated to-do whose title changed,
// its saved title mapped to its new one.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// changes-2. updatedObjects holds neither inserted nor deleted objects; changedValues() names
/// only the properties whose values differ from the saved ones, and committedValues(forKeys:)
/// gives the saved values.
func titleChanges(in context: NSManagedObjectContext) throws -> [String: String] {
    var changes: [String: String] = [:]
    for todo in context.updatedObjects where todo.changedValues()["title"] != nil {
        let saved = try todo.committedValues(forKeys: ["title"])["title"] as? String ?? ""
        changes[saved] = todo.value(forKey: "title") as? String ?? ""
    }
    return changes
}
