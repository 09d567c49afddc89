import Foundation
import GRDB

/// How an entity's rows are written in Core Data's layout (``RelationalSchema``): the columns
/// of its INSERT, where each takes its value from a row, and Core Data's UPDATE of the changed
/// columns. Every SQL store writes with it; the SQLite store binds it straight into SQLite
/// (``SQLiteWriter``). A class, so handing it to each row's write is a retain, not a copy of
/// its strings and arrays.
final class RelationalWritePlan {
    /// What one column of an entity's INSERT or UPDATE takes from a row.
    enum Source {
        case attribute(index: Int, type: AttributeType)
        /// A transformable attribute: its value's data, from its value transformer.
        case transformable(index: Int, attribute: AttributeDescription)
        case toOne(index: Int)
        case toOneEntity(index: Int)

        /// The property index of the value the column takes.
        var propertyIndex: Int {
            switch self {
            case .attribute(let i, _), .transformable(let i, _), .toOne(let i), .toOneEntity(let i): return i
            }
        }

        /// The value a column takes from a row's values, as the SQL stores keep it (SQLite's, and
        /// PostgreSQL's, whose columns hold the same values).
        func value(in values: [AttributeValue], model: ManagedObjectModel) -> DatabaseValue {
            switch self {
            case .attribute(let index, let type): return RelationalValues.databaseValue(values[index].any, type: type)
            case .transformable(let index, let attribute):
                guard let value = values[index].any else { return .null }
                return ((try? TransformableValues.data(for: value, attribute: attribute)) ?? Data()).databaseValue
            case .toOne(let index): return (values[index].objectID)?.primaryKey.databaseValue ?? .null
            case .toOneEntity(let index):
                return (values[index].objectID).flatMap { model.entitiesByName[$0.entityName]?.entityNumber }?
                    .databaseValue
                    ?? .null
            }
        }
    }

    let entityName: String
    let tableName: String
    let entityNumber: Int
    let columns: [String]
    let sources: [Source]
    /// Built once: rows are written by the thousand.
    let insertSQL: String
    /// The UPDATE of each set of changed properties met so far, built on first use: a
    /// store's saves meet few sets, and rebuilding the SQL per save would cost more than
    /// the row. Saves of one store run one at a time; the lock is for the plan's other users.
    private var updates: [PropertyIndexSet: Update] = [:]
    /// The UPDATE of every column, for rows whose changes are not known.
    private var wholeRowUpdate: Update?
    /// The set asked for last and its UPDATE: saves of an app change the same properties
    /// again and again, and a lookup here is cheaper than hashing the set.
    private var lastUpdate: (changed: PropertyIndexSet, update: Update)?
    private let lock = NSLock()

    init(entityName: String, tableName: String, entityNumber: Int, columns: [String], sources: [Source]) {
        self.entityName = entityName
        self.tableName = tableName
        self.entityNumber = entityNumber
        self.columns = columns
        self.sources = sources
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + columns
        insertSQL =
            "INSERT INTO \(tableName)(\(names.joined(separator: ", "))) VALUES(\(names.map { _ in "?" }.joined(separator: ", ")))"
    }

    /// How many UPDATEs with a column set of their own a plan keeps.
    static let maximumUpdates = 256

    /// The UPDATE that writes the columns of the `changed` properties (every column when
    /// nil) and `Z_OPT`, in Core Data's form: `UPDATE ZTODO SET ZCATEGORY = ?, Z_OPT = ?
    /// WHERE Z_PK = ? AND Z_OPT = ?` (the changed columns in the plan's order, attributes
    /// then to-ones, then the version). A to-one's key and entity columns go together;
    /// derived attributes have no source, the store computes them.
    func update(writing changed: PropertyIndexSet?) -> Update {
        lock.lock()
        defer { lock.unlock() }
        guard let changed else { return wholeRow() }
        if let lastUpdate, lastUpdate.changed == changed { return lastUpdate.update }
        let update: Update
        if let known = updates[changed] {
            update = known
        } else if updates.count >= Self.maximumUpdates {
            // Sets are few in practice; past the limit (many columns changed in ever new
            // combinations) a row is written whole rather than with one more statement
            // kept for the connection's life.
            update = wholeRow()
        } else {
            update = makeUpdate(positions: sources.indices.filter { changed.contains(sources[$0].propertyIndex) })
            updates[changed] = update
        }
        lastUpdate = (changed, update)
        return update
    }

