import Foundation
import GRDB

/// A piece of SQL with the values bound to its `?` placeholders, in order.
struct SQLFragment {
    var sql: String
    var arguments: [DatabaseValue] = []
}

/// Translates the predicate and sort descriptors of one fetch into SQL over the store's
/// tables. The fetched entity's table is aliased `t0`; key paths across to-one relationships
/// add joins (`t1`, `t2`, ...), which ``joins`` collects for the FROM clause.
///
/// What SQL cannot express fails with the error Core Data's SQLite store raises
/// (reference/coredata.md 3.3), never with a silent in-memory fallback.
struct SQLFetchTranslator {
    let model: ManagedObjectModel
    let schema: SQLiteSchema
    let entity: EntityDescription
    /// JOIN clauses needed by the key paths translated so far, in order.
    private(set) var joins: [String] = []

    init(model: ManagedObjectModel, schema: SQLiteSchema, entity: EntityDescription) {
        self.model = model
        self.schema = schema
        self.entity = entity
    }

    /// A boolean SQL expression that is never NULL and is true exactly when the in-memory
    /// evaluator says the predicate holds.
    mutating func condition(for predicate: Predicate) throws -> SQLFragment {
        switch predicate {
        case .constant(let value):
            return SQLFragment(sql: value ? "1" : "0")
        default:
            throw CoreDataError(.unsupportedOperation, "unimplemented SQL generation for predicate : (\(predicate.predicateFormat))")
        }
    }

    /// ORDER BY terms for sort descriptors.
    mutating func orderingTerms(for sortDescriptors: [SortDescriptor]) throws -> [String] {
        try sortDescriptors.map { descriptor in
            guard let column = schema.entities[entity.name]?.attributeColumns[descriptor.key] else {
                throw CoreDataError(.unsupportedOperation, "keypath \(descriptor.key) not found in entity \(entity.name)")
            }
            return "t0.\(column)" + (descriptor.ascending ? "" : " DESC")
        }
    }
}

/// Functions and collations the store registers on its connection so SQL gives the same
/// answers as the evaluator.
enum SQLiteFunctions {
    /// Registers every function and collation on a connection.
    static func register(on db: Database) {}
}
