import Foundation

extension ManagedObjectModel {
    /// Checks an attribute: only a transient attribute may be Undefined (Apple,
    /// NSAttributeDescription), no attribute of an entity is an object ID (a type only expression
    /// descriptions have), a composite's element names are unique, and a regular expression compiles.
    static func checkAttribute(_ a: AttributeDescription, of entity: String) throws {
        switch a.attributeType {
        case .undefined where !a.isTransient:
            throw CoreDataError(
                exception: .invalidArgument,
                "Attribute \(entity).\(a.name) has the type Undefined, which only a transient attribute may have; give it a type, or make it transient"
            )
        case .objectID:
            throw CoreDataError(
                exception: .invalidArgument,
                "Attribute \(entity).\(a.name) has the type ObjectID, which only expression descriptions have; give it another type"
            )
        default:
            break
        }
        if let pattern = a.regularExpression, (try? NSRegularExpression(pattern: pattern)) == nil {
            throw CoreDataError(
                exception: .invalidArgument,
                "Attribute \(entity).\(a.name) has a regular expression that does not compile: \(pattern)")
        }
        var names: Set<String> = []
        for element in a.elements {
            guard names.insert(element.name).inserted else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "Composite attribute \(entity).\(a.name) has two elements named \(element.name)")
            }
            try checkAttribute(element, of: "\(entity).\(a.name)")
        }
    }

    /// Configurations and fetch request templates have unique names and name entities the model has.
    static func check(
        configurations: [ModelConfiguration], templates: [FetchRequestTemplate], entities: [String: EntityDescription]
    ) throws {
        var seen: Set<String> = []
        for configuration in configurations {
            guard seen.insert(configuration.name).inserted else {
                throw CoreDataError(
                    exception: .invalidArgument, "The model declares the configuration \(configuration.name) twice")
            }
            for name in configuration.entityNames where entities[name] == nil {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "Configuration \(configuration.name) names the entity \(name), which the model does not declare")
            }
        }
        seen = []
        for template in templates {
            guard seen.insert(template.name).inserted else {
                throw CoreDataError(
                    exception: .invalidArgument, "The model declares the fetch request template \(template.name) twice")
            }
            guard entities[template.entityName] != nil else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "Fetch request template \(template.name) fetches the entity \(template.entityName), which the model does not declare"
                )
            }
        }
    }
}
