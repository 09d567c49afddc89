import ObjectGraph

// Foundation on Linux declares its own `Predicate` and `SortDescriptor`; in this chapter the
// names mean ObjectGraph's (NSPredicate's and NSSortDescriptor's counterparts).
typealias Predicate = ObjectGraph.Predicate
typealias SortDescriptor = ObjectGraph.SortDescriptor
