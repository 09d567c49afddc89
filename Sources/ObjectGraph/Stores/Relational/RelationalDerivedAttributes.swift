import Foundation
import GRDB

/// Derived attributes (NSDerivedAttributeDescription) in an SQL store: their values are
/// computed by the store when a save writes, never taken from the objects, as Core Data
/// computes them.
///
/// - The count of a one-to-many (`pages.@count`) is kept by the triggers Core Data itself
///   creates (CoreDataPlus's SampleModel2 store has them, and their SQL is the same here):
///   the count is set when the source row is inserted and moved by one as destination rows
///   come, go or change owner. The triggers call two functions Core Data registers on its
///   connection (`NSCoreDataDATriggerUpdatedAffectedObjectValue`,
///   `NSCoreDataDATriggerInsertUpdatedAffectedObjectValue`) to learn what changed; they are
///   registered here too (doing nothing), so a store Core Data wrote can be written here.
/// - Any other expression Apple allows (a key path, across to-ones or ending in a collection
///   operator over a to-many; `lowercase:`, `uppercase:`, `canonical:` of a key path; `now()`)
///   is computed with one `UPDATE` per derived attribute at the end of each save that wrote
///   rows: of the rows written, or of every row of the entity when the expression follows a
///   relationship (whose other end may have changed). Core Data's own SQL for these is not
///   in any fixture.
///
/// An object in memory keeps the value it had; fetch it again (or refresh it) after a save to
/// see the computed value.
struct RelationalDerivedAttributes {
    /// A derived attribute computed at save.
    struct Computed {
        let entity: EntityDescription
        let attribute: AttributeDescription
        let table: String
        let column: String
        /// The value for the row `t0`, with the joins it needs.
        let value: SQLFragment
        let joins: [String]
        /// Whether the value depends on other rows (it follows a relationship).
        let followsRelationships: Bool
        /// Whether the value is `now()`'s, bound at each save.
        let isNow: Bool
    }

    /// The derived attributes computed at save (the rest are kept by triggers).
    let computed: [Computed]

    /// The one-to-many count a derived attribute is, when Core Data keeps it with triggers:
    /// the destination table and its key column pointing back to the source.
    static func countedOneToMany(
        _ a: AttributeDescription, of entity: EntityDescription, model: ManagedObjectModel, schema: RelationalSchema
    ) -> (table: String, key: String)? {
        guard let e = a.derivationExpression, case .keyPath(let path) = e else { return nil }
        let parts = path.split(separator: ".").map(String.init)
        guard parts.count == 2, parts[1] == "@count", let r = entity.relationship(named: parts[0]), r.isToMany,
            let inverse = model.inverseRelationship(of: r), !inverse.isToMany,
            let destination = schema.entities[r.destinationEntityName],
            let key = destination.toOneColumns[inverse.name]
                ?? model.inverseEntityName(of: r).flatMap({ schema.entities[$0]?.toOneColumns[inverse.name] })
        else { return nil }
        return (destination.tableName, key)
    }

    /// Core Data's five triggers for a counted one-to-many, with its names and SQL.
    static func countTriggers(model: ManagedObjectModel, schema: RelationalSchema) -> [(name: String, sql: String)] {
        var result: [(name: String, sql: String)] = []
        for entity in model.entities {
            for case let a as AttributeDescription in entity.properties where a.isDerived && !a.isTransient {
                guard let (destinationTable, key) = countedOneToMany(a, of: entity, model: model, schema: schema),
                    let mapping = schema.entities[entity.name], let c = mapping.attributeColumns[a.name]
                else { continue }
                let t = mapping.tableName
                let prefix = "Z_DA_\(destinationTable)_\(entity.name)_\(a.name)_PARAMETER"
                func notify(_ row: String) -> String {
                    "SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('\(t)', Z_ENT, Z_PK, '\(a.name)', \(c)) FROM \(t) WHERE Z_PK = \(row).\(key);"
                }
                result.append(
                    (
                        "\(prefix)_INSERT",
                        "CREATE TRIGGER \(prefix)_INSERT AFTER INSERT ON \(destinationTable) FOR EACH ROW WHEN (NEW.\(key) NOT NULL) BEGIN UPDATE \(t) SET \(c) = IFNULL(\(c), 0) + 1 WHERE Z_PK = NEW.\(key); \(notify("NEW")) END"
                    ))
                result.append(
                    (
                        "\(prefix)_UPDATE_INCREMENT",
                        "CREATE TRIGGER \(prefix)_UPDATE_INCREMENT AFTER UPDATE OF \(key) ON \(destinationTable) FOR EACH ROW WHEN (NEW.\(key) NOT NULL) BEGIN UPDATE \(t) SET \(c) = \(c) + 1 WHERE Z_PK = NEW.\(key); \(notify("NEW")) END"
                    ))
                result.append(
                    (
                        "\(prefix)_UPDATE_DECREMENT",
                        "CREATE TRIGGER \(prefix)_UPDATE_DECREMENT AFTER UPDATE OF \(key) ON \(destinationTable) FOR EACH ROW WHEN (OLD.\(key) NOT NULL) BEGIN UPDATE \(t) SET \(c) = \(c) - 1 WHERE Z_PK = OLD.\(key); \(notify("OLD")) END"
                    ))
                result.append(
                    (
                        "\(prefix)_DELETE",
                        "CREATE TRIGGER \(prefix)_DELETE AFTER DELETE ON \(destinationTable) FOR EACH ROW WHEN (OLD.\(key) NOT NULL) BEGIN UPDATE \(t) SET \(c) = \(c) - 1 WHERE Z_PK = OLD.\(key); \(notify("OLD")) END"
                    ))
                let source = "Z_DA_\(t)_\(entity.name)_\(a.name)_SOURCE_INSERT"
                result.append(
                    (
                        source,
                        "CREATE TRIGGER \(source) AFTER INSERT ON \(t) FOR EACH ROW BEGIN UPDATE \(t) SET \(c) = (SELECT IFNULL(COUNT(\(key)), 0) FROM \(destinationTable) WHERE \(key) = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK; SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('\(t)', Z_ENT, Z_PK, '\(a.name)', \(c)) FROM \(t) WHERE Z_PK = NEW.Z_PK; END"
                    ))
            }
        }
        return result
    }

