// migration-policies-3: When was it done?
//
// Return the mapping model from version 2 to version 3: completed to-dos get their dueDate as
// completedDate and doNotAlert YES; the others get no completedDate and keep their doNotAlert.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import ObjectGraph

/// migration-policies-3. No policy needed: two value expressions do it.
func completedDateMappingModel(from version2: ManagedObjectModel, to version3: ManagedObjectModel) throws -> MappingModel {
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
