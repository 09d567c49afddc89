import CoreData

// The two small functions the sections print their results with. They are shown in the book
// where the first result appears, so that every listing that calls them reads on its own.

// ANCHOR: fetch-line
/// The names of the people (or, given `entity: "Word", key: "text"`, the texts of the words)
/// that a fetch with `predicate` returns, in the order the store returns them.
func fetchNames(
    _ predicate: NSPredicate, entity: String = "Person", key: String = "name",
    in context: NSManagedObjectContext
) throws -> [String] {
    let request = NSFetchRequest<NSManagedObject>(entityName: entity)
    request.predicate = predicate
    return try context.fetch(request).map { $0.value(forKey: key) as? String ?? "?" }
}

/// One line of output: the predicate as Core Data prints it (its `predicateFormat`), then
/// what the fetch returned.
func fetchLine(
    _ predicate: NSPredicate, entity: String = "Person", key: String = "name",
    in context: NSManagedObjectContext
) throws -> String {
    let found = try fetchNames(predicate, entity: entity, key: key, in: context)
    let format = predicate.predicateFormat
    return format.padding(toLength: max(format.count, 34), withPad: " ", startingAt: 0)
        + "  → " + (found.isEmpty ? "(none)" : found.joined(separator: ", "))
}
// ANCHOR_END: fetch-line
