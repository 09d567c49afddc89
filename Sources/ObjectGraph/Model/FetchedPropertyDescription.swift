import Foundation

/// A fetched property of an entity: NSFetchedPropertyDescription, as a value type.
///
/// A fetched property is a weak, one-way relationship defined by a fetch request (Xcode's
/// `<fetchedProperty>`). It is never stored and never enters the entity's version hash
/// (<doc:OpeningStoresThatCoreDataWrote>). ObjectGraph keeps fetched properties in the model, so a model
/// file reads and writes back with them, but does not evaluate them on objects: run their
/// ``fetchRequest`` with the context.
public struct FetchedPropertyDescription: Hashable, Sendable {
    /// The property's name.
    public var name: String
    /// The request that finds the property's objects (`$FETCH_SOURCE` names the object).
    public var fetchRequest: FetchRequestTemplate
    /// Whether it is optional (Xcode writes `optional="YES"` on most fetched properties).
    public var isOptional: Bool
    /// Free-form information for the application.
    public var userInfo: [String: String]

    /// Describes a fetched property.
    public init(_ name: String, fetchRequest: FetchRequestTemplate, optional: Bool = true, userInfo: [String: String] = [:]) {
        self.name = name
        self.fetchRequest = fetchRequest
        self.isOptional = optional
        self.userInfo = userInfo
    }
}
