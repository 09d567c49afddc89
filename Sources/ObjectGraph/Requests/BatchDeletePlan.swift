import Foundation

/// What a batch delete removes, found by following the relationships' delete rules from the
/// objects it was asked to delete, before anything is written: the objects (the targets and
/// whatever Cascade reaches) and the related objects whose to-one inverse Nullify clears.
/// A Deny relationship that still reaches an object outside the deletion fails the plan with
/// 1600 (NSValidationRelationshipDeniedDeleteError).
struct BatchDeletePlan {
    /// Every object to delete, targets first, then cascaded ones in the order reached.
    private(set) var deleted: [ManagedObjectID] = []
    /// Related objects that stay, with the to-one relationship (their side) to set to nil.
    private(set) var nullified: [(id: ManagedObjectID, relationship: RelationshipDescription)] = []

    /// The store's answer to "which objects does this relationship of these objects reach".
    typealias Related = (_ ids: [ManagedObjectID], _ relationship: RelationshipDescription) throws -> [ManagedObjectID]

    init(targets: [ManagedObjectID], model: ManagedObjectModel, related: Related) throws {
        var seen = Set<ManagedObjectID>()
        deleted = targets.filter { seen.insert($0).inserted }
        var denied: [(source: String, relationship: RelationshipDescription, reached: [ManagedObjectID])] = []
        var nullifyCandidates: [(reached: [ManagedObjectID], inverse: RelationshipDescription)] = []
        var level = deleted
        while !level.isEmpty {
            var next: [ManagedObjectID] = []
            // One question per entity and relationship, in a stable order.
            let groups = Dictionary(grouping: level, by: \.entityName).sorted { $0.key < $1.key }
            for (entityName, ids) in groups {
                guard let entity = model.entitiesByName[entityName] else { continue }
                for r in entity.relationships where r.deleteRule != .noAction && !r.isTransient {
                    switch r.deleteRule {
                    case .cascade:
                        for id in try related(ids, r) where seen.insert(id).inserted { next.append(id) }
                    case .deny:
                        denied.append((entityName, r, try related(ids, r)))
                    case .nullify:
                        // Only a to-one inverse is stored on the other objects' side; a to-many
                        // inverse is a join-table link (removed with the row) or this row's own key.
                        guard let inverse = model.inverseRelationship(of: r), !inverse.isToMany else { continue }
                        nullifyCandidates.append((try related(ids, r), inverse))
                    case .noAction:
                        break
                    }
                }
            }
            deleted += next
            level = next
        }
        for (source, r, reached) in denied {
            if let kept = reached.first(where: { !seen.contains($0) }) {
                let remaining = reached.filter { !seen.contains($0) }.count
                throw CoreDataError(
                    .relationshipDeniedDelete,
                    "The batch delete of \(source) objects is denied: \(source).\(r.name) uses the Deny rule and still reaches \(remaining) object\(remaining == 1 ? "" : "s") that would remain, such as \(kept.uriString). Nothing was deleted",
                    objectURI: kept.uriString, key: r.name)
            }
        }
        var cleared = Set<ManagedObjectID>()
        for (reached, inverse) in nullifyCandidates {
            for id in reached where !seen.contains(id) && cleared.insert(id).inserted {
                nullified.append((id, inverse))
            }
        }
    }
}
