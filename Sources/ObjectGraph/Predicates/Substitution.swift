/// Replaces `$variables` with constants (predicateWithSubstitutionVariables:).
///
/// Variables that a SUBQUERY or an assignment binds are left alone inside their scope.
struct Substitution {
    /// The values as given. Each is converted to a constant when a variable uses it, so an
    /// entry the predicate does not mention is ignored whatever it holds.
    private let variables: [String: Any]
    private var bound: [String] = []

    init(variables: [String: Any]) throws {
        self.variables = variables
    }

    mutating func apply(to predicate: Predicate) throws -> Predicate {
        switch predicate {
        case .constant, .block:
            return predicate
        case .compound(let c):
            // The chain's links as they are (they print the same), its terms substituted.
            return .compound(try c.mapChainTerms { try apply(to: $0) })
        case .comparison(var c):
            c.leftExpression = try apply(to: c.leftExpression)
            c.rightExpression = try apply(to: c.rightExpression)
            return .comparison(c)
        }
    }

    /// A key path with each free `$name` component (as in `$a.$b`) replaced by the key its
    /// value names. A value that is not a string key is refused, as it could not print.
    private func substituteKeys(in path: String, fromComponent first: Int) throws -> String {
        guard path.utf8.contains(UInt8(ascii: "$")) else { return path }
        let components = path.split(separator: ".", omittingEmptySubsequences: false)
        return try components.enumerated().map { index, component -> String in
            guard index >= first, component.hasPrefix("$") else { return String(component) }
            let name = String(component.dropFirst())
            if bound.contains(name) { return String(component) }
            guard let value = variables[name] else {
                throw PredicateError(
                    .missingVariable,
                    "No value for the substitution variable $\(name): the substitution dictionary must contain a value for every variable in the predicate (pass NSNull() to match nil)"
                )
            }
            let key = try ExpressionEvaluator.keyText(value, variable: name)
            let isKeyPath = key.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
                guard let first = part.unicodeScalars.first, first.isASCIILetterOrUnderscore || first == "@" else {
                    return false
                }
                return part.unicodeScalars.dropFirst().allSatisfy { $0.isASCIILetterOrUnderscore || $0.isASCIIDigit }
            }
            guard isKeyPath else {
                throw PredicateError(
                    .invalidArgument,
                    "the substitution value for $\(name) is used as a key after '.', so it must be a key path such as \"name\" or \"address.city\", but it is \(describeArgument(value))"
                )
            }
            return key
        }.joined(separator: ".")
    }

    mutating func apply(to expression: Expression) throws -> Expression {
        switch expression {
        case .constant, .evaluatedObject:
            return expression
        case .keyPath(let path):
            return .keyPath(try substituteKeys(in: path, fromComponent: 1))
        case .variable(let name):
            if bound.contains(name) { return expression }
            guard let value = variables[name] else {
                throw PredicateError(
                    .missingVariable,
                    "No value for the substitution variable $\(name): the substitution dictionary must contain a value for every variable in the predicate (pass NSNull() to match nil)"
                )
            }
            let label = "the substitution value for $\(name)"
            // Measured without recursion before the conversion, which recurses.
            try ArgumentDepth.check(value, limit: Predicate.maximumDepth, describedAs: label)
            return .constant(try ConstantValue(argument: value, describedAs: label))
        case .member(let base, let path):
            return .member(try apply(to: base), try substituteKeys(in: path, fromComponent: 0))
        case .function(let selector, let arguments):
            return .function(selector, try arguments.map { try apply(to: $0) })
        case .customFunction(let receiver, let selector, let arguments):
            return .customFunction(
                receiver: try apply(to: receiver), selector: selector,
                arguments: try arguments.map { try apply(to: $0) })
        case .index(let base, let selector):
            let newSelector: Expression.IndexSelector
            if case .expression(let e) = selector {
                newSelector = .expression(try apply(to: e))
            } else {
                newSelector = selector
            }
            return .index(try apply(to: base), newSelector)
        case .aggregate(let elements):
            return .aggregate(try elements.map { try apply(to: $0) })
        case .subquery(let collection, let variable, let predicate):
            let newCollection = try apply(to: collection)
            bound.append(variable)
            defer { bound.removeLast() }
            return .subquery(collection: newCollection, variable: variable, predicate: try apply(to: predicate))
        case .cast(let value, let type):
            return .cast(try apply(to: value), try apply(to: type))
        case .conditional(let predicate, let whenTrue, let whenFalse):
            return .conditional(try apply(to: predicate), try apply(to: whenTrue), try apply(to: whenFalse))
        case .assignment(let name, let value):
            let newValue = try apply(to: value)
            bound.append(name)
            return .assignment(name, newValue)
        }
    }
}
