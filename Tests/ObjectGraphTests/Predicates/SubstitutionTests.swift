import Foundation
import ObjectGraph
import Testing

// Substitution variables ($NAME), reference/predicates.md section 1.6.
// Pages: pCreating, "Creating Predicates Using Predicate Templates"
//   https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/Predicates/Articles/pCreating.html
// and pUsing, "Using Null Values"
//   https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/Predicates/Articles/pUsing.html

private typealias Predicate = ObjectGraph.Predicate
private typealias PredicateError = ObjectGraph.PredicateError

/// The PredicateError an operation throws, or nil.
private func thrownError(_ body: () throws -> Void) -> PredicateError? {
    do {
        try body()
        return nil
    } catch let error as PredicateError { return error } catch { return nil }
}

@Suite("Substitution variables")
struct SubstitutionTests {
    // pCreating, "Creating Predicates Using Predicate Templates": `lastName like[c] $LAST_NAME`
    // with {LAST_NAME: "Turner"} becomes a new predicate with the value as a constant; the
    // template itself is unchanged.
    @Test func withSubstitutionVariablesMakesANewPredicate() throws {
        let template = try Predicate(checkedFormat: "lastName like[c] $LAST_NAME")
        let p = try template.checkedWithSubstitutionVariables(["LAST_NAME": "Turner"])
        #expect(p.predicateFormat == #"lastName LIKE[c] "Turner""#)
        #expect(template.predicateFormat == "lastName LIKE[c] $LAST_NAME")
        #expect(try p.checkedEvaluate(with: ["lastName": "TURNER"]))
        #expect(try !p.checkedEvaluate(with: ["lastName": "Turing"]))
        #expect(p == (try Predicate(checkedFormat: #"lastName LIKE[c] "Turner""#)))
    }

    // pCreating: a template can also be evaluated directly with the variables
    // (evaluateWithObject:substitutionVariables:); the answers match substitution's.
    @Test(arguments: [
        ("age >= $MIN AND age <= $MAX", true),
        ("age > $MAX", false),
        ("name BEGINSWITH[c] $PREFIX", true),
        ("name IN $NAMES", true),
        ("$MIN ** 2 == 324", true),
        ("ANY pets == $PET", true),
        ("TERNARY(age > $MIN, name, 'x') == 'Ann'", true),
        ("SUBQUERY(pets, $p, $p == $PET).@count == 1", true),
        ("$LOOKUP[$KEY] == 'v'", true),
    ])
    func bothWaysAgree(format: String, expected: Bool) throws {
        let variables: [String: Any] = [
            "MIN": 18, "MAX": 65, "PREFIX": "a", "NAMES": ["Ann", "Bob"], "PET": "cat",
            "LOOKUP": ["k": "v"], "KEY": "k",
        ]
        let person: [String: Any] = ["name": "Ann", "age": 30, "pets": ["cat", "dog"]]
        let template = try Predicate(checkedFormat: format)
        #expect(try template.checkedEvaluate(with: person, substitutionVariables: variables) == expected)
        #expect(try template.checkedWithSubstitutionVariables(variables).checkedEvaluate(with: person) == expected)
    }

    // pCreating: "the dictionary must contain key-value pairs for all the variables specified in
    // the predicate". A missing one is code .missingVariable, naming the variable.
    @Test func missingVariableIsAClearError() throws {
        let template = try Predicate(checkedFormat: "lastName == $LAST_NAME AND age > $AGE")
        let substituting = thrownError { _ = try template.checkedWithSubstitutionVariables(["AGE": 3]) }
        #expect(substituting?.code == .missingVariable)
        #expect(substituting?.message.contains("$LAST_NAME") == true)
        let evaluating = thrownError {
            _ = try template.checkedEvaluate(with: ["lastName": "x"], substitutionVariables: ["LAST_NAME": "x"])
        }
        #expect(evaluating?.code == .missingVariable)
        #expect(evaluating?.message.contains("$AGE") == true)
        let noVariables = thrownError { _ = try template.checkedEvaluate(with: ["lastName": "x"]) }
        #expect(noVariables?.code == .missingVariable)
    }

