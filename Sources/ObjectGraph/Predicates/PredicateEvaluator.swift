import Foundation

/// What an evaluation carries along: the substitution variables (and SUBQUERY and assignment
/// bindings).
struct EvaluationContext {
    var variables: [String: Any]
}

/// Evaluates predicates in memory with Apple's semantics (<doc:PredicateFormatStringReference>).
enum PredicateEvaluator {
    static func evaluate(_ predicate: Predicate, object: Any?, context: inout EvaluationContext) throws -> Bool {
        switch predicate {
        case .constant(let value):
            return value
        case .block(let block):
            return block.block(object, context.variables)
        case .compound(let compound):
            switch compound.compoundPredicateType {
            // A chain's terms in a loop, left to right, however the chain nests: an AND
            // inside an AND is one level, and a long folded chain must not recurse per link.
            case .and:
                for term in compound.chainTerms where !(try evaluate(term, object: object, context: &context)) {
                    return false
                }
                return true
            case .or:
                for term in compound.chainTerms where try evaluate(term, object: object, context: &context) {
                    return true
                }
                return false
            case .not:
                // Foundation looks only at the first subpredicate of a NOT.
                guard let first = compound.subpredicates.first else { return true }
                return !(try evaluate(first, object: object, context: &context))
            }
        case .comparison(let comparison):
            return try evaluate(comparison, object: object, context: &context)
        }
    }

    static func evaluate(_ c: ComparisonPredicate, object: Any?, context: inout EvaluationContext) throws -> Bool {
        let left = try ExpressionEvaluator.value(of: c.leftExpression, object: object, context: &context)
        let right = try ExpressionEvaluator.value(of: c.rightExpression, object: object, context: &context)
        switch c.modifier {
        case .direct:
            return try compare(left, c.operatorType, right, c.options)
        case .any, .all:
            let normalized = unwrapOptional(left)
            guard let value = normalized, !isNSNull(value) else {
                // An empty or missing collection: ANY is false, ALL is vacuously true.
                return c.modifier == .all
            }
            guard let elements = KeyPathResolver.collectionElements(value) else {
                throw PredicateError(
                    .invalidOperand,
                    "The left hand side for an ALL or ANY operator must be either an NSArray or an NSSet, but \(PredicatePrinter.format(c.leftExpression)) is \(describeArgument(value))"
                )
            }
            for element in elements {
                let holds = try compare(element, c.operatorType, right, c.options)
                if c.modifier == .any && holds { return true }
                if c.modifier == .all && !holds { return false }
            }
            return c.modifier == .all
        }
    }

