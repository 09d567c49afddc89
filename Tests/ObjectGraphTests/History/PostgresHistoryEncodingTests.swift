import Foundation
import GRDB
import Testing

@testable import ObjectGraph

/// What the PostgreSQL store writes for persistent history that the SQLite store need not:
/// tombstone values in `bytea` columns, and the NOTIFY channel's name within PostgreSQL's limit.
@Suite("PostgreSQL history encoding")
struct PostgresHistoryEncodingTests {
    @Test("A tombstone value of every storage class comes back as it was; NULL stays NULL")
    func tombstoneValuesRoundTrip() {
        let values: [DatabaseValue] = [
            .null, 0.databaseValue, Int64.min.databaseValue, Int64.max.databaseValue, (-1).databaseValue,
            0.0.databaseValue, (-0.5).databaseValue, Double.greatestFiniteMagnitude.databaseValue,
            Double.infinity.databaseValue,
            "".databaseValue, "Groceries and wine, naïve 🍷".databaseValue,
            Data().databaseValue, Data([0, 1, 2, 255]).databaseValue,
        ]
        for value in values {
            let stored = PostgresTombstone.encode(value)
            if value.isNull {
                #expect(stored.isNull)
            } else {
                #expect(Data.fromDatabaseValue(stored) != nil, "\(value) is kept as bytes")
            }
            #expect(PostgresTombstone.decode(stored) == value, "\(value)")
        }
    }

    @Test("Bytes without a known tag are read as the bytes they are, never dropped")
    func untaggedBytesStay() {
        let foreign = Data([0x7A, 1, 2]).databaseValue
        #expect(PostgresTombstone.decode(foreign) == foreign)
        // A tag with too few bytes for its number is not a number.
        let short = (Data("i".utf8) + Data([1, 2])).databaseValue
        #expect(PostgresTombstone.decode(short) == short)
    }

    @Test(
        "The channel is named after the schema, and stays within PostgreSQL's 63 bytes for long and non-ASCII names, distinct for distinct schemas"
    )
    func channelNames() {
        #expect(PostgresStore.notificationChannel(forSchema: "notes") == "objectgraph notes")
        let long = String(repeating: "é", count: 40)
        let other = String(repeating: "é", count: 41)
        for schema in [long, other, String(repeating: "s", count: 63)] {
            #expect(PostgresStore.notificationChannel(forSchema: schema).utf8.count <= 63, "\(schema)")
        }
        #expect(
            PostgresStore.notificationChannel(forSchema: long) != PostgresStore.notificationChannel(forSchema: other))
    }
}
