// compounding-3: Where the parentheses go
//
// Write one format string for the books published by either of two publishers that are also
// ranked better than a given rank.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// compounding-3. Without the parentheses AND would bind first. The rank goes in as an
/// NSNumber: `%@` takes an object.
func predicate(publishedBy first: String, or second: String, rankedBetterThan rank: Int) throws -> NSPredicate {
    NSPredicate(
        format: "(publisher.name == %@ OR publisher.name == %@) AND salesRank < %@", first, second,
        NSNumber(value: rank))
}
