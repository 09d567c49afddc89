import Foundation
import ObjectGraphPostgres
import TestSupport
import Testing

@testable import ObjectGraph

/// The store types whose SQL a suite runs against: the fetch and migration suites take one as
/// an argument (`@Test(arguments: StoreKind.allCases)`), so each test runs on SQLite and on
/// PostgreSQL with the same body.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// The store type.
    var storeType: StoreType { self == .sqlite ? .sqlite : .postgres }

    /// A description of a new, empty store of this kind for one test: the file `name` in
    /// `directory` for SQLite; for PostgreSQL a schema of its own on the test process's server
    /// (``PostgresTestServer``). Nil, having said why, when PostgreSQL is not installed (and
    /// not required: on CI that throws).
    func newStore(in directory: TemporaryDirectory, name: String = "Store.sqlite", test: String = #function) throws
        -> PersistentStoreDescription?
    {
        switch self {
        case .sqlite:
            return PersistentStoreDescription(type: .sqlite, url: directory.file(name))
        case .postgres:
            guard let url = try PostgresTestServer.url(schema: PostgresTestServer.uniqueSchema(), for: test) else {
                return nil
            }
            return .postgres(url: url)
        }
    }

    /// The same store again (another coordinator, or after a migration): the description
    /// `first` made by ``newStore(in:name:test:)``, with the same URL.
    static func sameStore(as first: PersistentStoreDescription) -> PersistentStoreDescription {
        let description = PersistentStoreDescription(type: first.type, url: first.url)
        description.connectionPoolSize = first.connectionPoolSize
        return description
    }
}