    /// The UPDATE of every column (called with the lock held).
    private func wholeRow() -> Update {
        if let wholeRowUpdate { return wholeRowUpdate }
        let update = makeUpdate(positions: Array(sources.indices))
        wholeRowUpdate = update
        return update
    }

    private func makeUpdate(positions: [Int]) -> Update {
        let sets = positions.map { "\(columns[$0]) = ?" } + ["Z_OPT = ?"]
        // Numbered from 1 (0 is the INSERT's key), the whole-row one included.
        return Update(
            sql: "UPDATE \(tableName) SET \(sets.joined(separator: ", ")) WHERE Z_PK = ? AND Z_OPT = ?",
            positions: positions, number: updates.count + (wholeRowUpdate == nil ? 1 : 2))
    }

    /// One UPDATE of an entity: its SQL and the plan's sources it binds, in order.
    final class Update {
        let sql: String
        /// Positions in the plan's ``RelationalWritePlan/sources`` (and ``RelationalWritePlan/columns``).
        let positions: [Int]
        /// Its number among the plan's updates, from 1, for the writer's statement key.
        let number: Int

        init(sql: String, positions: [Int], number: Int) {
            self.sql = sql
            self.positions = positions
            self.number = number
        }
    }

    /// The plan of an entity's rows in `schema`: its stored attributes, then its to-ones
    /// (with their entity columns), in the entity's property order.
    convenience init(for entity: EntityDescription, schema: RelationalSchema) {
        let mapping = schema.entities[entity.name]!
        var columns: [String] = []
        var sources: [Source] = []
        for (i, a) in entity.attributes.enumerated() {
            // A derived attribute's column is the store's to compute (RelationalDerivedAttributes),
            // never written from the object's value.
            guard let c = mapping.attributeColumns[a.name], !a.isDerived else { continue }
            columns.append(c)
            sources.append(
                a.attributeType == .transformable
                    ? .transformable(index: i, attribute: a) : .attribute(index: i, type: a.attributeType))
        }
        for (n, r) in entity.relationships.enumerated() where !r.isToMany {
            guard let c = mapping.toOneColumns[r.name] else { continue }
            let index = entity.attributes.count + n
            columns.append(c)
            sources.append(.toOne(index: index))
            if let ec = mapping.toOneEntityColumns[r.name] {
                columns.append(ec)
                sources.append(.toOneEntity(index: index))
            }
        }
        self.init(
            entityName: entity.name, tableName: mapping.tableName, entityNumber: entity.entityNumber, columns: columns,
            sources: sources)
    }

    /// The names of the properties whose columns an update changes, from what the save knows:
    /// the changed properties' committed values compared, as the store keeps them, with the
    /// new ones. Needs no connection, so every SQL store asks it.
    func changedProperties(_ properties: UpdatedProperties, to row: StoreRow, model: ManagedObjectModel) -> [String] {
        let committed = properties.committed
        return propertyNames(model: model) { k in
            let source = sources[k]
            guard properties.changed.contains(source.propertyIndex), source.propertyIndex < committed.count else {
                return false
            }
            return source.value(in: committed, model: model) != source.value(in: row.values, model: model)
        }
    }

    /// The names of the properties whose columns an update changes: the row's values compared,
    /// as the store keeps them, with the columns' values `before` it (in ``columns`` order).
    func changedProperties(from before: [DatabaseValue], to row: StoreRow, model: ManagedObjectModel) -> [String] {
        let after = sources.map { $0.value(in: row.values, model: model) }
        return propertyNames(model: model) { k in k < before.count && before[k] != after[k] }
    }

    /// The names of the properties of the plan's sources at which `changed` holds, each once,
    /// in column order.
    private func propertyNames(model: ManagedObjectModel, changed: (Int) -> Bool) -> [String] {
        guard let entity = model.entitiesByName[entityName] else { return [] }
        var names: [String] = []
        for (k, source) in sources.enumerated() where changed(k) {
            let index = source.propertyIndex
            let name =
                index < entity.attributes.count
                ? entity.attributes[index].name : entity.relationships[index - entity.attributes.count].name
            if names.last != name { names.append(name) }
        }
        return names
    }
}