    // pCreating: variables that the predicate does not use are ignored, whatever they hold.
    @Test func unusedVariablesAreIgnored() throws {
        struct NotAConstant {}
        let template = try Predicate(checkedFormat: "a == $A")
        let p = try template.checkedWithSubstitutionVariables(["A": 1, "UNUSED": NotAConstant()])
        #expect(p.predicateFormat == "a == 1")
        #expect(
            try template.checkedEvaluate(with: ["a": 1], substitutionVariables: ["A": 1, "UNUSED": NotAConstant()]))
    }

    // pCreating / pUsing "Using Null Values": to match null, substitute NSNull; `date = $DATE`
    // with {DATE: NSNull} prints `date == <null>`, and matches a missing or null date.
    @Test func nsNullSubstitution() throws {
        let p = try Predicate(checkedFormat: "date = $DATE").checkedWithSubstitutionVariables(["DATE": NSNull()])
        #expect(p.predicateFormat == "date == <null>")
        #expect(try p.checkedEvaluate(with: [String: Any]()))
        #expect(try p.checkedEvaluate(with: ["date": NSNull()]))
        #expect(try !p.checkedEvaluate(with: ["date": Date(timeIntervalSinceReferenceDate: 0)]))
        #expect(
            try Predicate(checkedFormat: "date == $DATE").checkedEvaluate(
                with: [String: Any](), substitutionVariables: ["DATE": NSNull()]))
        // A Swift nil boxed in the dictionary is nil as well.
        let swiftNil = try Predicate(checkedFormat: "date == $DATE").checkedWithSubstitutionVariables([
            "DATE": Optional<Date>.none as Any
        ])
        #expect(swiftNil.predicateFormat == "date == nil")
        #expect(try swiftNil.checkedEvaluate(with: [String: Any]()))
    }

    // pCreating: a variable becomes a constant wherever it stands, even on the left:
    // `$a == 1` with {a: "a"} prints `"a" == 1` (and, a string never equalling a number, is false).
    @Test func variableOnTheLeftBecomesAConstant() throws {
        let template = try Predicate(checkedFormat: "$a == 1")
        let p = try template.checkedWithSubstitutionVariables(["a": "a"])
        #expect(p.predicateFormat == #""a" == 1"#)
        #expect(try !p.checkedEvaluate(with: nil))
        let q = try template.checkedWithSubstitutionVariables(["a": 1])
        #expect(q.predicateFormat == "1 == 1")
        #expect(try q.checkedEvaluate(with: nil))
    }

    // pCreating: values of other kinds print by the predicateFormat rules once substituted.
    @Test func substitutedValuesPrint() throws {
        let p = try Predicate(checkedFormat: "name IN $NAMES AND born < $DATE AND score == $SCORE")
            .withSubstitutionVariables([
                "NAMES": ["Ann", "Bob"], "DATE": Date(timeIntervalSinceReferenceDate: 0), "SCORE": 1.5,
            ])
        #expect(p.predicateFormat == #"name IN {"Ann", "Bob"} AND born < CAST(0.000000, "NSDate") AND score == 1.5"#)
    }

    // NSExpression, init(forSubquery:usingIteratorVariable:predicate:): the SUBQUERY's own
    // variable is bound to each element; substitution leaves it alone even when the
    // dictionary has an entry of that name.
    @Test func subqueryVariableIsNotSubstituted() throws {
        let template = try Predicate(checkedFormat: "SUBQUERY(items, $x, $x.price > $MIN).@count > 0")
        let p = try template.checkedWithSubstitutionVariables(["MIN": 5, "x": 100])
        #expect(p.predicateFormat == "SUBQUERY(items, $x, $x.price > 5).@count > 0")
        let order: [String: Any] = ["items": [["price": 3], ["price": 7]]]
        #expect(try p.checkedEvaluate(with: order))
        #expect(try !p.checkedEvaluate(with: ["items": [["price": 3]]]))
        // At evaluation time too, $x is each element, not the dictionary's 100.
        #expect(try template.checkedEvaluate(with: order, substitutionVariables: ["MIN": 5, "x": 100]))
        #expect(
            try !template.checkedEvaluate(with: ["items": [["price": 3]]], substitutionVariables: ["MIN": 5, "x": 100]))
        // Without MIN it is still missing.
        #expect(thrownError { _ = try template.checkedWithSubstitutionVariables(["x": 1]) }?.code == .missingVariable)
    }

    // pSyntax "Format String Summary": %K is a key path even when it starts with `$`, so it is
    // not a variable and substitution does not touch it.
    @Test func keyPathArgumentIsNotAVariable() throws {
        let p = try Predicate(checkedFormat: "%K LIKE %@", "$single", "x")
        #expect(p.predicateFormat == #"$single LIKE "x""#)
        let substituted = try p.checkedWithSubstitutionVariables(["single": "y"])
        #expect(substituted.predicateFormat == #"$single LIKE "x""#)
        #expect(try substituted.checkedEvaluate(with: ["$single": "x"]))
    }

    // pCreating: substitution reaches into compound predicates, functions, indexes and
    // aggregates.
    @Test func substitutionReachesEveryExpression() throws {
        let template = try Predicate(
            checkedFormat: "(a == $A OR NOT b == $B) AND abs($C) == 2 AND {$A, 2} CONTAINS 1 AND $D[0] == 9")
        let p = try template.checkedWithSubstitutionVariables(["A": 1, "B": 2, "C": -2, "D": [9]])
        #expect(!p.predicateFormat.contains("$"))
        #expect(try p.checkedEvaluate(with: ["a": 1, "b": 2]))
    }
}
