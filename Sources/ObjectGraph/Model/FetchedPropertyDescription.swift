import Foundation

/// A fetched property of an entity: NSFetchedPropertyDescription.
///
/// A fetched property is a weak, one-way relationship defined by a fetch request (Xcode's
/// `<fetchedProperty>`). It is never stored and never enters the entity's version hash
/// (<doc:OpeningStoresThatCoreDataWrote>). ObjectGraph keeps fetched properties in the model, so a model
/// file reads and writes back with them, but does not evaluate them on objects: run their
/// ``fetchRequest`` with the context.
public final class FetchedPropertyDescription: PropertyDescription, @unchecked Sendable {
    /// The request that finds the property's objects (`$FETCH_SOURCE` names the object).
    public var fetchRequest: FetchRequestTemplate { willSet { willMutate() } }

    /// Describes a fetched property.
    public init(
        _ name: String, fetchRequest: FetchRequestTemplate, optional: Bool = true, userInfo: [String: String] = [:]
    ) {
        self.fetchRequest = fetchRequest
        super.init(
            name: name, isOptional: optional, isTransient: false, renamingIdentifier: nil,
            versionHashModifier: nil, userInfo: userInfo)
    }

    /// A copy that belongs to no entity or model.
    public override func copy() -> FetchedPropertyDescription {
        FetchedPropertyDescription(name, fetchRequest: fetchRequest, optional: isOptional, userInfo: userInfo)
    }

    override func isEqual(to other: PropertyDescription) -> Bool {
        guard let o = other as? FetchedPropertyDescription, super.isEqual(to: other) else { return false }
        return fetchRequest == o.fetchRequest
    }
}