    /// One comparison of two values.
    static func compare(
        _ lhs: Any?, _ op: ComparisonPredicate.Operator, _ rhs: Any?, _ options: ComparisonPredicate.Options
    ) throws -> Bool {
        let l = ValueComparison.normalize(lhs)
        let r = ValueComparison.normalize(rhs)
        switch op {
        case .equalTo:
            return ValueComparison.equal(l, r, options)
        case .notEqualTo:
            return !ValueComparison.equal(l, r, options)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard let l, let r else {
                // Apple: nothing compares with null but null; nil <= nil and nil >= nil hold.
                return l == nil && r == nil && (op == .lessThanOrEqualTo || op == .greaterThanOrEqualTo)
            }
            // NaN is a number without an order: every ordering with it is false.
            if ValueComparison.isUnordered(l, r) { return false }
            guard let order = ValueComparison.order(l, r, options) else {
                throw PredicateError(
                    .invalidOperand,
                    "Can't compare \(describeArgument(l)) with \(describeArgument(r)) using \(op.symbol): only numbers with numbers, strings with strings and dates with dates have an order"
                )
            }
            switch op {
            case .lessThan: return order == .orderedAscending
            case .lessThanOrEqualTo: return order != .orderedDescending
            case .greaterThan: return order == .orderedDescending
            default: return order != .orderedAscending
            }
        case .beginsWith, .endsWith:
            guard let l, let r else { return false }
            guard let s = l as? String, let t = r as? String else {
                throw PredicateError(
                    .invalidOperand,
                    "Can't do a substring operation with something that isn't a string (lhs = \(describeArgument(l)) rhs = \(describeArgument(r)))"
                )
            }
            return op == .beginsWith
                ? StringComparison.beginsWith(s, t, options) : StringComparison.endsWith(s, t, options)
        case .contains:
            return try contains(collection: l, element: r, options)
        case .in:
            return try contains(collection: r, element: l, options)
        case .like, .matches:
            guard let l, let r else { return false }
            guard let pattern = r as? String else {
                throw PredicateError(
                    .invalidOperand, "Can't create a regex expression from object \(describeArgument(r)).")
            }
            guard let s = l as? String else {
                throw PredicateError(.invalidOperand, "Can't do regex matching on object \(describeArgument(l)).")
            }
            return op == .like
                ? try StringComparison.like(s, pattern, options) : try StringComparison.matches(s, pattern, options)
        case .between:
            guard let bounds = KeyPathResolver.collectionElements(r) else {
                if r == nil { return false }
                throw PredicateError(
                    .invalidOperand, "Can't use between operator with rhs \(describeArgument(r)) (not an array)")
            }
            guard bounds.count == 2 else {
                throw PredicateError(
                    .invalidOperand,
                    "Can't use between operator with rhs \(describeArgument(r)) (wrong number of elements: BETWEEN takes {lower, upper})"
                )
            }
            guard let l, let low = ValueComparison.normalize(bounds[0]), let high = ValueComparison.normalize(bounds[1])
            else { return false }
            guard let a = ValueComparison.order(l, low, []), let b = ValueComparison.order(l, high, []),
                let boundsOrder = ValueComparison.order(low, high, [])
            else {
                throw PredicateError(
                    .invalidOperand,
                    "Can't compare \(describeArgument(l)) with the BETWEEN bounds \(describeArgument(r))")
            }
            // NaN is unordered: nothing lies between bounds when one of the three is NaN.
            if ValueComparison.isUnordered(l, low) || ValueComparison.isUnordered(l, high)
                || ValueComparison.isUnordered(low, high)
            {
                return false
            }
            // Bounds given the wrong way round are swapped, as Foundation does.
            if boundsOrder == .orderedDescending { return b != .orderedAscending && a != .orderedDescending }
            return a != .orderedAscending && b != .orderedDescending
        }
    }

    /// CONTAINS and IN: substring search for strings (honouring options), membership for
    /// arrays and sets (ignoring options, as `containsObject:` does), values for dictionaries.
    private static func contains(collection: Any?, element: Any?, _ options: ComparisonPredicate.Options) throws -> Bool
    {
        guard let collection, let element else { return false }
        if let s = collection as? String {
            guard let t = element as? String else {
                throw PredicateError(
                    .invalidOperand,
                    "Can't look for value (\(describeArgument(element))) in string (\(PredicatePrinter.quote(s))); value is not a string"
                )
            }
            return StringComparison.contains(s, t, options)
        }
        if let elements = KeyPathResolver.collectionElements(collection) {
            return elements.contains { ValueComparison.equal($0, element, []) }
        }
        if let dictionary = collection as? [String: Any] {
            return dictionary.values.contains { ValueComparison.equal($0, element, []) }
        }
        throw PredicateError(
            .invalidOperand,
            "Can't use in/contains operator with collection \(describeArgument(collection)) (not a collection)")
    }
}

