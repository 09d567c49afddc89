import Foundation
import GRDB
import ObjectGraph

/// fetch-100k and insert-100k through a class, as an application that declares its entity's
/// class (Xcode's "Class Definition" codegen) reads and writes: `Book.fetchRequest()` and typed
/// properties instead of `value(forKey:)`, `Book(context:)` and typed setters instead of
/// `setValue(_:forKey:)`. Same store, same rows, same baselines as StoreWorkloads.swift.
let typedWorkloads: [Workload] = [
    Workload(
        name: "fetch-100k-typed",
        summary: "fetch-100k through Book.fetchRequest() and @Managed properties; target: <= 1.5x raw",
        run: runTypedFetch),
    Workload(
        name: "insert-100k-typed",
        summary: "insert-100k through Book(context:) and @Managed setters, one save; target: <= 1.5x raw",
        run: runTypedInsert),
]

/// The Book entity as a class, with the types Xcode generates for its attributes (scalars on).
/// It overrides no `validateValue(_:forKey:)`, and says so, as a class may
/// (``ManagedObject/validatesEachKey``).
final class Book: ManagedObject {
    override class var validatesEachKey: Bool { false }
    @Managed("title") var title: String?
    @Managed("author") var author: String?
    @Managed("salesRank") var salesRank: Int32
    @Managed("price") var price: Double
    @Managed("published") var published: Date?
    @Managed("inPrint") var inPrint: Bool
}

/// Adds a book's six attributes to a checksum, read through its typed properties. title,
/// author and published are required or always set here; the fallbacks would change the
/// checksum, so a nil is caught by the comparison with the baselines.
@inline(__always)
private func add(_ book: Book, to sum: inout Checksum) {
    sum.add(
        title: book.title ?? "", author: book.author ?? "", salesRank: Int(book.salesRank), price: book.price,
        published: book.published ?? .distantPast, inPrint: book.inPrint)
}

// MARK: fetch-100k-typed

private func runTypedFetch(_ settings: BenchSettings) throws -> WorkloadResult {
    let count = rowCount(settings)
    let store = try FilledStore(count: count, bookClass: Book.self)
    defer { try? store.close() }
    var sums = [Checksum](repeating: Checksum(), count: 3)
    let timings = try interleavedMedians(
        settings,
        [
            (
                "ours",
                {
                    // A new context each time, so every object is new to it, as in a first fetch.
                    let context = ManagedObjectContext(coordinator: store.coordinator)
                    return try timed {
                        var sum = Checksum()
                        let books: [Book] = try context.fetch(Book.fetchRequest())
                        for book in books { add(book, to: &sum) }
                        sums[0] = sum
                        return books
                    }.seconds
                }
            ),
            ("raw", { try store.timedRawFetch(into: &sums[1]) }),
            ("grdb", { try store.timedGRDBFetch(into: &sums[2]) }),
        ])
    try checkAgree("fetch-100k-typed", settings, sums, expectedRows: count)
    return result(
        timings, unit: "s per fetch of \(count) rows", targets: [("raw", 1.5)],
        details: [("rows", String(count)), ("repetitions", String(settings.repetitions))])
}

// MARK: insert-100k-typed

private func runTypedInsert(_ settings: BenchSettings) throws -> WorkloadResult {
    let count = rowCount(settings)
    let books = Books.make(count: count)
    var stores = try InsertStores(
        workload: "insert-100k-typed", books: books, model: try Books.model(bookClass: Book.self))
    defer { stores.remove() }
    let timings = try interleavedMedians(
        settings,
        [
            (
                "ours",
                {
                    try stores.runOurs { context in
                        for b in books {
                            let book = Book(context: context)
                            book.title = b.title
                            book.author = b.author
                            book.salesRank = Int32(b.salesRank)
                            book.price = b.price
                            book.published = b.published
                            book.inPrint = b.inPrint
                        }
                    }
                }
            ),
            ("raw", { try stores.runRaw() }),
        ])
    return WorkloadResult(
        ours: timings[0], baselines: [("raw", timings[1])], unit: "s per insert of \(count) rows",
        details: [("rows", String(count)), ("repetitions", String(settings.repetitions))],
        targets: [(baseline: "raw", maximumRatio: 1.5)])
}
