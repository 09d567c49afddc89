import Foundation

/// One side of a comparison: NSExpression, as a value type.
///
/// Apple's NSExpression has an `expressionType` and a class per type; here each type is a case.
/// Arithmetic (`a + b`) is a ``function(_:_:)`` with Apple's selector (`add:to:`), as in
/// Foundation, and prints infix again.
public indirect enum Expression: Hashable, Sendable {
    /// A constant value: a literal, or a `%@` argument (NSConstantValueExpressionType).
    case constant(ConstantValue)
    /// `SELF`: the object being evaluated (NSEvaluatedObjectExpressionType).
    case evaluatedObject
    /// `$name`: a variable replaced by substitution (NSVariableExpressionType).
    case variable(String)
    /// A key path such as `department.name` or `children.@count`, relative to the evaluated object
    /// (NSKeyPathExpressionType).
    ///
    /// Components are separated by dots.
    case keyPath(String)
    /// A key path applied to the value of another expression: `$x.age`,
    /// `SUBQUERY(...).@count`, `SELF.name`.
    case member(Expression, String)
    /// A built-in function by its selector name (`sum:`, `add:to:`, `now`) and its arguments
    /// (NSFunctionExpressionType).
    case function(String, [Expression])
    /// `FUNCTION(receiver, "selector", arguments...)`: a function registered with
    /// ``FunctionRegistry`` called on a receiver.
    case customFunction(receiver: Expression, selector: String, arguments: [Expression])
    /// `collection[index]`, `[FIRST]`, `[LAST]` or `[SIZE]`.
    case index(Expression, IndexSelector)
    /// `{a, b, c}` whose elements are not all constants (NSAggregateExpressionType).
    ///
    /// The parser turns an aggregate of constants into a constant array.
    case aggregate([Expression])
    /// `SUBQUERY(collection, $variable, predicate)`: the elements for which the predicate
    /// holds (NSSubqueryExpressionType).
    case subquery(collection: Expression, variable: String, predicate: Predicate)
    /// `CAST(value, "type")`, with type `NSDate`, `NSNumber`, `NSString` or
    /// `NSDecimalNumber`.
    case cast(Expression, Expression)
    /// `TERNARY(predicate, trueExpression, falseExpression)` (NSConditionalExpressionType).
    case conditional(Predicate, Expression, Expression)
    /// `$name := expression`: evaluates to the expression's value, which later parts of the
    /// same evaluation can read as `$name`.
    case assignment(String, Expression)

    /// What goes inside the brackets of an index expression.
    public enum IndexSelector: Hashable, Sendable {
        /// `[FIRST]`: the first element.
        case first
        /// `[LAST]`: the last element.
        case last
        /// `[SIZE]`: the number of elements.
        case size
        /// `[expression]`: a number for arrays, a key for dictionaries.
        case expression(Expression)
    }

    /// A constant expression from a Swift value; throws if the value cannot be a constant, or
    /// nests collections deeper than ``Predicate/maximumDepth``.
    public static func constant(value: Any?) throws -> Expression {
        try ArgumentDepth.check(value, limit: Predicate.maximumDepth, describedAs: "the value")
        return .constant(try ConstantValue(argument: value))
    }
}

extension Expression {
    /// Binary operators of the format language and the selectors they stand for.
    static let binaryOperators: [(symbol: String, selector: String)] = [
        ("+", "add:to:"), ("-", "from:subtract:"), ("*", "multiply:by:"), ("/", "divide:by:"),
        ("**", "raise:toPower:"), ("&", "bitwiseAnd:with:"), ("|", "bitwiseOr:with:"),
        ("^", "bitwiseXor:with:"), ("<<", "leftshift:by:"), (">>", "rightshift:by:"),
    ]

    /// The infix symbol for a selector, if the function prints as a binary operator.
    static func binarySymbol(forSelector selector: String) -> String? {
        binaryOperators.first { $0.selector == selector }?.symbol
    }

    /// `lhs + rhs` as Foundation builds it: the function `add:to:`.
    public static func + (lhs: Expression, rhs: Expression) -> Expression { .function("add:to:", [lhs, rhs]) }
    /// `lhs - rhs`: the function `from:subtract:`.
    public static func - (lhs: Expression, rhs: Expression) -> Expression { .function("from:subtract:", [lhs, rhs]) }
    /// `lhs * rhs`: the function `multiply:by:`.
    public static func * (lhs: Expression, rhs: Expression) -> Expression { .function("multiply:by:", [lhs, rhs]) }
    /// `lhs / rhs`: the function `divide:by:`.
    public static func / (lhs: Expression, rhs: Expression) -> Expression { .function("divide:by:", [lhs, rhs]) }
}

extension Expression: CustomStringConvertible {
    /// The expression as Apple's `NSExpression.description` prints it.
    public var description: String { PredicatePrinter.format(self) }
}

extension Expression {
    /// Parses an expression on its own, as `NSExpression(format:)` does; a malformed string
    /// stops the program, as Apple's raises.
    ///
    /// ```swift
    /// let e = Expression(format: "salary * %@", 1.1)
    /// ```
    public init(format: String, _ arguments: Any?...) {
        self.init(format: format, argumentArray: arguments)
    }

    /// Parses an expression with its arguments in an array (NSExpression(format:argumentArray:));
    /// a malformed string stops the program, as Apple's raises.
    public init(format: String, argumentArray arguments: [Any?]) {
        self = raisingAsApple { try Expression(checkedFormat: format, argumentArray: arguments) }
    }

    /// Parses an expression, throwing ``PredicateError`` where Apple's ``init(format:_:)``
    /// raises: the form for strings a program did not write itself.
    public init(checkedFormat format: String, _ arguments: Any?...) throws {
        try self.init(checkedFormat: format, argumentArray: arguments)
    }

    /// Parses an expression with its arguments in an array, throwing ``PredicateError``.
    public init(checkedFormat format: String, argumentArray arguments: [Any?]) throws {
        var parser = try PredicateParser(format: format, arguments: arguments)
        self = try parser.parseStandaloneExpression()
    }

    /// The expression's value for an object, with optional substitution variables.
    ///
    /// Throws ``PredicateError`` for a missing variable, an unknown key on an object, or an
    /// operation the operands do not support, and ``PredicateError/Code/nestedTooDeeply`` for
    /// an expression nested deeper than ``Predicate/maximumDepth``.
    public func expressionValue(with object: Any?, substitutionVariables: [String: Any] = [:]) throws -> Any? {
        try TreeDepth.check(self)
        var context = EvaluationContext(variables: substitutionVariables)
        return try ExpressionEvaluator.value(of: self, object: object, context: &context)
    }
}
