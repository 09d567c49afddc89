import Foundation

/// A named configuration of a model: a subset of its entities, for a store that holds only
/// those (Xcode's Configurations; `setEntities(_:forConfigurationName:)`).
///
/// Every model also has the default configuration, with every entity, which needs no
/// declaration (`nil`, `"Default"` or `"PF_DEFAULT_CONFIGURATION_NAME"`).
public struct ModelConfiguration: Hashable, Sendable {
    /// The configuration's name.
    public var name: String
    /// The names of the entities it holds.
    public var entityNames: [String]
    /// Whether Xcode marks it for CloudKit (`usedWithCloudKit="YES"`).
    public var isUsedWithCloudKit: Bool

    /// Describes a configuration.
    public init(_ name: String, entityNames: [String], usedWithCloudKit: Bool = false) {
        self.name = name
        self.entityNames = entityNames
        self.isUsedWithCloudKit = usedWithCloudKit
    }
}
