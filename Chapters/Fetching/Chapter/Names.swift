import ObjectGraph

// Foundation on Linux declares its own `Predicate` and `Expression`; in this chapter the
// names mean ObjectGraph's (NSPredicate's and NSExpression's counterparts).
typealias Predicate = ObjectGraph.Predicate
typealias Expression = ObjectGraph.Expression
