import Foundation
import ObjectGraph

// Predicate format strings: `Predicate(checkedFormat:argumentArray:)` and
// `Expression(checkedFormat:argumentArray:)`, the throwing forms for text a program did not
// write itself. A malformed format is a PredicateError with Apple's prefix; whatever parses
// prints as text that parses back to an equal value with the same print; then it is evaluated.

/// The object every parsed predicate is evaluated against.
nonisolated(unsafe) private let fuzzObject: [String: Any] = [
    "name": "Zoë", "age": 42, "score": 2.5, "flag": true, "none": NSNull(),
    "tags": ["a", "B", "ç"], "numbers": [1, 2, 3, 5, 8], "empty": [Int](),
    "when": Date(timeIntervalSinceReferenceDate: 0),
    "dept": ["name": "R&D", "size": 7, "staff": [["name": "Ann", "age": 30], ["name": "Bob", "age": 51]]],
]

/// Values handed to `%@`, `%K`, `%d` and friends, in turn. All print as text that parses back.
/// Every string is a key path made of C identifiers: `%K` prints its key as given, as Apple
/// does, so a key such as `a"b` or `étrange` prints text that does not parse again.
nonisolated(unsafe) private let fuzzArguments: [Any?] = [
    "name", 7, ["a\"b\\c", 1], 2.5, nil, true, ["x", 1], Date(timeIntervalSinceReferenceDate: 86400), -3, "dept.name",
]

/// Why parsing went wrong, or the value, or nil for a proper parse error.
private enum Parsed<T> {
    case value(T)
    case refused
    case finding(String)
}

/// Parses with as many arguments as the format takes: at most one per `%`.
private func parseWithArguments<T>(_ format: String, _ parse: (String, [Any?]) throws -> T) -> Parsed<T> {
    let percents = min(format.reduce(0) { $0 + ($1 == "%" ? 1 : 0) }, 12)
    for count in stride(from: percents, through: 0, by: -1) {
        let arguments = (0..<count).map { fuzzArguments[$0 % fuzzArguments.count] }
        do {
            return .value(try parse(format, arguments))
        } catch let error as ObjectGraph.PredicateError where error.code == .invalidArgument {
            continue
        } catch let error as ObjectGraph.PredicateError {
            if error.code == .unparseable
                && !error.message.unicodeScalars.starts(with: "Unable to parse the format string \"".unicodeScalars)
            {
                return .finding("parse error without Apple's prefix: \(error.message)")
            }
            return .refused
        } catch {
            return .finding("parse threw a non-PredicateError \(error) for \(format.debugDescription)")
        }
    }
    return .refused
}

private func checkPredicate(_ format: String) -> String? {
    let p: ObjectGraph.Predicate
    switch parseWithArguments(format, { try ObjectGraph.Predicate(checkedFormat: $0, argumentArray: $1) }) {
    case .refused: return nil
    case .finding(let finding): return finding
    case .value(let value): p = value
    }
    let printed = p.predicateFormat
    let q: ObjectGraph.Predicate
    do {
        q = try ObjectGraph.Predicate(checkedFormat: printed)
    } catch {
        return
            "the print does not parse\n  input:   \(format.debugDescription)\n  printed: \(printed.debugDescription)\n  error:   \(error)"
    }
    if q != p {
        return
            "round trip differs\n  input:   \(format.debugDescription)\n  printed: \(printed.debugDescription)\n  first:   \(p)\n  second:  \(q)"
    }
    if q.predicateFormat != printed {
        return
            "print not stable\n  input: \(format.debugDescription)\n  first:  \(printed.debugDescription)\n  second: \(q.predicateFormat.debugDescription)"
    }
    _ = try? p.checkedEvaluate(with: fuzzObject)
    _ = try? p.checkedEvaluate(with: fuzzObject, substitutionVariables: ["a": 1, "b": "name", "x": [1, 2]])
    _ = try? p.checkedWithSubstitutionVariables(["a": 1, "b": "name", "x": [1, 2]]).checkedEvaluate(with: nil)
    return nil
}

private func checkExpression(_ format: String) -> String? {
    let e: ObjectGraph.Expression
    switch parseWithArguments(format, { try ObjectGraph.Expression(checkedFormat: $0, argumentArray: $1) }) {
    case .refused: return nil
    case .finding(let finding): return finding
    case .value(let value): e = value
    }
    let printed = e.description
    do {
        let f = try ObjectGraph.Expression(checkedFormat: printed)
        if f != e {
            return
                "expression round trip differs\n  input:   \(format.debugDescription)\n  printed: \(printed.debugDescription)"
        }
    } catch {
        return
            "the expression print does not parse\n  input:   \(format.debugDescription)\n  printed: \(printed.debugDescription)\n  error:   \(error)"
    }
    _ = try? e.expressionValue(with: fuzzObject)
    return nil
}

extension FuzzedReaders {
    /// Predicate and expression format strings.
    static let predicateReader = FuzzedReader(
        name: "predicate",
        summary:
            "predicate format strings: Predicate(checkedFormat:argumentArray:), Expression(checkedFormat:argumentArray:)"
    ) { data, _ in
        let format = String(decoding: data, as: UTF8.self)
        return checkPredicate(format) ?? checkExpression(format)
    }
}
