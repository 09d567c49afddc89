// predicates-2: Any key, any value
//
// Build a predicate that is true when the object's value for a key equals a value, both chosen
// at run time.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// predicates-2. `value` is an `Any`, which a Mac cannot pass as a C variadic argument;
/// the `argumentArray:` form takes it as it is.
func predicate(key: String, equals value: Any) throws -> NSPredicate {
    NSPredicate(format: "%K == %@", argumentArray: [key, value])
}
