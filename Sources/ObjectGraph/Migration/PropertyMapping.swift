import Foundation

/// How one destination property gets its value: NSPropertyMapping.
///
/// The value expression is written in the predicate language and evaluated with Core Data's
/// migration variables: `$source` (the source object), `$destination`, `$manager`,
/// `$entityMapping`, `$propertyMapping` and `$entityPolicy`.
///
/// ```swift
/// try PropertyMapping(name: "title", valueExpressionFormat: "$source.title")
/// try PropertyMapping(name: "category", valueExpressionFormat:
/// #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "CategoryToCategory",
/// $source.category)"#)
/// ```
public struct PropertyMapping: Hashable, Sendable {
    /// The destination property's name.
    public var name: String
    /// What the property is set to; nil leaves the destination's default value.
    public var valueExpression: Expression?
    /// Free-form information for the application.
    public var userInfo: [String: String]

    /// A property mapping with an expression (or none, to keep the default value).
    public init(name: String, valueExpression: Expression? = nil, userInfo: [String: String] = [:]) {
        self.name = name
        self.valueExpression = valueExpression
        self.userInfo = userInfo
    }

    /// A property mapping whose expression is parsed from the format language.
    public init(name: String, valueExpressionFormat format: String, userInfo: [String: String] = [:]) throws {
        self.init(name: name, valueExpression: try Expression(checkedFormat: format), userInfo: userInfo)
    }
}