/// Evaluates expressions to Swift values.
enum ExpressionEvaluator {
    static func value(of expression: Expression, object: Any?, context: inout EvaluationContext) throws -> Any? {
        switch expression {
        case .constant(let value):
            return value.runtimeValue
        case .evaluatedObject:
            return object
        case .variable(let name):
            guard let value = context.variables[name] else {
                throw PredicateError(
                    .missingVariable,
                    "No value for the substitution variable $\(name): the substitution dictionary must contain a value for every variable in the predicate (pass NSNull() to match nil)"
                )
            }
            return unwrapOptional(value)
        case .keyPath(let path):
            // A first component that starts with `$` came from %K and is a plain key.
            let resolved =
                path.utf8.contains(UInt8(ascii: "$"))
                ? try variableKeys(in: path, fromComponent: 1, context: context) : path
            return try KeyPathResolver.value(of: object, keyPath: resolved)
        case .member(let base, let path):
            let b = try value(of: base, object: object, context: &context)
            let resolved =
                path.utf8.contains(UInt8(ascii: "$"))
                ? try variableKeys(in: path, fromComponent: 0, context: context) : path
            return try KeyPathResolver.value(of: b, keyPath: resolved)
        case .function(let selector, let arguments):
            var values: [Any?] = []
            values.reserveCapacity(arguments.count)
            for argument in arguments { values.append(try value(of: argument, object: object, context: &context)) }
            return try BuiltinFunctions.call(selector, values)
        case .customFunction(let receiver, let selector, let arguments):
            let r = try value(of: receiver, object: object, context: &context)
            var values: [Any?] = []
            for argument in arguments { values.append(try value(of: argument, object: object, context: &context)) }
            if let answering = r as? FunctionReceiver,
                let result = try answering.performFunction(selector, arguments: values)
            {
                return result.value
            }
            guard let function = FunctionRegistry.function(for: selector) else {
                throw PredicateError(
                    .unknownFunction,
                    "FUNCTION selector \"\(selector)\" is not registered; register it with FunctionRegistry.register(\"\(selector)\") { receiver, arguments in ... }"
                )
            }
            return try function(r, values)
        case .index(let base, let selector):
            let collection = try value(of: base, object: object, context: &context)
            return try index(collection, selector, object: object, context: &context)
        case .aggregate(let elements):
            var values: [Any] = []
            for element in elements {
                values.append(try value(of: element, object: object, context: &context) ?? NSNull())
            }
            return values
        case .subquery(let collectionExpression, let variable, let predicate):
            let collection = try value(of: collectionExpression, object: object, context: &context)
            guard let collection = unwrapOptional(collection), !isNSNull(collection) else { return nil }
            guard let elements = KeyPathResolver.collectionElements(collection) else {
                throw PredicateError(
                    .invalidOperand,
                    "Can't perform collection evaluate with non-collection object \(describeArgument(collection)) in SUBQUERY"
                )
            }
            var inner = context
            var result: [Any] = []
            for element in elements {
                inner.variables[variable] = element
                if try PredicateEvaluator.evaluate(predicate, object: element, context: &inner) {
                    result.append(element)
                }
            }
            return result
        case .cast(let valueExpression, let typeExpression):
            let v = ValueComparison.normalize(try value(of: valueExpression, object: object, context: &context))
            let t = try value(of: typeExpression, object: object, context: &context)
            return try cast(v, to: t)
        case .conditional(let predicate, let whenTrue, let whenFalse):
            let holds = try PredicateEvaluator.evaluate(predicate, object: object, context: &context)
            return try value(of: holds ? whenTrue : whenFalse, object: object, context: &context)
        case .assignment(let name, let valueExpression):
            let v = try value(of: valueExpression, object: object, context: &context)
            context.variables[name] = v ?? NSNull()
            return v
        }
    }

    /// A key path with each `$name` component (as in `$a.$b`) replaced by the variable's value.
    static func variableKeys(in path: String, fromComponent first: Int, context: EvaluationContext) throws -> String {
        let components = path.split(separator: ".", omittingEmptySubsequences: false)
        return try components.enumerated().map { index, component -> String in
            guard index >= first, component.hasPrefix("$") else { return String(component) }
            let name = String(component.dropFirst())
            guard let value = context.variables[name] else {
                throw PredicateError(
                    .missingVariable,
                    "No value for the substitution variable $\(name): the substitution dictionary must contain a value for every variable in the predicate (pass NSNull() to match nil)"
                )
            }
            return try keyText(unwrapOptional(value), variable: name)
        }.joined(separator: ".")
    }

