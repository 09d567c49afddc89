// libFuzzer target for the predicate language, compiled together with
// Sources/ObjectGraph/Predicates/*.swift (they import nothing but Foundation), so it sees the
// module's internals. Built and run by Fuzz/run.sh.
//
// For each input: parse it as a predicate (and as an expression), print it, parse the print
// again and require an equal value and the same print; then evaluate it against a small
// dictionary. Errors thrown are fine; a crash, a hang or a round-trip mismatch is a bug.

import Foundation

/// The object every parsed predicate is evaluated against.
nonisolated(unsafe) let fuzzObject: [String: Any] = [
    "name": "Zoë", "age": 42, "score": 2.5, "flag": true, "none": NSNull(),
    "tags": ["a", "B", "ç"], "numbers": [1, 2, 3, 5, 8], "empty": [Int](),
    "when": Date(timeIntervalSinceReferenceDate: 0),
    "dept": ["name": "R&D", "size": 7, "staff": [["name": "Ann", "age": 30], ["name": "Bob", "age": 51]]],
]

/// Values handed to `%@`, `%K`, `%d` and friends, in turn. All print as text that parses back.
/// Every string is a key path made of C identifiers: `%K` prints its key as given, as Apple
/// does, so a key such as `a"b` or `étrange` prints text that does not parse again.
nonisolated(unsafe) let fuzzArguments: [Any?] = [
    "name", 7, ["a\"b\\c", 1], 2.5, nil, true, ["x", 1], Date(timeIntervalSinceReferenceDate: 86400), -3, "dept.name",
]

func fuzzFail(_ message: String) -> Never {
    FileHandle.standardError.write(("\nFUZZ FAILURE: " + message + "\n").data(using: .utf8)!)
    abort()
}

/// Parses with as many arguments as the format takes: at most one per `%`.
func parseWithArguments<T>(_ format: String, _ parse: (String, [Any?]) throws -> T) -> T? {
    let percents = min(format.reduce(0) { $0 + ($1 == "%" ? 1 : 0) }, 12)
    for count in stride(from: percents, through: 0, by: -1) {
        let arguments = (0..<count).map { fuzzArguments[$0 % fuzzArguments.count] }
        do {
            return try parse(format, arguments)
        } catch let error as PredicateError where error.code == .invalidArgument {
            continue
        } catch let error as PredicateError {
            if !error.message.unicodeScalars.starts(with: "Unable to parse the format string \"".unicodeScalars) && error.code == .unparseable {
                fuzzFail("parse error without Apple's prefix: \(error.message)")
            }
            return nil
        } catch {
            fuzzFail("parse threw a non-PredicateError \(error) for \(format.debugDescription)")
        }
    }
    return nil
}

func checkPredicate(_ format: String) {
    guard let p = parseWithArguments(format, { try Predicate(checkedFormat: $0, argumentArray: $1) }) else { return }
    let printed = p.predicateFormat
    let q: Predicate
    do {
        q = try Predicate(checkedFormat: printed)
    } catch {
        fuzzFail("the print does not parse\n  input:   \(format.debugDescription)\n  printed: \(printed.debugDescription)\n  error:   \(error)")
    }
    if q != p {
        fuzzFail("round trip differs\n  input:   \(format.debugDescription)\n  printed: \(printed.debugDescription)\n  first:   \(p)\n  second:  \(q)")
    }
    if q.predicateFormat != printed {
        fuzzFail("print not stable\n  input: \(format.debugDescription)\n  first:  \(printed.debugDescription)\n  second: \(q.predicateFormat.debugDescription)")
    }
    _ = try? p.checkedEvaluate(with: fuzzObject)
    _ = try? p.checkedEvaluate(with: fuzzObject, substitutionVariables: ["a": 1, "b": "name", "x": [1, 2]])
    _ = try? p.checkedWithSubstitutionVariables(["a": 1, "b": "name", "x": [1, 2]]).checkedEvaluate(with: nil)
}

func checkExpression(_ format: String) {
    guard let e = parseWithArguments(format, { try Expression(checkedFormat: $0, argumentArray: $1) }) else { return }
    let printed = e.description
    do {
        let f = try Expression(checkedFormat: printed)
        if f != e {
            fuzzFail("expression round trip differs\n  input:   \(format.debugDescription)\n  printed: \(printed.debugDescription)")
        }
    } catch {
        fuzzFail("the expression print does not parse\n  input:   \(format.debugDescription)\n  printed: \(printed.debugDescription)\n  error:   \(error)")
    }
    _ = try? e.expressionValue(with: fuzzObject)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func predicateFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let format = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    checkPredicate(format)
    checkExpression(format)
    return 0
}
