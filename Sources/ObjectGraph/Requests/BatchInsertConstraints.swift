import Foundation

/// What a batch insert does with objects that share a uniqueness constraint's values, with
/// each other or with a stored object, under the inserting context's merge policy:
///
/// - `.error`: the request fails with 133021 (NSManagedObjectConstraintMergeError) and nothing
///   is written;
/// - `.mergeByPropertyObjectTrump`: the values the later dictionary gives replace the stored
///   (or earlier) object's, the rest are kept: an upsert, as apps use batch insert to import;
/// - `.overwrite`: the later object replaces the stored one whole, keeping its identity;
/// - `.mergeByPropertyStoreTrump`, `.rollback`: the stored (or earlier) object is kept as it is.
struct BatchInsertConstraints {
    /// A new object to insert, or new values for a stored one.
    enum Action {
        case insert(BatchInsertRow)
        case update(ManagedObjectID, BatchInsertRow)
    }

    /// The stored object holding a constraint's values, if any: asked per constraint and key.
    typealias Lookup = (_ constraint: Int, _ values: [Any?]) throws -> ManagedObjectID?

    /// The actions for the rows, in the rows' order (duplicates folded into the first).
    static func resolve(
        _ rows: [BatchInsertRow], entity: EntityDescription, model: ManagedObjectModel,
        policy: MergePolicyType, lookup: Lookup
    ) throws -> [Action] {
        let constraints = BatchInsertValues.constraints(of: entity, model: model)
        guard !constraints.isEmpty else { return rows.map { .insert($0) } }
        var actions: [Action] = []
        // Per constraint: the key of each value tuple seen, to the action that holds it.
        var seen = [[[AnyHashable]: Int]](repeating: [:], count: constraints.count)
        for (n, row) in rows.enumerated() {
            var target: (action: Int?, stored: ManagedObjectID?, constraint: Int)?
            for (c, indexes) in constraints.enumerated() {
                let values = indexes.map { row.values[$0] }
                // A nil value matches nothing, as SQL's UNIQUE lets NULLs repeat.
                guard !values.contains(where: { $0 == nil }) else { continue }
                let key = values.map { $0 as? AnyHashable ?? AnyHashable("\($0!)") }
                if let earlier = seen[c][key] {
                    target = (earlier, nil, c)
                    break
                }
                if let stored = try lookup(c, values) {
                    target = (nil, stored, c)
                    break
                }
            }
            guard let target else {
                for (c, indexes) in constraints.enumerated() {
                    let values = indexes.map { row.values[$0] }
                    if !values.contains(where: { $0 == nil }) {
                        seen[c][values.map { $0 as? AnyHashable ?? AnyHashable("\($0!)") }] = actions.count
                    }
                }
                actions.append(.insert(row))
                continue
            }
            let names = constraints[target.constraint].map { entity.propertyNames[$0] }
            switch policy {
            case .error:
                let with =
                    target.stored.map { "the stored object \($0.uriString)" } ?? "an earlier dictionary of the request"
                throw CoreDataError(
                    .constraintMerge,
                    "The batch insert of \(entity.name) breaks the uniqueness constraint (\(names.joined(separator: ", "))): the dictionary at index \(n) has the values of \(with). Nothing was inserted; set the context's mergePolicy to mergeByPropertyObjectTrump to update the stored object instead",
                    objectURI: target.stored?.uriString, key: names.first)
            case .mergeByPropertyStoreTrump, .rollback:
                continue
            case .mergeByPropertyObjectTrump, .overwrite:
                if let i = target.action {
                    // Folded into the earlier object of the request.
                    switch actions[i] {
                    case .insert(let earlier):
                        actions[i] = .insert(merge(row, into: earlier, whole: policy == .overwrite))
                    case .update(let id, let earlier):
                        actions[i] = .update(id, merge(row, into: earlier, whole: policy == .overwrite))
                    }
                } else if let stored = target.stored {
                    var update = row
                    if policy == .overwrite {
                        update.givenAttributes = Array(
                            entity.attributes.indices.filter {
                                !entity.attributes[$0].isTransient && !entity.attributes[$0].isDerived
                            })
                    }
                    for (c, indexes) in constraints.enumerated() {
                        let values = indexes.map { row.values[$0] }
                        if !values.contains(where: { $0 == nil }) {
                            seen[c][values.map { $0 as? AnyHashable ?? AnyHashable("\($0!)") }] = actions.count
                        }
                    }
                    actions.append(.update(stored, update))
                }
            }
        }
        return actions
    }

    /// A later row's values over an earlier one's: the ones it gives, or all of them.
    private static func merge(_ later: BatchInsertRow, into earlier: BatchInsertRow, whole: Bool) -> BatchInsertRow {
        if whole {
            return BatchInsertRow(
                values: later.values,
                givenAttributes: Array(Set(later.givenAttributes + earlier.givenAttributes)).sorted())
        }
        var merged = earlier
        for i in later.givenAttributes { merged.values[i] = later.values[i] }
        merged.givenAttributes = Array(Set(earlier.givenAttributes + later.givenAttributes)).sorted()
        return merged
    }
}
