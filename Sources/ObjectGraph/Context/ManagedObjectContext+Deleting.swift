import Foundation

/// Deleting objects, with their relationships' delete rules.
extension ManagedObjectContext {
    /// Marks an object deleted; the store forgets it at the next save.
    ///
    /// Delete rules run now: nullify clears the other side, cascade deletes the destination
    /// objects, deny is checked at save (error 1600). An object of another context, or a fault
    /// whose store cannot be read, stops the program, where Apple's raises;
    /// ``checkedDelete(_:)`` throws instead.
    public func delete(_ object: ManagedObject) {
        do { try checkedDelete(object) } catch { ManagedObject.raise(error) }
    }

    /// Marks an object deleted, throwing ``CoreDataError`` for an object of another context or
    /// a fault whose store cannot be read.
    public func checkedDelete(_ object: ManagedObject) throws {
        checkConfinement()
        guard object.managedObjectContext === self else {
            throw CoreDataError(
                exception: .invalidArgument, "\(object.objectID.uriString) is not in this context",
                objectURI: object.objectID.uriString)
        }
        guard !isDeleted(object) else { return }
        try fireFault(object)
        runPrepareForDeletion(object)
        deletedList.append(object)
        events.deleted.append(object)
        for r in object.entity.relationships {
            let i = object.entity.propertyIndex[r.name]!
            let related: [ManagedObject]
            if r.isToMany {
                related = try relatedIDs(of: object, at: i).sorted { $0.primaryKey < $1.primaryKey }.map {
                    registeredObject(for: $0)
                }
            } else {
                related = (try value(of: object, at: i) as? ManagedObject).map { [$0] } ?? []
            }
            switch r.deleteRule {
            case .nullify:
                for target in related where !isDeleted(target) {
                    guard let inverseName = r.inverseName, let inverse = target.entity.relationship(named: inverseName)
                    else { continue }
                    try setPrimitive(target, relationship: inverse.name, add: nil, remove: object)
                }
            case .cascade:
                for target in related where !isDeleted(target) { try checkedDelete(target) }
            case .deny, .noAction:
                break
            }
        }
    }
}
