import CoreData
import ObjectGraph
import WorkbookSupport

enum KeysAndValues {
    static func run(_ bench: Workbench) throws {
        let context = try bench.makeContext(model: CompoundingModels.bookstore())
        try SampleData.insertBookstore(into: context)
        // ANCHOR: keys-and-values
        let either = try FetchUtilities.objects(
            forEntityNamed: "Book",
            matchingKeysAndValues: ["publisher.name": "BookCo", "salesRank": 482_769],
            usingOR: true, in: context)
        let both = try FetchUtilities.objects(
            forEntityNamed: "Book",
            matchingKeysAndValues: ["publisher.name": "BookCo", "salesRank": 482_769],
            usingOR: false, in: context)
        // ANCHOR_END: keys-and-values
        // ANCHOR: keys-and-values-predicate
        let orPredicate = try FetchUtilities.predicate(
            matchingKeysAndValues: ["publisher.name": "BookCo", "salesRank": 482_769], usingOR: true)
        let andPredicate = try FetchUtilities.predicate(
            matchingKeysAndValues: ["publisher.name": "BookCo", "salesRank": 482_769], usingOR: false)
        // ANCHOR_END: keys-and-values-predicate
        bench.print("usingOR: true   \(orPredicate.predicateFormat)")
        bench.print("                found \(try SampleData.list(either))")
        bench.print("usingOR: false  \(andPredicate.predicateFormat)")
        bench.print("                found \(try SampleData.list(both))")
        // ANCHOR: keys-and-values-empty
        let noKeysOR = try FetchUtilities.objects(
            forEntityNamed: "Book", matchingKeysAndValues: [:], usingOR: true, in: context)
        let noKeysAND = try FetchUtilities.objects(
            forEntityNamed: "Book", matchingKeysAndValues: [:], usingOR: false, in: context)
        // ANCHOR_END: keys-and-values-empty
        bench.print("With no keys at all, OR finds \(try SampleData.list(noKeysOR)) and AND finds \(noKeysAND.count).")
    }
}
