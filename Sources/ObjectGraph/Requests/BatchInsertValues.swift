import Foundation

/// One object of a batch insert, checked against the model: its values by property index (to
/// a store row's layout, relationships nil) and which attributes its dictionary gave.
struct BatchInsertRow {
    /// Values by property index, defaults filled in where the dictionary had no value.
    var values: [Any?]
    /// The attribute indexes the dictionary named: what an upsert by property writes.
    var givenAttributes: [Int]
}

/// Checks a batch insert's dictionaries against an entity and turns them into rows, before
/// anything is written: unknown keys, relationships, values of the wrong type and missing
/// mandatory attributes are errors naming the entity, the key and the dictionary's index.
struct BatchInsertValues {
    let entity: EntityDescription
    let model: ManagedObjectModel

    func rows(for dictionaries: [[String: Any]]) throws -> [BatchInsertRow] {
        guard !entity.isAbstract else {
            throw CoreDataError(
                exception: .invalidArgument, "Cannot batch insert objects of \(entity.name): it is an abstract entity")
        }
        var defaults = [Any?](repeating: nil, count: entity.propertyNames.count)
        for (i, a) in entity.attributes.enumerated() where a.defaultValue != nil && !a.isTransient {
            defaults[i] = a.defaultConstant?.runtimeValue
        }
        var rows: [BatchInsertRow] = []
        rows.reserveCapacity(dictionaries.count)
        for (n, dictionary) in dictionaries.enumerated() {
            var values = defaults
            var given: [Int] = []
            for (key, value) in dictionary {
                guard let i = entity.propertyIndex[key] else {
                    throw CoreDataError(
                        exception: .invalidArgument,
                        "The batch insert of \(entity.name) has an unknown key \"\(key)\" in the dictionary at index \(n): \(entity.name) has no property of that name",
                        key: key)
                }
                guard i < entity.attributes.count else {
                    throw CoreDataError(
                        exception: .invalidArgument,
                        "The batch insert of \(entity.name) sets the relationship \"\(key)\" in the dictionary at index \(n): a batch insert sets attributes only, as Core Data's does",
                        key: key)
                }
                let a = entity.attributes[i]
                if a.isTransient || a.isDerived { continue }
                do {
                    values[i] = try AttributeValue.convert(value, for: a, entity: entity.name)
                } catch let error as CoreDataError {
                    throw CoreDataError(
                        error.kind,
                        "The batch insert of \(entity.name) has a bad value for \"\(key)\" in the dictionary at index \(n): \(error.message)",
                        key: key)
                }
                given.append(i)
            }
            for (i, a) in entity.attributes.enumerated()
            where !a.isOptional && !a.isTransient && !a.isDerived && values[i] == nil {
                throw CoreDataError(
                    .missingMandatoryProperty,
                    "The batch insert of \(entity.name) has no value for the mandatory attribute \"\(a.name)\" in the dictionary at index \(n); nothing was inserted",
                    key: a.name)
            }
            rows.append(BatchInsertRow(values: values, givenAttributes: given.sorted()))
        }
        return rows
    }

    /// The entity's uniqueness constraints, its ancestors' included, as attribute indexes.
    static func constraints(of entity: EntityDescription, model: ManagedObjectModel) -> [[Int]] {
        var result: [[Int]] = []
        var current: EntityDescription? = entity
        while let e = current {
            for constraint in e.uniquenessConstraints where !constraint.isEmpty {
                let indexes = constraint.compactMap { entity.propertyIndex[$0] }
                if indexes.count == constraint.count { result.append(indexes) }
            }
            current = e.parentEntityName.flatMap { model.entitiesByName[$0] }
        }
        return result
    }
}