    /// Translates every derived attribute not kept by triggers; throws (when the store is
    /// added, as Core Data does) for an expression the store cannot compute.
    init(model: ManagedObjectModel, schema: RelationalSchema) throws {
        var computed: [Computed] = []
        for entity in model.entities {
            for case let a as AttributeDescription in entity.properties where a.isDerived && !a.isTransient {
                guard let expression = a.derivationExpression, let mapping = schema.entities[entity.name],
                    let column = mapping.attributeColumns[a.name]
                else { continue }
                if Self.countedOneToMany(a, of: entity, model: model, schema: schema) != nil { continue }
                var translator = SQLFetchTranslator(model: model, schema: schema, entity: entity)
                let unsupported = CoreDataError(
                    .persistentStoreIncompatibleSchema,
                    "The derived attribute \(entity.name).\(a.name) has the expression \(VersionHash.derivationFormat(expression)), which the SQLite store cannot compute; Core Data's SQL store takes a key path (with collection operators), lowercase:, uppercase:, canonical: or now()"
                )
                var isNow = false
                let value: SQLFragment
                do {
                    switch expression {
                    case .function("now", let arguments) where arguments.isEmpty:
                        // A placeholder: each save binds its own time (recomputations).
                        value = "\(bind: DatabaseValue.null)"
                        isNow = true
                    case .function(let name, let arguments)
                    where arguments.count == 1 && ["lowercase:", "uppercase:", "canonical:"].contains(name):
                        guard case .value(let v) = try translator.operand(for: arguments[0]) else { throw unsupported }
                        switch name {
                        case "lowercase:": value = "\(raw: SQLiteFunctions.lowercase)(\(v.fragment))"
                        case "uppercase:": value = "\(raw: SQLiteFunctions.uppercase)(\(v.fragment))"
                        default: value = "\(raw: SQLiteFunctions.fold)(\(v.fragment), 3)" // case and diacritics folded
                        }
                    default:
                        guard case .value(let v) = try translator.operand(for: expression) else { throw unsupported }
                        value = v.fragment
                    }
                } catch let error as CoreDataError where error.code == .persistentStoreIncompatibleSchema {
                    throw error
                } catch {
                    throw unsupported
                }
                let follows = Self.keyPaths(in: expression).contains { $0.contains(".") }
                computed.append(
                    Computed(
                        entity: entity, attribute: a, table: mapping.tableName, column: column, value: value,
                        joins: translator.joins, followsRelationships: follows, isNow: isNow))
            }
        }
        self.computed = computed
    }

    /// The key paths an expression reads.
    static func keyPaths(in expression: Expression) -> [String] {
        switch expression {
        case .keyPath(let path): return [path]
        case .function(_, let arguments): return arguments.flatMap(keyPaths)
        default: return []
        }
    }

    /// The statements that compute the derived values a save changes: `written` are the keys
    /// of the rows the save inserted or updated, by entity name. The store runs them, in
    /// order, in the save's transaction.
    func recomputations(written: [String: [Int64]], anyChange: Bool, model: ManagedObjectModel) -> [(
        sql: String, arguments: [DatabaseValue]
    )] {
        guard anyChange else { return [] }
        var statements: [(sql: String, arguments: [DatabaseValue])] = []
        for c in computed {
            // The rows of the entity (and its sub-entities) this save wrote, or all of them.
            let entities = model.entityAndSubentities(of: c.entity.name).map(\.name)
            var condition =
                "Z_ENT IN (\(model.entityAndSubentities(of: c.entity.name).map { String($0.entityNumber) }.joined(separator: ", ")))"
            if !c.followsRelationships {
                let keys = entities.flatMap { written[$0] ?? [] }
                guard !keys.isEmpty else { continue }
                condition += " AND Z_PK IN (\(keys.map(String.init).joined(separator: ", ")))"
            }
            let from = (["\(c.table) t0"] + c.joins).joined(separator: " ")
            let sql =
                "UPDATE \(c.table) SET \(c.column) = (SELECT \(c.value.sql) FROM \(from) WHERE t0.Z_PK = \(c.table).Z_PK) WHERE \(condition)"
            var arguments = c.value.arguments
            if c.isNow { arguments = [Date().timeIntervalSinceReferenceDate.databaseValue] }
            statements.append((sql, arguments))
        }
        return statements
    }
}
