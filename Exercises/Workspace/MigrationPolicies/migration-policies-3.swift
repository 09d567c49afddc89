// migration-policies-3: When was it done?
//
// Return the mapping model from version 2 to version 3: completed to-dos get their dueDate as
// completedDate and doNotAlert YES; the others get no completedDate and keep their doNotAlert.
//
// Replace `throw NotSolvedYet()` with your code and save: `swift run workbook exercises
// watch` checks this file each time you save it. The file builds into a program of its
// own, so a mistake here stops no other exercise.
// Stuck? `swift run workbook exercises hint migration-policies-3`.
//
// The models are Zarra's ToDo versions: version 1 (ToDo: title, dueDate, completed, category;
// Category: name, todos), version 2 (adds lastAlertDate and doNotAlert, default NO) and the
// chapter's version 3 (completed gives way to completedDate, an optional date).
import CoreData
import WorkbookSupport

/// migration-policies-3: the mapping model from version 2 to version 3. A completed to-do
/// gets its dueDate as its completedDate, and doNotAlert YES (nothing done needs an
/// alert); a to-do not completed gets no completedDate and keeps its doNotAlert. Every
/// to-do keeps its title, dueDate, lastAlertDate and category.
func completedDateMappingModel(from version2: NSManagedObjectModel, to version3: NSManagedObjectModel) throws
    -> NSMappingModel
{
    // TODO: start from NSMappingModel.defaultMappingModel(forSourceModel:destinationModel:).
    throw NotSolvedYet()
}
