// Reference solutions to the chapter 5 exercises. Try the exercises first!
import ObjectGraph

public enum MigrationPoliciesSolutions {
    /// migration-policies-1. Super makes the to-do from the attribute mappings and associates
    /// it; the policy only adjusts doNotAlert.
    public final class DoNotAlertWhenCompletedPolicy: EntityMigrationPolicy {
        public required init() {}

        public override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
                                                        manager: MigrationManager) throws {
            try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
            let todo = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source])[0]
            try todo.setValue(try source.value(forKey: "completed") as? Bool ?? false, forKey: "doNotAlert")
        }
    }

    /// migration-policies-2. TERNARY turns a predicate into a value; YES and NO unquoted are
    /// Booleans ("YES" quoted would be a string, which a Boolean attribute refuses).
    public static func doNotAlertValueExpression() throws -> String {
        "TERNARY($source.completed == YES OR $source.dueDate == nil, YES, NO)"
    }

    /// migration-policies-3. No policy needed: two value expressions do it.
    public static func completedDateMappingModel(from version2: ManagedObjectModel, to version3: ManagedObjectModel) throws -> MappingModel {
        let mapping = MappingModel.defaultMappingModel(forSourceModel: version2, destinationModel: version3)
        let todos = mapping.entityMappingsByName["ToDoToToDo"]!
        for (i, property) in todos.attributeMappings.enumerated() {
            switch property.name {
            case "completedDate":
                todos.attributeMappings[i] = try PropertyMapping(name: "completedDate", valueExpressionFormat:
                    "TERNARY($source.completed == YES, $source.dueDate, nil)")
            case "doNotAlert":
                todos.attributeMappings[i] = try PropertyMapping(name: "doNotAlert", valueExpressionFormat:
                    "TERNARY($source.completed == YES, YES, $source.doNotAlert)")
            default:
                break
            }
        }
        return mapping
    }
}
