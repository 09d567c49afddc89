/// Equality and hashing of predicates and expressions, walked with an explicit stack.
///
/// The compiler's synthesized `==` and `hash(into:)` recurse once per level, so comparing two
/// predicates built through the API 100,000 levels deep overflowed the stack. These walks
/// visit the same parts in the same order without recursing; the results are the synthesized
/// ones' (constants compare as ``ConstantValue`` compares them, arrays element by element).
enum TreeEquality {
    /// One node of a walk.
    enum Node {
        case predicate(Predicate)
        case expression(Expression)
        case constant(ConstantValue)
    }

    /// Whether two trees are equal.
    static func equal(_ lhs: Node, _ rhs: Node) -> Bool {
        var pending: [(Node, Node)] = [(lhs, rhs)]
        while let (a, b) = pending.popLast() {
            switch (a, b) {
            case (.predicate(let p), .predicate(let q)):
                switch (p, q) {
                case (.constant(let x), .constant(let y)): if x != y { return false }
                case (.block(let x), .block(let y)): if x != y { return false }
                case (.comparison(let x), .comparison(let y)):
                    guard x.operatorType == y.operatorType, x.modifier == y.modifier, x.options == y.options else {
                        return false
                    }
                    pending.append((.expression(x.leftExpression), .expression(y.leftExpression)))
                    pending.append((.expression(x.rightExpression), .expression(y.rightExpression)))
                case (.compound(let x), .compound(let y)):
                    guard x.compoundPredicateType == y.compoundPredicateType,
                        x.subpredicates.count == y.subpredicates.count
                    else { return false }
                    for (s, t) in zip(x.subpredicates, y.subpredicates) {
                        pending.append((.predicate(s), .predicate(t)))
                    }
                default: return false
                }
            case (.expression(let e), .expression(let f)):
                guard let children = pairs(e, f) else { return false }
                pending.append(contentsOf: children)
            case (.constant(.array(let x)), .constant(.array(let y))):
                guard x.count == y.count else { return false }
                for (s, t) in zip(x, y) { pending.append((.constant(s), .constant(t))) }
            case (.constant(let x), .constant(let y)):
                if x != y { return false }
            default:
                return false
            }
        }
        return true
    }

    /// The parts of two expressions still to compare, or nil when the expressions differ in
    /// themselves (their case, a name, a selector, a count).
    private static func pairs(_ e: Expression, _ f: Expression) -> [(Node, Node)]? {
        switch (e, f) {
        case (.constant(let x), .constant(let y)):
            return [(.constant(x), .constant(y))]
        case (.evaluatedObject, .evaluatedObject):
            return []
        case (.variable(let x), .variable(let y)), (.keyPath(let x), .keyPath(let y)):
            return x == y ? [] : nil
        case (.member(let x, let p), .member(let y, let q)):
            return p == q ? [(.expression(x), .expression(y))] : nil
        case (.function(let s, let x), .function(let t, let y)):
            return s == t ? elementPairs(x, y) : nil
        case (.customFunction(let r, let s, let x), .customFunction(let q, let t, let y)):
            guard s == t, let rest = elementPairs(x, y) else { return nil }
            return [(.expression(r), .expression(q))] + rest
        case (.index(let x, let s), .index(let y, let t)):
            switch (s, t) {
            case (.first, .first), (.last, .last), (.size, .size):
                return [(.expression(x), .expression(y))]
            case (.expression(let i), .expression(let j)):
                return [(.expression(x), .expression(y)), (.expression(i), .expression(j))]
            default:
                return nil
            }
        case (.aggregate(let x), .aggregate(let y)):
            return elementPairs(x, y)
        case (.subquery(let x, let v, let p), .subquery(let y, let w, let q)):
            return v == w ? [(.expression(x), .expression(y)), (.predicate(p), .predicate(q))] : nil
        case (.cast(let x, let s), .cast(let y, let t)):
            return [(.expression(x), .expression(y)), (.expression(s), .expression(t))]
        case (.conditional(let p, let x, let s), .conditional(let q, let y, let t)):
            return [(.predicate(p), .predicate(q)), (.expression(x), .expression(y)), (.expression(s), .expression(t))]
        case (.assignment(let n, let x), .assignment(let m, let y)):
            return n == m ? [(.expression(x), .expression(y))] : nil
        default:
            return nil
        }
    }

