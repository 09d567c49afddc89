import Foundation

/// Batch requests on the stores that hold everything in memory (in-memory, XML, binary), and
/// the default for any store without SQL of its own: the same meaning as the SQLite store's
/// statements, computed on the store's rows and written as one save. These stores load every
/// row anyway, so no managed object is made; the save is atomic (a file is replaced whole), and
/// rows another writer changed meanwhile are a merge conflict (133020), as for any save.
extension PersistentStoreBackend {
    func batchInsert(
        _ rows: [BatchInsertRow], entity: EntityDescription, mergePolicy: MergePolicyType, model: ManagedObjectModel,
        transaction: HistoryTransactionInfo
    ) throws -> [ManagedObjectID] {
        let constraints = BatchInsertValues.constraints(of: entity, model: model)
        // Stored objects by each constraint's values, read once.
        var stored = [[[AnyHashable]: (id: ManagedObjectID, row: StoreRow)]](repeating: [:], count: constraints.count)
        if !constraints.isEmpty {
            let request = FetchRequest(entityName: model.entitiesByName[entity.rootEntityName]?.name ?? entity.name)
            for row in try fetchRows(request, model: model) {
                for (c, indexes) in constraints.enumerated() {
                    let values = indexes.map { $0 < row.values.count ? row.values[$0].any : nil }
                    guard !values.contains(where: { $0 == nil }) else { continue }
                    let id = ManagedObjectID(
                        entityName: row.entityName, storeIdentifier: identifier, primaryKey: row.primaryKey)
                    stored[c][values.map { $0 as? AnyHashable ?? AnyHashable("\($0!)") }] = (id, row)
                }
            }
        }
        let actions = try BatchInsertConstraints.resolve(rows, entity: entity, model: model, policy: mergePolicy) {
            c, values in
            stored[c][values.map { $0 as? AnyHashable ?? AnyHashable("\($0!)") }]?.id
        }
        var storedRows: [ManagedObjectID: StoreRow] = [:]
        for table in stored { for (id, row) in table.values { storedRows[id] = row } }
        var changes = StoreChanges()
        var updates: [ManagedObjectID] = []
        for case .update(let id, let row) in actions {
            guard var current = storedRows[id] else { continue }
            let expected = current.version
            for i in row.givenAttributes { current.values[i] = AttributeValue(row.values[i]) }
            current.version += 1
            changes.updated.append((current, expected))
            updates.append(id)
        }
        // Keys last: a file store holds its lock from allocating them until the save.
        let insertCount = actions.reduce(0) { n, action in
            if case .insert = action { return n + 1 }
            return n
        }
        let keys = try allocatePrimaryKeys(for: entity, count: insertCount, model: model)
        var ids: [ManagedObjectID] = []
        var k = 0
        var u = 0
        for action in actions {
            switch action {
            case .insert(let row):
                changes.inserted.append(
                    StoreRow(
                        entityName: entity.name, primaryKey: keys[k], version: 1,
                        values: row.values.map(AttributeValue.init)))
                ids.append(ManagedObjectID(entityName: entity.name, storeIdentifier: identifier, primaryKey: keys[k]))
                k += 1
            case .update:
                if u < updates.count {
                    ids.append(updates[u])
                    u += 1
                }
            }
        }
        try save(changes, model: model)
        return ids
    }

    func batchUpdate(
        _ request: BatchUpdateRequest, changes update: BatchUpdateChanges, wantsIDs: Bool, model: ManagedObjectModel,
        transaction: HistoryTransactionInfo
    ) throws -> BatchOutcome {
        let rows = try fetchRows(request.fetchRequest(), model: model)
        var changes = StoreChanges()
        var outcome = BatchOutcome(count: rows.count)
        for row in rows {
            guard let entity = model.entitiesByName[row.entityName] else { continue }
            var changed = row
            for (i, attribute, value) in update.assignments {
                switch value {
                case .constant(let v): changed.values[i] = AttributeValue(v)
                case .expression(let e):
                    let v = try e.expressionValue(with: BatchRowValues(entity: entity, row: row))
                    changed.values[i] = AttributeValue(try BatchUpdateChanges.convert(v, attribute, entity))
                }
            }
            changed.version = row.version + 1
            changes.updated.append((changed, row.version))
            if wantsIDs {
                outcome.ids.append(
                    ManagedObjectID(entityName: row.entityName, storeIdentifier: identifier, primaryKey: row.primaryKey)
                )
            }
        }
        try save(changes, model: model)
        return outcome
    }

    func batchDelete(
        _ targets: BatchDeleteTargets, wantsIDs: Bool, model: ManagedObjectModel, transaction: HistoryTransactionInfo
    ) throws -> BatchOutcome {
        let ids: [ManagedObjectID]
        switch targets {
        case .fetchRequest(let request): ids = try fetchIDs(request, model: model)
        case .objectIDs(let wanted):
            // IDs of objects the store no longer has are left out.
            ids = try rows(for: wanted, model: model).map {
                ManagedObjectID(entityName: $0.entityName, storeIdentifier: identifier, primaryKey: $0.primaryKey)
            }
        }
        let plan = try BatchDeletePlan(targets: ids, model: model) { sources, r in
            if r.isToMany { return try relatedIDs(of: sources, relationship: r, model: model).values.flatMap { $0 } }
            return try rows(for: sources, model: model).compactMap { row in
                model.entitiesByName[row.entityName]?.propertyIndex[r.name].flatMap { row.values[$0].objectID }
            }
        }
        var changes = StoreChanges()
        for row in try rows(for: plan.deleted, model: model) {
            changes.deleted.append(
                (
                    ManagedObjectID(
                        entityName: row.entityName, storeIdentifier: identifier, primaryKey: row.primaryKey),
                    row.version
                ))
        }
        let clears = Dictionary(plan.nullified.map { ($0.id, $0.relationship.name) }, uniquingKeysWith: { a, _ in a })
        for row in try rows(for: plan.nullified.map(\.id), model: model) {
            let id = ManagedObjectID(
                entityName: row.entityName, storeIdentifier: identifier, primaryKey: row.primaryKey)
            guard let name = clears[id], let i = model.entitiesByName[row.entityName]?.propertyIndex[name] else {
                continue
            }
            var changed = row
            changed.values[i] = nil
            changed.version += 1
            changes.updated.append((changed, row.version))
        }
        try save(changes, model: model)
        return BatchOutcome(count: changes.deleted.count, ids: wantsIDs ? changes.deleted.map(\.id) : [])
    }
}

/// A stored row's attributes as a batch update's expressions see them (`salesRank + 1`).
struct BatchRowValues: KeyValueCoding {
    let entity: EntityDescription
    let row: StoreRow

    func checkedValue(forKey key: String) throws -> Any? {
        guard let i = entity.propertyIndex[key], i < entity.attributes.count else {
            throw PredicateError(
                .unknownKey,
                "keypath \(key) not found in entity \(entity.name): a batch update's expression reads the object's attributes"
            )
        }
        return row.values[i].any
    }
}
