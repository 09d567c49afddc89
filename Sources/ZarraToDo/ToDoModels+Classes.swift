import CoreData

// The classes ToDo and Category in Generated/ are what `workbook model codegen` writes for the
// current version (ToDo 2) of the shipped model; they are not edited by hand. After a change to
// the model, regenerate them from the package's root:
//
//     swift run workbook model codegen ToDo.xcdatamodeld --output Sources/ZarraToDo/Generated
//
// A test (ToDoTests' GeneratedClassesTests) fails while they differ from what the generator
// writes, and prints that command.

extension ToDoModels {
    /// The model of the version `number` (1 or 2) with each entity making objects of the class
    /// `classes` gives for its name (as ``XcodeModelLoader/init(classes:)`` gives an entity the
    /// class its `representedClassName` names): what the `todo` program opens, with
    /// `ToDoModelClasses.byName`, so that its to-dos are `ToDo` objects and its categories
    /// `Category` objects.
    ///
    /// The class is not part of an entity's version hash, so a store written through one
    /// model opens with the other. Version 1 may get the generated (version 2) classes too: its
    /// entities have every property of theirs except `ToDo.lastAlertDate` and
    /// `ToDo.doNotAlert`, which code running as version 1 must not read. ``version1()`` and
    /// ``version2()`` themselves stay plain: the chapters, the migration policy and the
    /// library's tests read and write their objects by key, as the article's code does.
    ///
    /// - Throws: ``CoreDataError`` as ``model(version:)`` does for a version other than 1 or 2.
    public static func model(version number: Int, classes: [String: NSManagedObject.Type]) throws
        -> NSManagedObjectModel
    {
        let plain = try model(version: number)
        // The plain model is frozen: its entities are copied, and the copies given the classes.
        let entities = plain.entities.map { declared -> NSEntityDescription in
            let entity = declared.copy()
            if let type = classes[entity.name] { entity.managedObjectClass = type }
            return entity
        }
        return try NSManagedObjectModel(
            entities: entities, versionIdentifiers: plain.versionIdentifiers,
            configurations: plain.configurationDescriptions,
            fetchRequestTemplates: plain.fetchRequestTemplatesByName.values.sorted { $0.name < $1.name })
    }
}
