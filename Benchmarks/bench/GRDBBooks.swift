import Foundation
import GRDB

/// The GRDB baseline: a Codable record on Core Data's table, fetched and inserted with GRDB's
/// record protocols, as a GRDB user would write it.
struct GRDBBook: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = Books.table
    /// Core Data stores dates as seconds since 2001-01-01.
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSinceReferenceDate
    }
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSinceReferenceDate
    }

    var primaryKey: Int64
    var entity: Int64
    var version: Int64
    var title: String
    var author: String
    var salesRank: Int
    var price: Double
    var published: Date
    var inPrint: Bool

    enum CodingKeys: String, CodingKey {
        case primaryKey = "Z_PK"
        case entity = "Z_ENT"
        case version = "Z_OPT"
        case title = "ZTITLE"
        case author = "ZAUTHOR"
        case salesRank = "ZSALESRANK"
        case price = "ZPRICE"
        case published = "ZPUBLISHED"
        case inPrint = "ZINPRINT"
    }

    /// The columns of Core Data's table.
    enum Columns {
        static let title = Column(CodingKeys.title)
        static let salesRank = Column(CodingKeys.salesRank)
    }

    /// A new row for `values`.
    init(primaryKey: Int64, values: BookValues) {
        self.primaryKey = primaryKey
        entity = Books.entityNumber
        version = 1
        title = values.title
        author = values.author
        salesRank = values.salesRank
        price = values.price
        published = values.published
        inPrint = values.inPrint
    }

    /// A connection to a store file with ObjectGraph's settings (WAL, synchronous NORMAL).
    static func open(_ url: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.journalMode = .wal
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }
}
