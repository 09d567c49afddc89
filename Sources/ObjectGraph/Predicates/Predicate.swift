import Foundation

/// A logical condition on an object: NSPredicate, as a value type.
///
/// ```swift
/// let p = Predicate(format: "name LIKE[c] %@ AND age < %@", "jo*", 21)
/// p.predicateFormat                                   // name LIKE[c] "jo*" AND age < 21
/// p.evaluate(with: ["name": "Joey", "age": 20])     // true
/// ```
///
/// Predicates "don't know or care one whit about the entities they are being used to
/// retrieve": the same value filters dictionaries in memory and runs as SQL in a store.
///
/// In a file that imports both Foundation and ObjectGraph, a bare type annotation
/// `Predicate` is ambiguous with Foundation's macro type; write `ObjectGraph.Predicate`.
public enum Predicate: Hashable, Sendable {
    /// `TRUEPREDICATE` or `FALSEPREDICATE` (NSPredicate(value:)).
    case constant(Bool)
    /// A comparison of two expressions.
    case comparison(ComparisonPredicate)
    /// AND, OR or NOT of other predicates.
    case compound(CompoundPredicate)
    /// A predicate written as a Swift closure.
    ///
    /// It evaluates in memory; a SQLite store refuses it, as Core Data's does.
    case block(BlockPredicate)

    /// `TRUEPREDICATE`.
    public static let truePredicate = Predicate.constant(true)
    /// `FALSEPREDICATE`.
    public static let falsePredicate = Predicate.constant(false)

    /// The deepest predicate that evaluates, prints in full and runs in a store: 500 levels,
    /// counting each predicate, expression and constant collection as one. An AND directly
    /// inside an AND (an OR inside an OR) adds no level: such a chain, as folding predicates
    /// one at a time builds it, is one level in meaning and may be any length.
    ///
    /// Evaluating, printing and translating to SQL recurse once per level (and walk a chain's
    /// terms in a loop); the limit keeps
    /// that recursion within 2 MB of stack even in a debug build (a Linux thread has 8 MB), and
    /// the SQL within SQLite's own limit of 1,000 nested expressions. A predicate built through the API beyond it is
    /// refused with
    /// ``PredicateError/Code/nestedTooDeeply`` (by ``evaluate(with:)``, by a SQLite fetch as
    /// the exception NSInvalidArgumentException), never a crash, and ``predicateFormat`` prints its first 500 levels
    /// and a marker.
    /// The parser's own limit, 100 levels, is lower.
    public static let maximumDepth = 500

    /// NSPredicate(value:): a predicate that always evaluates to `value`.
    public init(value: Bool) { self = .constant(value) }

    /// Parses a format string, substituting the arguments for `%@`, `%K`, `%d` and friends
    /// (NSPredicate(format:)); a malformed string stops the program, as Apple's raises.
    ///
    /// ```swift
    /// let p = Predicate(format: "%K BEGINSWITH[c] %@ AND salesRank < %d", "title", "fetch", 1000)
    /// p.predicateFormat   // title BEGINSWITH[c] "fetch" AND salesRank < 1000
    /// ```
    ///
    /// Pass values as arguments rather than pasting them into the string: `%@` quotes a string
    /// correctly whatever it holds, and `%K` names a key. The grammar, operators and options are
    /// in <doc:PredicateFormatStringReference>.
    ///
    /// Apple's initializer raises NSInvalidArgumentException for a malformed string, which ends
    /// a Swift program; this one ends it with the same message (the ``PredicateError`` that
    /// ``init(checkedFormat:_:)`` throws). For a string the program did not write itself (a
    /// user's search, a file), use ``init(checkedFormat:_:)``.
    public init(format: String, _ arguments: Any?...) {
        self.init(format: format, argumentArray: arguments)
    }

    /// Parses a format string with its arguments in an array (NSPredicate(format:argumentArray:));
    /// a malformed string stops the program, as Apple's raises.
    public init(format: String, argumentArray arguments: [Any?]) {
        self = raisingAsApple { try Predicate(checkedFormat: format, argumentArray: arguments) }
    }

    /// Parses a format string and throws what Apple's ``init(format:_:)`` raises: the form for
    /// strings a program did not write itself.
    ///
    /// ```swift
    /// let p = try Predicate(checkedFormat: userText)
    /// ```
    ///
    /// - Throws: ``PredicateError``, never a crash:
    ///   - ``PredicateError/Code/unparseable`` for a malformed string. The message begins
    ///     `Unable to parse the format string "..."`, as Apple's does, then gives the offset, the
    ///     token found, what was expected and a caret under the spot:
    ///     ```
    /// Unable to parse the format string "name BEGINSWITH": at offset 15, found the end of the string, expected an
    /// expression
    ///         name BEGINSWITH
    ///                        ^
    ///     ```
    ///   - ``PredicateError/Code/invalidArgument`` for too few or too many arguments, `%K` given
    ///     something other than a string, or a value that cannot be a constant.
    public init(checkedFormat format: String, _ arguments: Any?...) throws {
        try self.init(checkedFormat: format, argumentArray: arguments)
    }

    /// Parses a format string with its arguments in an array, throwing ``PredicateError``.
    public init(checkedFormat format: String, argumentArray arguments: [Any?]) throws {
        var parser = try PredicateParser(format: format, arguments: arguments)
        self = try parser.parseStandalonePredicate()
    }

