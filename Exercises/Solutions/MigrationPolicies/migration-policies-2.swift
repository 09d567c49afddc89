// migration-policies-2: A rule without code
//
// Write the value expression of version 2's doNotAlert: YES for a to-do that is completed or
// has no due date, NO otherwise.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// migration-policies-2. TERNARY turns a predicate into a value; YES and NO unquoted are
/// Booleans ("YES" quoted would be a string, which a Boolean attribute refuses).
func doNotAlertValueExpression() throws -> String {
    "TERNARY($source.completed == YES OR $source.dueDate == nil, YES, NO)"
}
