import Foundation
import ObjectGraph

/// The data the store workloads share: a Book entity of six attributes, rows generated from
/// a fixed seed, and the Core Data table (`ZBOOK`) that all three implementations read and
/// write, so that they do the same work on the same file layout.
enum Books {
    /// Inserts the books into a context, one managed object each, as an app would.
    static func insert(_ books: [BookValues], into context: ManagedObjectContext) throws {
        for b in books {
            let book = try context.insertNewObject(forEntityName: entityName)
            try book.checkedSetValue(b.title, forKey: "title")
            try book.checkedSetValue(b.author, forKey: "author")
            try book.checkedSetValue(b.salesRank, forKey: "salesRank")
            try book.checkedSetValue(b.price, forKey: "price")
            try book.checkedSetValue(b.published, forKey: "published")
            try book.checkedSetValue(b.inPrint, forKey: "inPrint")
        }
    }

    /// The entity's name, and its table and columns as Core Data lays them out.
    static let entityName = "Book"
    static let table = "ZBOOK"
    static let columns = ["ZTITLE", "ZAUTHOR", "ZSALESRANK", "ZPRICE", "ZPUBLISHED", "ZINPRINT"]
    /// Z_ENT of Book in `model()` (its only entity).
    static let entityNumber: Int64 = 1

    /// The model: title, author, salesRank, price, published, inPrint. `bookClass` is the class
    /// its objects are made of: the typed workloads name ``Book`` (the class is not part of the
    /// version hash, so both models open the same store).
    static func model(bookClass: ManagedObject.Type = ManagedObject.self) throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Book", class: bookClass) {
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("author", .string, optional: false)
                AttributeDescription("salesRank", .integer32)
                AttributeDescription("price", .double)
                AttributeDescription("published", .date)
                AttributeDescription("inPrint", .boolean)
            }
        }
    }

    /// Title words: a title starts with one of these, in one of three cases, so a
    /// case-insensitive prefix test of one word matches a tenth of the rows.
    static let words = [
        "Fetch", "Clarus", "Predicate", "Context", "Store", "Model", "Entity", "Graph", "Query", "Index",
    ]
    /// Sales ranks are uniform in 0..<rankRange.
    static let rankRange = 100_000

    /// `count` books from a fixed seed.
    static func make(count: Int, seed: UInt64 = 7) -> [BookValues] {
        var rng = SplitMix64(seed: seed)
        let letters = Array("abcdefghijklmnopqrstuvwxyz ")
        let authors = (0..<500).map { "Author \($0)" }
        var books: [BookValues] = []
        books.reserveCapacity(count)
        for _ in 0..<count {
            var word = words[Int(rng.next() % UInt64(words.count))]
            switch rng.next() % 3 {
            case 0: word = word.lowercased()
            case 1: word = word.uppercased()
            default: break
            }
            var title = word + " "
            for _ in 0..<(8 + Int(rng.next() % 16)) { title.append(letters[Int(rng.next() % UInt64(letters.count))]) }
            books.append(
                BookValues(
                    title: title,
                    author: authors[Int(rng.next() % UInt64(authors.count))],
                    salesRank: Int(rng.next() % UInt64(rankRange)),
                    price: Double(rng.next() % 10_000) / 100,
                    published: Date(timeIntervalSinceReferenceDate: Double(rng.next() % 700_000_000)),
                    inPrint: rng.next() % 2 == 0))
        }
        return books
    }

    /// An empty store file at `url`, created by ObjectGraph (tables, Z_PRIMARYKEY, Z_METADATA,
    /// WAL mode), then closed.
    static func createEmptyStore(at url: URL) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        try coordinator.remove(store)
    }

    /// A store file at `url` holding `books`, written with the raw C API (fast to set up) and
    /// Z_MAX set as ObjectGraph would set it.
    static func createFilledStore(at url: URL, books: [BookValues]) throws {
        try createEmptyStore(at: url)
        let db = try RawDatabase(path: url.path)
        try RawBooks.insert(books, into: db, firstKey: 1)
        try db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(books.count) WHERE Z_ENT = \(entityNumber)")
        db.close()
    }
}

/// One book's values, as the baselines hold them.
struct BookValues: Sendable, Equatable {
    var title: String
    var author: String
    var salesRank: Int
    var price: Double
    var published: Date
    var inPrint: Bool
}

/// A number that depends on every attribute of every row read, so that all three
/// implementations can be checked to have read the same data, and none can skip the reads.
struct Checksum: Equatable, CustomStringConvertible {
    private(set) var value: Int = 0
    private(set) var rows: Int = 0

    mutating func add(title: String, author: String, salesRank: Int, price: Double, published: Date, inPrint: Bool) {
        value =
            value &+ title.utf8.count &+ author.utf8.count &* 3 &+ salesRank &* 5
            &+ Int(price * 100) &* 7 &+ Int(published.timeIntervalSinceReferenceDate) &+ (inPrint ? 11 : 0)
        rows += 1
    }

    var description: String { "\(rows) rows, checksum \(value)" }
}

/// A fresh temporary directory, removed with everything in it by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
