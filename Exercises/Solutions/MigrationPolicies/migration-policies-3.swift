// migration-policies-3: When was it done?
//
// Return the mapping model from version 2 to version 3: completed to-dos get their dueDate as
// completedDate and doNotAlert YES; the others get no completedDate and keep their doNotAlert.
//
// The reference solution. Try the exercise first: this file is for comparing afterwards.
import CoreData

/// migration-policies-3. No policy needed: two value expressions do it.
func completedDateMappingModel(from version2: NSManagedObjectModel, to version3: NSManagedObjectModel) throws
    -> NSMappingModel
{
    let mapping = NSMappingModel.defaultMappingModel(forSourceModel: version2, destinationModel: version3)
    let todos = mapping.entityMappingsByName["ToDoToToDo"]!
    for (i, property) in todos.attributeMappings.enumerated() {
        switch property.name {
        case "completedDate":
            todos.attributeMappings[i] = try NSPropertyMapping(
                name: "completedDate",
                valueExpressionFormat:
                    "TERNARY($source.completed == YES, $source.dueDate, nil)")
        case "doNotAlert":
            todos.attributeMappings[i] = try NSPropertyMapping(
                name: "doNotAlert",
                valueExpressionFormat:
                    "TERNARY($source.completed == YES, YES, $source.doNotAlert)")
        default:
            break
        }
    }
    return mapping
}
