import Foundation

/// Collapsing a duplicate into the object that stays for a constraint's values: whatever
/// pointed at the duplicate points at the survivor, so that a merge policy's resolution of a
/// constraint conflict loses no relationship and leaves no reference dangling
/// (NSMergePolicy, resolve(constraintConflicts:)).
extension ManagedObjectContext {
    /// Moves a duplicate's relationships to the survivor, inverses included: its to-many
    /// members join the survivor's (and their to-one or many-to-many inverses name the
    /// survivor), and a to-one target passes to the survivor where the survivor has none, or
    /// always when `takesItsToOne`. What the survivor does not take is unlinked, as a
    /// deletion's nullify would, and so is everything when there is no survivor. References
    /// through relationships without an inverse are redirected too.
    func moveReferences(from duplicate: ManagedObject, to survivor: ManagedObject?, takesItsToOne: Bool) throws {
        try fireFault(duplicate)
        let entity = duplicate.entity
        let sameEntity = survivor.map { $0.entity.name == entity.name } ?? false
        for (n, r) in entity.relationships.enumerated() {
            let i = entity.attributes.count + n
            if r.isToMany {
                let members =
                    r.isOrdered ? try orderedIDs(of: duplicate, at: i) : Array(try relatedIDs(of: duplicate, at: i))
                guard !members.isEmpty else { continue }
                // Unlink from the duplicate first, so a many-to-many member drops it from its
                // inverse before it gains the survivor.
                try setValue([ManagedObject](), of: duplicate, at: i)
                guard let survivor, sameEntity else { continue }
                let kept =
                    r.isOrdered ? try orderedIDs(of: survivor, at: i) : Array(try relatedIDs(of: survivor, at: i))
                let keptSet = Set(kept)
                // An ordered relationship keeps the survivor's order and appends the duplicate's.
                let added = r.isOrdered ? members : members.sorted { $0.primaryKey < $1.primaryKey }
                let joined = kept + added.filter { !keptSet.contains($0) }
                try setValue(joined.map { registeredObject(for: $0) }, of: survivor, at: i)
            } else {
                guard i < duplicate.storage.count, let target = duplicate.storage[i].objectID else { continue }
                try setValue(nil, of: duplicate, at: i)
                guard let survivor, sameEntity else { continue }
                try fireFault(survivor)
                let current = survivor.storage[i].objectID
                if current == nil || takesItsToOne {
                    try setValue(registeredObject(for: target), of: survivor, at: i)
                }
            }
        }
        try redirectOneWayReferences(from: duplicate, to: survivor)
    }

    /// Relationships declared without an inverse that point at the duplicate, in objects this
    /// context holds: they point at the survivor (or at nothing) instead. Only objects in
    /// memory can hold a new duplicate's temporary ID.
    private func redirectOneWayReferences(from duplicate: ManagedObject, to survivor: ManagedObject?) throws {
        let id = duplicate.objectID
        let oneWay = model.entities.contains { e in
            e.relationships.contains {
                $0.inverseName == nil && model.isEntity(duplicate.entity.name, kindOf: $0.destinationEntityName)
            }
        }
        guard oneWay else { return }
        let replacement = survivor.flatMap { model.isEntity($0.entity.name, kindOf: duplicate.entity.name) ? $0 : nil }
        for object in Array(registered.values) where !object.isFault && object !== duplicate && !isDeleted(object) {
            for (n, r) in object.entity.relationships.enumerated() where r.inverseName == nil {
                let i = object.entity.attributes.count + n
                guard i < object.storage.count else { continue }
                if r.isToMany {
                    guard let ids = object.storage[i].objectIDs, ids.contains(id) else { continue }
                    var objects = ids.filter { $0 != id }.map { registeredObject(for: $0) }
                    if let replacement, !ids.contains(replacement.objectID) { objects.append(replacement) }
                    try setValue(objects, of: object, at: i)
                } else if object.storage[i].objectID == id {
                    try setValue(replacement, of: object, at: i)
                }
            }
        }
    }
}
