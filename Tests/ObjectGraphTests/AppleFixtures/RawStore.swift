import Foundation
import GRDB
import ObjectGraph

/// A store file read with the test's own SQL, not the store's code: what the acceptance tests
/// compare ObjectGraph's answers with. Names follow Core Data's rules as the fixtures show
/// them (coredata.md section 4), worked out here independently of `RelationalSchema`.
struct RawStore {
    let queue: DatabaseQueue
    /// Z_PRIMARYKEY: Z_ENT by Z_NAME.
    let entityNumbers: [String: Int]

    init(_ url: URL) throws {
        var configuration = Configuration()
        configuration.readonly = true
        queue = try DatabaseQueue(path: url.path, configuration: configuration)
        entityNumbers = try queue.read { db in
            Dictionary(
                try Row.fetchAll(db, sql: "SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY").map {
                    ($0[0] as String, $0[1] as Int)
                }, uniquingKeysWith: { a, _ in a })
        }
    }

    func close() { try? queue.close() }

    /// An entity's Z_ENT: by its name in Z_PRIMARYKEY, or by the name it had (Core Data keeps
    /// a renamed entity's old name there: SampleModel_V2's LuxuryCar is ExpensiveSportCar).
    func number(of entity: EntityDescription) -> Int? {
        entityNumbers[entity.name] ?? entity.renamingIdentifier.flatMap { entityNumbers[$0] }
    }

    /// The table of an entity: its root's name, upper-cased, after Z.
    static func table(of entity: String, in model: ManagedObjectModel) -> String {
        var root = entity
        while let parent = model.entitiesByName[root]?.parentEntityName { root = parent }
        return "Z" + root.uppercased()
    }

    /// Every row of exactly this entity (not its sub-entities), by Z_PK.
    func rows(of entity: EntityDescription, in model: ManagedObjectModel) throws -> [Int64: Row] {
        guard let n = number(of: entity) else { return [:] }
        let table = Self.table(of: entity.name, in: model)
        return try queue.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db, sql: "SELECT * FROM \(table) WHERE Z_ENT = ?", arguments: [n]
                ).map { ($0["Z_PK"] as Int64, $0) })
        }
    }

    /// The keys at the other end of a to-many relationship of the object `key`: through the
    /// destination's key column (one-to-many) or the join table (many-to-many), whose columns
    /// are `Z_<entity><INVERSE>` for the source and `Z_<destination><NAME>` for the
    /// destination, whichever side names the table.
    func toManyKeys(
        of key: Int64, entity: EntityDescription, relationship r: RelationshipDescription, model: ManagedObjectModel
    ) throws -> Set<Int64> {
        guard let inverse = model.inverseRelationship(of: r),
            let destination = model.entitiesByName[r.destinationEntityName]
        else { return [] }
        if !inverse.isToMany {
            let table = Self.table(of: destination.name, in: model)
            return try queue.read { db in
                Set(
                    try Int64.fetchAll(
                        db, sql: "SELECT Z_PK FROM \(table) WHERE Z\(inverse.name.uppercased()) = ?", arguments: [key]))
            }
        }
        guard let mine = number(of: entity), let theirs = number(of: destination) else { return [] }
        let source = "Z_\(mine)\(inverse.name.uppercased())"
        let target = "Z_\(theirs)\(r.name.uppercased())"
        let candidates = ["Z_\(mine)\(r.name.uppercased())", "Z_\(theirs)\(inverse.name.uppercased())"]
        return try queue.read { db in
            for table in candidates where try db.tableExists(table) {
                return Set(
                    try Int64.fetchAll(db, sql: "SELECT \(target) FROM \(table) WHERE \(source) = ?", arguments: [key]))
            }
            return []
        }
    }

    /// A column's value as the attribute type says Core Data stores it: seconds since 2001 for
    /// dates, 16 bytes for UUIDs, text for URIs, the REAL's shortest text for decimals.
    static func value(_ dbValue: DatabaseValue, type: AttributeType) -> Any? {
        switch dbValue.storage {
        case .null: return nil
        case .int64(let i):
            switch type {
            case .boolean: return i != 0
            case .double, .float: return Double(i)
            case .date: return Date(timeIntervalSinceReferenceDate: Double(i))
            case .decimal: return Decimal(i)
            default: return Int(i)
            }
        case .double(let d):
            switch type {
            case .date: return Date(timeIntervalSinceReferenceDate: d)
            case .decimal: return Decimal(string: "\(d)")
            default: return d
            }
        case .string(let s): return type == .uri ? URL(string: s) : s
        case .blob(let data):
            if type == .uuid, data.count == 16 {
                let b = [UInt8](data)
                return UUID(
                    uuid: (
                        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                        b[15]
                    ))
            }
            return data
        }
    }
}
