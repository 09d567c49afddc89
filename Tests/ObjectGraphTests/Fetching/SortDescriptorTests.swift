import Foundation
import ObjectGraph
import Testing

// Apple, NSSortDescriptor reference and Core Data Programming Guide, "Fetching Managed
// Objects": sort descriptors apply in order, later ones breaking ties; the SQLite store
// supports compare:, caseInsensitiveCompare: and the localized comparisons.
@Suite struct SortDescriptorTests {
    let people: [[String: Any]] = [
        ["name": "bob", "age": 30],
        ["name": "Alice", "age": 25],
        ["name": "carol", "age": 30],
        ["name": "Bob", "age": 41],
        ["age": 19],
    ]

    func names(_ sorted: [[String: Any]]) -> [String] { sorted.map { $0["name"] as? String ?? "nil" } }

    @Test func compareIsCaseSensitiveByScalar() throws {
        let sorted = try SortDescriptor.sort(people, by: [SortDescriptor(key: "name")])
        // nil first when ascending; upper-case letters before lower-case, as in SQLite BINARY.
        #expect(names(sorted) == ["nil", "Alice", "Bob", "bob", "carol"])
    }

    @Test func caseInsensitiveCompareIsStableForTies() throws {
        let sorted = try SortDescriptor.sort(
            people, by: [SortDescriptor(key: "name", comparator: .caseInsensitiveCompare)])
        #expect(names(sorted) == ["nil", "Alice", "bob", "Bob", "carol"])
    }

    @Test func laterDescriptorsBreakTies() throws {
        let sorted = try SortDescriptor.sort(
            people,
            by: [
                SortDescriptor(key: "age", ascending: false),
                SortDescriptor(key: "name", ascending: true),
            ])
        #expect(names(sorted) == ["Bob", "bob", "carol", "Alice", "nil"])
    }

    @Test func descendingPutsNilLast() throws {
        let sorted = try SortDescriptor.sort(people, by: [SortDescriptor(key: "name", ascending: false)])
        #expect(names(sorted).last == "nil")
        #expect(SortDescriptor(key: "name", ascending: false).reversedSortDescriptor.ascending)
    }

    @Test func printsAsApple() {
        #expect(SortDescriptor(key: "title", ascending: true).description == "(title, ascending, compare:)")
        #expect(
            SortDescriptor(key: "title", ascending: false, comparator: .caseInsensitiveCompare).description
                == "(title, descending, caseInsensitiveCompare:)")
    }

    @Test func localizedStandardCompareOrdersNumbersByValue() {
        #expect(SortDescriptor.compareStrings("file2", "file10", .localizedStandardCompare) == .orderedAscending)
        #expect(SortDescriptor.compareStrings("file2", "file10", .compare) == .orderedDescending)
    }

    @Test func mixedTypesAreAnError() {
        let error = #expect(throws: ObjectGraph.PredicateError.self) {
            _ = try SortDescriptor.sort([["v": 1], ["v": "one"]] as [[String: Any]], by: [SortDescriptor(key: "v")])
        }
        #expect(error?.message.contains("no common order") == true)
    }
}