    private static func elementPairs(_ x: [Expression], _ y: [Expression]) -> [(Node, Node)]? {
        guard x.count == y.count else { return nil }
        return zip(x, y).map { (.expression($0), .expression($1)) }
    }

    /// Feeds a tree to a hasher: a tag and the plain fields of each node, in walk order, so
    /// equal trees feed the same sequence.
    static func hash(_ root: Node, into hasher: inout Hasher) {
        var pending: [Node] = [root]
        while let node = pending.popLast() {
            switch node {
            case .predicate(let p):
                switch p {
                case .constant(let value):
                    hasher.combine(0)
                    hasher.combine(value)
                case .block(let block):
                    hasher.combine(1)
                    hasher.combine(block)
                case .comparison(let c):
                    hasher.combine(2)
                    hasher.combine(c.operatorType)
                    hasher.combine(c.modifier)
                    hasher.combine(c.options.rawValue)
                    pending.append(.expression(c.leftExpression))
                    pending.append(.expression(c.rightExpression))
                case .compound(let c):
                    hasher.combine(3)
                    hasher.combine(c.compoundPredicateType)
                    hasher.combine(c.subpredicates.count)
                    for s in c.subpredicates { pending.append(.predicate(s)) }
                }
            case .expression(let e):
                switch e {
                case .constant(let value):
                    hasher.combine(10)
                    pending.append(.constant(value))
                case .evaluatedObject: hasher.combine(11)
                case .variable(let name):
                    hasher.combine(12)
                    hasher.combine(name)
                case .keyPath(let path):
                    hasher.combine(13)
                    hasher.combine(path)
                case .member(let base, let path):
                    hasher.combine(14)
                    hasher.combine(path)
                    pending.append(.expression(base))
                case .function(let selector, let arguments):
                    hasher.combine(15)
                    hasher.combine(selector)
                    hasher.combine(arguments.count)
                    for a in arguments { pending.append(.expression(a)) }
                case .customFunction(let receiver, let selector, let arguments):
                    hasher.combine(16)
                    hasher.combine(selector)
                    hasher.combine(arguments.count)
                    pending.append(.expression(receiver))
                    for a in arguments { pending.append(.expression(a)) }
                case .index(let base, let selector):
                    hasher.combine(17)
                    switch selector {
                    case .first: hasher.combine(0)
                    case .last: hasher.combine(1)
                    case .size: hasher.combine(2)
                    case .expression(let i):
                        hasher.combine(3)
                        pending.append(.expression(i))
                    }
                    pending.append(.expression(base))
                case .aggregate(let elements):
                    hasher.combine(18)
                    hasher.combine(elements.count)
                    for a in elements { pending.append(.expression(a)) }
                case .subquery(let collection, let variable, let predicate):
                    hasher.combine(19)
                    hasher.combine(variable)
                    pending.append(.expression(collection))
                    pending.append(.predicate(predicate))
                case .cast(let value, let type):
                    hasher.combine(20)
                    pending.append(.expression(value))
                    pending.append(.expression(type))
                case .conditional(let predicate, let whenTrue, let whenFalse):
                    hasher.combine(21)
                    pending.append(.predicate(predicate))
                    pending.append(.expression(whenTrue))
                    pending.append(.expression(whenFalse))
                case .assignment(let name, let value):
                    hasher.combine(22)
                    hasher.combine(name)
                    pending.append(.expression(value))
                }
            case .constant(let value):
                if case .array(let elements) = value {
                    hasher.combine(30)
                    hasher.combine(elements.count)
                    for e in elements { pending.append(.constant(e)) }
                } else {
                    hasher.combine(value)
                }
            }
        }
    }
}

extension Predicate {
    /// Whether two predicates are equal, compared without recursion (`TreeEquality`).
    public static func == (lhs: Predicate, rhs: Predicate) -> Bool {
        TreeEquality.equal(.predicate(lhs), .predicate(rhs))
    }

    /// Hashes the whole predicate without recursion.
    public func hash(into hasher: inout Hasher) {
        TreeEquality.hash(.predicate(self), into: &hasher)
    }
}

extension Expression {
    /// Whether two expressions are equal, compared without recursion (`TreeEquality`).
    public static func == (lhs: Expression, rhs: Expression) -> Bool {
        TreeEquality.equal(.expression(lhs), .expression(rhs))
    }

    /// Hashes the whole expression without recursion.
    public func hash(into hasher: inout Hasher) {
        TreeEquality.hash(.expression(self), into: &hasher)
    }
}
