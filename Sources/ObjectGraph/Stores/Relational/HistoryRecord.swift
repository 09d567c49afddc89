import Foundation
import GRDB

/// The rows one transaction changed, as an SQL store records them in persistent history.
/// Saves fill it from their ``StoreChanges``; a batch request, which writes rows in SQL without
/// objects, fills it from the rows its statements touched.
struct HistoryRecord {
    /// New rows: the entity's number (a sub-entity's own, as `Z_ENT` has it) and `Z_PK`.
    var inserted: [(entityNumber: Int, primaryKey: Int64)] = []
    /// Changed rows, with the names of the properties that changed.
    var updated: [(entityNumber: Int, primaryKey: Int64, changedProperties: [String])] = []
    /// Deleted rows, with the values of their preserved attributes in tombstone order
    /// (``RelationalHistorySchema/preservedAttributes(of:)``), read before the row went.
    var deleted: [(entityNumber: Int, primaryKey: Int64, tombstone: [DatabaseValue])] = []

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
