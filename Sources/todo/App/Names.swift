import ObjectGraph

// Foundation also declares `Predicate` and `SortDescriptor`; in this module they are ours.
typealias Predicate = ObjectGraph.Predicate
typealias SortDescriptor = ObjectGraph.SortDescriptor
