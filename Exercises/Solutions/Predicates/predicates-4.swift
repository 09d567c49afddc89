// predicates-4: Exactly one person
//
// Return the one person with a given name, nil when there is none, and let the too-many error
// through when several share it.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData
import ObjectGraph

/// predicates-4.
func person(named name: String, in context: NSManagedObjectContext) throws -> NSManagedObject? {
    try FetchUtilities.object(forEntityNamed: "Person", matchingKey: "name", value: name, in: context)
}
