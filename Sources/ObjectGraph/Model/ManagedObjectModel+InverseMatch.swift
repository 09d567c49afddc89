import Foundation

extension ManagedObjectModel {
    /// A relationship's named inverse when it exists but does not point back: its destination
    /// is not (a kind of) `entity`, which declares or inherits `r`, its own inverse is not `r`,
    /// or it is not on (a kind of) `r`'s destination. Nil when it points back, or when `r` names no inverse
    /// or one that does not exist.
    ///
    /// One rule for the model's check (which refuses such a relationship) and the Xcode model
    /// reader (which loads it without an inverse, as a file Core Data loads). `entities` are
    /// the declared entities by name: inherited properties are found through their parents.
    static func unmatchedInverse(
        of r: RelationshipDescription, heldBy entity: String, in entities: [String: EntityDescription]
    ) -> (entity: String, relationship: RelationshipDescription)? {
        guard r.inverseName != nil, let (owner, inverse) = inverse(of: r, in: entities) else { return nil }
        func isKind(_ name: String, of ancestor: String) -> Bool {
            var current: String? = name
            var seen: Set<String> = []
            while let c = current, seen.insert(c).inserted {
                if c == ancestor { return true }
                current = entities[c]?.parentEntityName
            }
            return false
        }
        let onDestination = isKind(owner, of: r.destinationEntityName) || isKind(r.destinationEntityName, of: owner)
        let pointsBack = isKind(entity, of: inverse.destinationEntityName) && inverse.inverseName == r.name
        return onDestination && pointsBack ? nil : (owner, inverse)
    }
}