    /// A predicate from a Swift closure over the evaluated object and the substitution
    /// variables (NSPredicate(block:)).
    public init(block: @escaping @Sendable (Any?, [String: Any]) -> Bool) {
        self = .block(BlockPredicate(block))
    }

    /// An AND compound predicate (NSCompoundPredicate andPredicateWithSubpredicates:).
    ///
    /// With no subpredicates it is true.
    public static func and(_ subpredicates: [Predicate]) -> Predicate {
        .compound(CompoundPredicate(unchecked: .and, subpredicates))
    }

    /// An OR compound predicate (orPredicateWithSubpredicates:).
    ///
    /// With no subpredicates it is false.
    public static func or(_ subpredicates: [Predicate]) -> Predicate {
        .compound(CompoundPredicate(unchecked: .or, subpredicates))
    }

    /// A NOT compound predicate of one subpredicate (notPredicateWithSubpredicate:).
    public static func not(_ subpredicate: Predicate) -> Predicate {
        .compound(CompoundPredicate(unchecked: .not, [subpredicate]))
    }

    /// The format string Apple's `predicateFormat` prints for this predicate.
    ///
    /// A predicate nested deeper than ``maximumDepth`` prints its first levels, then
    /// `<nested deeper than 500 levels: not printed>` where the rest would be: the property
    /// cannot throw, and a printout that stops visibly is more use than none.
    public var predicateFormat: String { PredicatePrinter.format(self) }

    /// Whether the predicate holds for an object: a dictionary, an array, a plain value
    /// (as `SELF`), or anything adopting ``KeyValueCoding`` (evaluateWithObject:).
    ///
    /// What Apple raises (an unknown key, a missing substitution variable, an invalid regular
    /// expression, operands the operator cannot compare) stops the program with its message;
    /// ``checkedEvaluate(with:)`` throws it instead.
    public func evaluate(with object: Any?) -> Bool {
        evaluate(with: object, substitutionVariables: [:])
    }

    /// Evaluates with values for the predicate's `$variables`
    /// (evaluateWithObject:substitutionVariables:); stops the program where Apple raises.
    public func evaluate(with object: Any?, substitutionVariables: [String: Any]) -> Bool {
        raisingAsApple { try checkedEvaluate(with: object, substitutionVariables: substitutionVariables) }
    }

    /// Whether the predicate holds for an object, throwing what Apple's ``evaluate(with:)``
    /// raises.
    ///
    /// Throws ``PredicateError`` for a missing substitution variable, an unknown key on an
    /// object, an invalid regular expression or operands the operator cannot compare.
    ///
    /// A predicate nested deeper than ``maximumDepth`` throws ``PredicateError/Code/nestedTooDeeply``.
    public func checkedEvaluate(with object: Any?) throws -> Bool {
        try checkedEvaluate(with: object, substitutionVariables: [:])
    }

    /// Evaluates with values for the predicate's `$variables`, throwing ``PredicateError``.
    public func checkedEvaluate(with object: Any?, substitutionVariables: [String: Any]) throws -> Bool {
        try TreeDepth.check(self)
        var context = EvaluationContext(variables: substitutionVariables)
        return try PredicateEvaluator.evaluate(self, object: object, context: &context)
    }

    /// A copy with each `$variable` replaced by its value as a constant
    /// (withSubstitutionVariables(_:)); a variable the dictionary lacks stops the program, as
    /// Apple's raises, and ``checkedWithSubstitutionVariables(_:)`` throws instead.
    public func withSubstitutionVariables(_ variables: [String: Any]) -> Predicate {
        raisingAsApple { try checkedWithSubstitutionVariables(variables) }
    }

    /// A copy with each `$variable` replaced by its value as a constant
    /// (predicateWithSubstitutionVariables:).
    ///
    /// Apple: "the dictionary must contain key-value pairs for all the variables specified in
    /// the predicate". A missing one throws ``PredicateError`` with code `.missingVariable`.
    /// Variables bound by a SUBQUERY or an assignment stay variables. A predicate deeper than
    /// ``maximumDepth``, or a value nesting collections deeper, throws
    /// ``PredicateError/Code/nestedTooDeeply``.
    public func checkedWithSubstitutionVariables(_ variables: [String: Any]) throws -> Predicate {
        try TreeDepth.check(self)
        var substitution = try Substitution(variables: variables)
        return try substitution.apply(to: self)
    }
}

extension Predicate: CustomStringConvertible {
    /// The same text as ``predicateFormat``.
    public var description: String { predicateFormat }
}

/// A predicate written as a Swift closure (NSPredicate(block:)).
///
/// It is equal only to itself, and prints `BLOCKPREDICATE(<number>)`, where Apple prints an
/// address: the number counts the block predicates made in this process.
public struct BlockPredicate: Hashable, Sendable {
    /// The closure, given the evaluated object and the substitution variables.
    public let block: @Sendable (Any?, [String: Any]) -> Bool
    /// A number that identifies this block within the process.
    public let identifier: Int

    private static let counter = AtomicCounter()

    /// Wraps a closure.
    public init(_ block: @escaping @Sendable (Any?, [String: Any]) -> Bool) {
        self.block = block
        self.identifier = BlockPredicate.counter.next()
    }

    public static func == (lhs: BlockPredicate, rhs: BlockPredicate) -> Bool { lhs.identifier == rhs.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}

/// A thread-safe counter.
final class AtomicCounter: Sendable {
    private let value = Lock(0)
    /// The next number: 1, 2, 3, ...
    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
