import ObjectGraph

// NSCompoundPredicate and NSComparisonPredicate are subclasses of NSPredicate in Apple's
// Foundation. Here a predicate is one value type, ObjectGraph's `Predicate`, whose cases are
// the kinds; these initializers and properties give it the subclasses' Swift API, so that
// `request.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [a, b])` compiles.

extension ObjectGraph.Predicate {
    /// AND, OR or NOT (NSCompoundPredicate.LogicalType).
    public typealias LogicalType = CompoundPredicate.LogicalType
    /// A comparison's operator (NSComparisonPredicate.Operator).
    public typealias Operator = ComparisonPredicate.Operator
    /// ANY, ALL or neither (NSComparisonPredicate.Modifier).
    public typealias Modifier = ComparisonPredicate.Modifier
    /// `[c]`, `[d]`, `[n]`, `[l]` (NSComparisonPredicate.Options).
    public typealias Options = ComparisonPredicate.Options

    /// The AND of predicates (NSCompoundPredicate(andPredicateWithSubpredicates:)); true when empty.
    public init(andPredicateWithSubpredicates subpredicates: [ObjectGraph.Predicate]) {
        self = .and(subpredicates)
    }

    /// The OR of predicates (NSCompoundPredicate(orPredicateWithSubpredicates:)); false when empty.
    public init(orPredicateWithSubpredicates subpredicates: [ObjectGraph.Predicate]) {
        self = .or(subpredicates)
    }

    /// The NOT of a predicate (NSCompoundPredicate(notPredicateWithSubpredicate:)).
    public init(notPredicateWithSubpredicate subpredicate: ObjectGraph.Predicate) {
        self = .not(subpredicate)
    }

    /// A compound predicate of a type (NSCompoundPredicate(type:subpredicates:)); a NOT with no
    /// subpredicate stops the program, as Apple's raises.
    public init(type: LogicalType, subpredicates: [ObjectGraph.Predicate]) {
        self = raisingAsApple { .compound(try CompoundPredicate(type: type, subpredicates: subpredicates)) }
    }

    /// A comparison of two expressions (NSComparisonPredicate(leftExpression:rightExpression:modifier:type:options:)).
    public init(
        leftExpression: ObjectGraph.Expression, rightExpression: ObjectGraph.Expression, modifier: Modifier = .direct,
        type: Operator, options: Options = []
    ) {
        self = .comparison(
            ComparisonPredicate(leftExpression, type, rightExpression, modifier: modifier, options: options))
    }

    /// A compound predicate's type; nil for any other kind (compoundPredicateType).
    public var compoundPredicateType: LogicalType? {
        if case .compound(let c) = self { return c.compoundPredicateType }
        return nil
    }

    /// A compound predicate's subpredicates; empty for any other kind (subpredicates).
    public var subpredicates: [ObjectGraph.Predicate] {
        if case .compound(let c) = self { return c.subpredicates }
        return []
    }
}

extension ObjectGraph.Expression {
    /// The value at a key path of the evaluated object (NSExpression(forKeyPath:)).
    public init(forKeyPath keyPath: String) { self = .keyPath(keyPath) }

    /// A constant (NSExpression(forConstantValue:)); a value that cannot be a constant stops
    /// the program, as Apple's raises.
    public init(forConstantValue value: Any?) {
        self = raisingAsApple { try .constant(value: value) }
    }

    /// The evaluated object, `SELF` (NSExpression.expressionForEvaluatedObject()).
    public static func expressionForEvaluatedObject() -> ObjectGraph.Expression { .evaluatedObject }

    /// A `$variable` (NSExpression(forVariable:)).
    public init(forVariable name: String) { self = .variable(name) }

    /// A built-in function such as `sum:` or `max:` over arguments
    /// (NSExpression(forFunction:arguments:)).
    public init(forFunction name: String, arguments: [ObjectGraph.Expression]) { self = .function(name, arguments) }

    /// The expression's value for an object (expressionValue(with:context:)); what Apple raises
    /// stops the program. The context dictionary is not used here.
    public func expressionValue(with object: Any?, context: NSMutableDictionary?) -> Any? {
        raisingAsApple { try expressionValue(with: object) }
    }
}