    /// The key a variable used after a dot stands for: a string, or a number's digits.
    static func keyText(_ value: Any?, variable name: String) throws -> String {
        let normalized = ValueComparison.normalize(value)
        if let s = normalized as? String, !s.isEmpty { return s }
        if let n = normalized.flatMap(Number.init), let i = n.exactInt { return String(i) }
        throw PredicateError(
            .invalidOperand,
            "$\(name) is used as a key after '.', so its value must be a non-empty string, but it is \(describeArgument(value))"
        )
    }

    private static func index(
        _ collection: Any?, _ selector: Expression.IndexSelector, object: Any?, context: inout EvaluationContext
    ) throws -> Any? {
        guard let collection = ValueComparison.normalize(collection) else { return nil }
        if let dictionary = collection as? [String: Any] {
            switch selector {
            case .size: return dictionary.count
            case .first, .last:
                let keys = dictionary.keys.sorted()
                return (selector == .first ? keys.first : keys.last).flatMap { dictionary[$0] }
            case .expression(let e):
                let key = ValueComparison.normalize(try value(of: e, object: object, context: &context))
                let text = key.map { ($0 as? String) ?? String(describing: $0) }
                return text.flatMap { dictionary[$0] }.flatMap(unwrapOptional)
            }
        }
        guard let elements = KeyPathResolver.collectionElements(collection) else {
            throw PredicateError(
                .invalidOperand,
                "The object \(describeArgument(collection)) is NOT a collection. Cannot retrieve item at index")
        }
        switch selector {
        case .first: return elements.first
        case .last: return elements.last
        case .size: return elements.count
        case .expression(let e):
            let i = ValueComparison.normalize(try value(of: e, object: object, context: &context))
            guard let n = i.flatMap(Number.init)?.exactInt else {
                throw PredicateError(
                    .invalidOperand, "An array index must be a whole number, got \(describeArgument(i))")
            }
            guard n >= 0 && n < elements.count else {
                throw PredicateError(
                    .invalidOperand,
                    "Index \(n) is beyond the bounds of an array of \(elements.count) element\(elements.count == 1 ? "" : "s")"
                )
            }
            return elements[n]
        }
    }

    /// CAST(value, "NSDate" | "NSNumber" | "NSString" | "NSDecimalNumber").
    static func cast(_ value: Any?, to type: Any?) throws -> Any? {
        guard let typeName = ValueComparison.normalize(type) as? String else {
            throw PredicateError(.invalidOperand, "CAST needs a type name string, got \(describeArgument(type))")
        }
        guard let value else { return nil }
        switch typeName {
        case "NSDate":
            if let d = value as? Date { return d }
            if let n = Number(value) { return Date(timeIntervalSinceReferenceDate: n.doubleValue) }
        case "NSNumber":
            if let n = Number(value) { return n.any }
            if let d = value as? Date { return d.timeIntervalSinceReferenceDate }
            if let s = value as? String {
                let trimmed = s.trimmingCharacters(in: .whitespaces)
                if let i = Int(trimmed) { return i }
                if let d = Double(trimmed) { return d }
                return 0
            }
        case "NSDecimalNumber":
            if let n = Number(value) { return n.decimalValue }
            if let s = value as? String, let d = Decimal(string: s) { return d }
        case "NSString":
            if let s = value as? String { return s }
            if let n = Number(value) { return PredicatePrinter.format(try ConstantValue(argument: n.any)) }
            return String(describing: value)
        default: break
        }
        throw PredicateError(
            .invalidOperand,
            "Don't know how to cast (\(describeArgument(value))) into type \(typeName); CAST knows NSDate, NSNumber, NSDecimalNumber and NSString"
        )
    }
}
