/// How deeply a predicate nests, for the parser's limit (``PredicateParser/maximumDepth``).
///
/// Each predicate, expression and constant array is one level. The walk stops as soon as it
/// passes the limit, so it never recurses deeper than the limit itself.
enum TreeDepth {
    /// Whether the predicate nests more than `limit` levels deep.
    static func exceeds(_ limit: Int, _ predicate: Predicate) -> Bool { !fits(predicate, budget: limit) }

    /// Whether the expression nests more than `limit` levels deep.
    static func exceeds(_ limit: Int, _ expression: Expression) -> Bool { !fits(expression, budget: limit) }

    private static func fits(_ predicate: Predicate, budget: Int) -> Bool {
        guard budget > 0 else { return false }
        switch predicate {
        case .constant, .block: return true
        case .comparison(let c):
            return fits(c.leftExpression, budget: budget - 1) && fits(c.rightExpression, budget: budget - 1)
        case .compound(let c):
            return c.subpredicates.allSatisfy { fits($0, budget: budget - 1) }
        }
    }

    private static func fits(_ expression: Expression, budget: Int) -> Bool {
        guard budget > 0 else { return false }
        let inner = budget - 1
        switch expression {
        case .constant(let value): return fits(value, budget: budget)
        case .evaluatedObject, .variable, .keyPath: return true
        case .member(let base, _): return fits(base, budget: inner)
        case .function(_, let arguments), .aggregate(let arguments): return arguments.allSatisfy { fits($0, budget: inner) }
        case .customFunction(let receiver, _, let arguments):
            return fits(receiver, budget: inner) && arguments.allSatisfy { fits($0, budget: inner) }
        case .index(let base, let selector):
            if case .expression(let e) = selector, !fits(e, budget: inner) { return false }
            return fits(base, budget: inner)
        case .subquery(let collection, _, let predicate):
            return fits(collection, budget: inner) && fits(predicate, budget: inner)
        case .cast(let value, let type): return fits(value, budget: inner) && fits(type, budget: inner)
        case .conditional(let predicate, let whenTrue, let whenFalse):
            return fits(predicate, budget: inner) && fits(whenTrue, budget: inner) && fits(whenFalse, budget: inner)
        case .assignment(_, let value): return fits(value, budget: inner)
        }
    }

    private static func fits(_ value: ConstantValue, budget: Int) -> Bool {
        guard budget > 0 else { return false }
        switch value {
        case .array(let elements): return elements.allSatisfy { fits($0, budget: budget - 1) }
        case .set(let elements): return elements.allSatisfy { fits($0, budget: budget - 1) }
        case .dictionary(let d): return d.values.allSatisfy { fits($0, budget: budget - 1) }
        default: return true
        }
    }
}
