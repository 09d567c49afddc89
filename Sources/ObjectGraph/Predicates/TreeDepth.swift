import Foundation

/// How deeply a predicate nests, for the parser's limit (``PredicateParser/maximumDepth``) and
/// the limit on predicates built through the API (``Predicate/maximumDepth``).
///
/// Each predicate, expression and constant collection is one level; a constant expression
/// and its value share one, and so do the links of an AND or OR chain (an AND directly inside
/// an AND is one level in meaning, `CompoundPredicate.chainTerms`). The walks use an explicit stack, so measuring a
/// tree of any
/// depth never recurses: a predicate nested 100,000 levels deep is measured, then refused.
enum TreeDepth {
    /// One node of a walk.
    private enum Node {
        case predicate(Predicate)
        case expression(Expression)
        case constant(ConstantValue)
    }

    /// The number of levels of the predicate's deepest branch.
    static func depth(of predicate: Predicate) -> Int { depth(from: .predicate(predicate)) }

    /// The number of levels of the expression's deepest branch.
    static func depth(of expression: Expression) -> Int { depth(from: .expression(expression)) }

    /// Whether the predicate nests more than `limit` levels deep.
    static func exceeds(_ limit: Int, _ predicate: Predicate) -> Bool { depth(of: predicate) > limit }

    /// Whether the expression nests more than `limit` levels deep.
    static func exceeds(_ limit: Int, _ expression: Expression) -> Bool { depth(of: expression) > limit }

    /// Throws unless the predicate fits within ``Predicate/maximumDepth``: the check that
    /// evaluation, printing and the SQLite translation rely on, since they recurse.
    static func check(_ predicate: Predicate) throws {
        let depth = depth(of: predicate)
        if depth > Predicate.maximumDepth { throw tooDeep(depth, what: "The predicate") }
    }

    /// Throws unless the expression fits within ``Predicate/maximumDepth``.
    static func check(_ expression: Expression) throws {
        let depth = depth(of: expression)
        if depth > Predicate.maximumDepth { throw tooDeep(depth, what: "The expression") }
    }

    /// The error for a tree `depth` levels deep, naming the limit.
    static func tooDeep(_ depth: Int, what: String) -> PredicateError {
        PredicateError(
            .nestedTooDeeply,
            "\(what) nests \(depth) levels deep, more than the \(Predicate.maximumDepth) levels a predicate may nest (Predicate.maximumDepth); build it flatter (an AND inside an AND and an OR inside an OR add no level; a NOT, an AND inside an OR, a function or a subquery each add one)"
        )
    }

    private static func depth(from root: Node) -> Int {
        var deepest = 0
        var stack: [(node: Node, level: Int)] = [(root, 1)]
        while let (node, level) = stack.popLast() {
            deepest = max(deepest, level)
            let inner = level + 1
            switch node {
            case .predicate(let predicate):
                switch predicate {
                case .constant, .block: break
                case .comparison(let c):
                    stack.append((.expression(c.leftExpression), inner))
                    stack.append((.expression(c.rightExpression), inner))
                case .compound(let c):
                    // A chain's terms are all one level below it, however the chain nests.
                    for term in c.chainTerms { stack.append((.predicate(term), inner)) }
                }
            case .expression(let expression):
                switch expression {
                case .constant(let value):
                    // The constant's own level is the expression's.
                    if value.isCollection { stack.append((.constant(value), level)) }
                case .evaluatedObject, .variable, .keyPath: break
                case .member(let base, _): stack.append((.expression(base), inner))
                case .function(_, let arguments), .aggregate(let arguments):
                    for a in arguments { stack.append((.expression(a), inner)) }
                case .customFunction(let receiver, _, let arguments):
                    stack.append((.expression(receiver), inner))
                    for a in arguments { stack.append((.expression(a), inner)) }
                case .index(let base, let selector):
                    stack.append((.expression(base), inner))
                    if case .expression(let e) = selector { stack.append((.expression(e), inner)) }
                case .subquery(let collection, _, let predicate):
                    stack.append((.expression(collection), inner))
                    stack.append((.predicate(predicate), inner))
                case .cast(let value, let type):
                    stack.append((.expression(value), inner))
                    stack.append((.expression(type), inner))
                case .conditional(let predicate, let whenTrue, let whenFalse):
                    stack.append((.predicate(predicate), inner))
                    stack.append((.expression(whenTrue), inner))
                    stack.append((.expression(whenFalse), inner))
                case .assignment(_, let value): stack.append((.expression(value), inner))
                }
            case .constant(let value):
                switch value {
                case .array(let elements): for e in elements { stack.append((.constant(e), inner)) }
                case .set(let elements): for e in elements { stack.append((.constant(e), inner)) }
                case .dictionary(let d): for e in d.values { stack.append((.constant(e), inner)) }
                default: break
                }
            }
        }
        return deepest
    }
}

extension ConstantValue {
    /// Whether the constant holds other constants (an array, a set or a dictionary).
    var isCollection: Bool {
        switch self {
        case .array, .set, .dictionary: return true
        default: return false
        }
    }
}

/// How deeply a Swift value given as a `%@` argument or substitution value nests arrays, sets
/// and dictionaries, measured before it is converted to a ``ConstantValue`` (which recurses).
enum ArgumentDepth {
    /// Throws ``PredicateError/Code/nestedTooDeeply`` when `value` nests more than `limit`
    /// levels (a value that is no collection is one level); `argument` names it in the message.
    static func check(_ value: Any?, limit: Int, describedAs argument: String) throws {
        let depth = depth(of: value)
        guard depth > limit else { return }
        throw PredicateError(
            .nestedTooDeeply,
            "\(argument) nests collections \(depth) levels deep, more than the \(limit) levels a predicate may hold")
    }

    /// The number of levels of the value's deepest branch, walked with an explicit stack.
    static func depth(of value: Any?) -> Int {
        var deepest = 0
        var stack: [(value: Any, level: Int)] = []
        if let value = unwrapOptional(value) { stack.append((value, 1)) } else { return 1 }
        while let (value, level) = stack.popLast() {
            deepest = max(deepest, level)
            guard let children = elements(of: value) else { continue }
            for child in children {
                guard let child = unwrapOptional(child) else { continue }
                // Plain values need no cast and no push: only collections go deeper.
                if isScalar(child) {
                    deepest = max(deepest, level + 1)
                    continue
                }
                stack.append((child, level + 1))
            }
        }
        return deepest
    }

    /// Whether the value is of a common type that holds no other values: a test of the type's
    /// identity, so that a large flat array of strings or numbers costs no cast per element.
    @inline(__always)
    private static func isScalar(_ value: Any) -> Bool {
        let t = type(of: value)
        return t == String.self || t == Int.self || t == Double.self || t == Bool.self || t == Date.self
            || t == Decimal.self
    }

    /// The elements of the collections ``ConstantValue/init(argument:describedAs:)`` converts
    /// element by element; nil for anything else.
    private static func elements(of value: Any) -> [Any?]? {
        if isScalar(value) { return nil }
        switch value {
        case is ConstantValue, is PredicateArgumentConvertible: return nil
        case let a as [Any?]: return a
        case let a as [Any]: return a
        case let s as Set<AnyHashable>: return s.map { $0.base }
        case let d as [String: Any?]: return Array(d.values)
        case let d as [String: Any]: return Array(d.values)
        default: return nil
        }
    }
}
