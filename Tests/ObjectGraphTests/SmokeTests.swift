import ObjectGraph
import Testing

// Apple, Predicate Programming Guide, "Creating Predicates": a format string with arguments.
@Test func formatStringWithArguments() throws {
    let p = try Predicate(checkedFormat: "name LIKE[c] %@ AND age < %@", "jo*", 21)
    #expect(p.predicateFormat == #"name LIKE[c] "jo*" AND age < 21"#)
    #expect(try p.checkedEvaluate(with: ["name": "Joey", "age": 20]))
}
