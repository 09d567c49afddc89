import Foundation
import ObjectGraph

// Helpers shared by the parser, printer, error and fuzz tests of the format language.

/// Parses a predicate with arguments.
func parsedPredicate(_ format: String, _ arguments: Any?...) throws -> ObjectGraph.Predicate {
    try ObjectGraph.Predicate(checkedFormat: format, argumentArray: arguments)
}

/// Parses a standalone expression, as NSExpression(format:) does.
func parsedExpression(_ format: String, _ arguments: Any?...) throws -> ObjectGraph.Expression {
    try ObjectGraph.Expression(checkedFormat: format, argumentArray: arguments)
}

/// The comparison a format string parses to, or nil if it is not a single comparison.
func parsedComparison(_ format: String, _ arguments: Any?...) throws -> ComparisonPredicate? {
    guard case .comparison(let c) = try ObjectGraph.Predicate(checkedFormat: format, argumentArray: arguments) else {
        return nil
    }
    return c
}

/// The right-hand side of `x == <literal>`: how the parser reads one literal.
func literal(_ text: String, _ arguments: Any?...) throws -> ObjectGraph.Expression? {
    guard case .comparison(let c) = try ObjectGraph.Predicate(checkedFormat: "x == " + text, argumentArray: arguments)
    else { return nil }
    return c.rightExpression
}

/// A constant with its exact kind spelled out (`int(31)`, `double(31.0)`, `bool(true)`), since
/// constants compare numerically across kinds.
func exactly(_ expression: ObjectGraph.Expression?) -> String {
    guard case .constant(let value)? = expression else { return "not a constant: \(String(describing: expression))" }
    return "\(value)"
}

/// The error a parse throws, or nil when it parses.
func parseError(_ format: String, _ arguments: Any?...) -> ObjectGraph.PredicateError? {
    do {
        _ = try ObjectGraph.Predicate(checkedFormat: format, argumentArray: arguments)
        return nil
    } catch let error as ObjectGraph.PredicateError {
        return error
    } catch {
        return nil
    }
}
