import WorkbookSupport

/// Every exercise of the workbook, in book order: what to do, and the check its program runs on
/// the learner's code (ExerciseRunner builds and runs it).
public enum ExerciseCatalog {
    /// All exercises.
    public static let all: [Exercise] = [
        Exercise(
            name: "fetching-1", chapter: "fetching", folder: "Fetching", title: "Every book, by title",
            task: "Return every Book, sorted by title from A to Z without regard to case.",
            hint:
                "A fetch request with no predicate returns every object. Give it one NSSortDescriptor on \"title\" with the comparator that ignores case, as the chapter's section \"Sorting without regard to case\" does.",
            entry: "FetchingChecks.booksSortedByTitle(booksSortedByTitle(in:))"),
        Exercise(
            name: "fetching-2", chapter: "fetching", folder: "Fetching", title: "Who earns more?",
            task: "Return the employees who earn more than the given amount, highest salary first.",
            hint:
                "NSPredicate(format: \"salary > %@\", NSNumber(value: amount)) lets Core Data put the number in for you; %@ takes an object, so the Int goes in as an NSNumber. Then sort on \"salary\" with ascending: false.",
            entry: "FetchingChecks.employeesEarningMoreThan(employees(earningMoreThan:in:))",
            sourceRules: [
                SourceRule(
                    #"\\\(\s*amount\b|String\(\s*amount\s*\)|\bamount\.description\b"#,
                    "The amount is pasted into the format string, which the file asks you not to do: the check finds the "
                        + "same employees either way, but a value pasted into a format is read as predicate syntax (text "
                        + "with a quote in it breaks the format, or changes what it means). Pass it as an argument: "
                        + "NSPredicate(format: \"salary > %@\", NSNumber(value: amount)).")
            ]),
        Exercise(
            name: "fetching-3", chapter: "fetching", folder: "Fetching", title: "The lowest salary",
            task: "Return the lowest salary of all saved employees, computed by the store, or nil when there are none.",
            hint:
                "Type the request NSFetchRequest<NSDictionary>, set resultType to .dictionaryResultType and propertiesToFetch to one .expression(NSExpressionDescription(name:expression:resultType:)) whose expression is min:(salary); read the value from the first dictionary under the name you chose.",
            entry: "FetchingChecks.lowestSalary(lowestSalary(in:))"),
        Exercise(
            name: "predicates-1", chapter: "predicates", folder: "Predicates", title: "Bob in any case",
            task: "Return the people whose name equals the given name when case is ignored, but not accents.",
            hint:
                "Options go in brackets right after the operator: [c] for case, [d] for diacritics. Pass the name with %@.",
            entry: "PredicatesChecks.peopleNamed(people(named:in:))"),
        Exercise(
            name: "predicates-2", chapter: "predicates", folder: "Predicates", title: "Any key, any value",
            task:
                "Build a predicate that is true when the object's value for a key equals a value, both chosen at run time.",
            hint:
                "%@ always makes a value, even when you give it a key's name. The specifier for a key path is %K. A value typed Any goes in through NSPredicate(format:argumentArray:).",
            entry: "PredicatesChecks.predicateForKey(predicate(key:equals:))"),
        Exercise(
            name: "predicates-3", chapter: "predicates", folder: "Predicates", title: "Teenagers",
            task: "Return the people aged 13 to 19, both included, youngest first.",
            hint: "age >= 13 AND age <= 19 works, and so does age BETWEEN {13, 19}: BETWEEN includes both bounds.",
            entry: "PredicatesChecks.teenagers(teenagers(in:))"),
        Exercise(
            name: "predicates-4", chapter: "predicates", folder: "Predicates", title: "Exactly one person",
            task:
                "Return the one person with a given name, nil when there is none, and let the too-many error through when several share it.",
            hint:
                "FetchUtilities.object(forEntityNamed:matchingKey:value:in:) returns nil for no match and throws TooManyEntitiesReturned for several.",
            entry: "PredicatesChecks.personNamed(person(named:in:))"),
        Exercise(
            name: "compounding-1", chapter: "compounding", folder: "Compounding", title: "From any of these publishers",
            task: "Return the books whose publisher is any of the named publishers; with no names, no books.",
            hint:
                "Map each name to NSPredicate(format: \"publisher.name == %@\", name) and combine them with NSCompoundPredicate(orPredicateWithSubpredicates:). An OR of no subpredicates is already FALSEPREDICATE, so the empty case needs no special code.",
            entry: "CompoundingChecks.booksFromAnyOf(books(fromAnyOf:in:))"),
        Exercise(
            name: "compounding-2", chapter: "compounding", folder: "Compounding", title: "Bestsellers from anyone else",
            task:
                "Return the books ranked better than the given rank (salesRank < rank) that the given publisher did not publish; books with no publisher count as not published by it.",
            hint:
                "NSCompoundPredicate(andPredicateWithSubpredicates: [rank comparison, NSCompoundPredicate(notPredicateWithSubpredicate: publisher comparison)]). NOT publisher.name == %@ is true for a book with no publisher, in memory and in SQL alike.",
            entry: "CompoundingChecks.bestsellers(bestsellers(rankedBetterThan:notFrom:in:))"),
        Exercise(
            name: "compounding-3", chapter: "compounding", folder: "Compounding", title: "Where the parentheses go",
            task:
                "Write one format string for the books published by either of two publishers that are also ranked better than a given rank.",
            hint:
                "AND binds tighter than OR, so a OR b AND c means a OR (b AND c). Write (publisher.name == %@ OR publisher.name == %@) AND salesRank < %@, with the rank as NSNumber(value: rank).",
            entry: "CompoundingChecks.predicatePublishedByEither(predicate(publishedBy:or:rankedBetterThan:))"),
        Exercise(
            name: "compounding-4", chapter: "compounding", folder: "Compounding", title: "None of the above",
            task: "Return the books that match none of the given predicates; with no predicates, every book.",
            hint:
                "NSCompoundPredicate(type: .not, subpredicates: predicates) looks only at the first predicate. Negate one OR instead: NSCompoundPredicate(notPredicateWithSubpredicate: NSCompoundPredicate(orPredicateWithSubpredicates: predicates)).",
            entry: "CompoundingChecks.booksMatchingNoneOf(books(matchingNoneOf:in:))"),
        Exercise(
            name: "versioning-1", chapter: "versioning", folder: "Versioning", title: "Will it open?",
            task:
                "Return the name of the ToDo model version that wrote a store (\"ToDo\" or \"ToDo 2\"), or nil when none did, without opening the store for use.",
            hint:
                "NSPersistentStoreCoordinator.metadataForPersistentStore(type:at:) reads the metadata from the file; versions.versionName(forStoreMetadata:) compares its version hashes with each version's.",
            entry: "VersioningChecks.versionName(versionName(ofStoreAt:type:versions:))"),
        Exercise(
            name: "versioning-2", chapter: "versioning", folder: "Versioning", title: "Migrate on open",
            task:
                "Open a store of any ToDo version with the current model, migrating it first when an older version wrote it, and return a context on it.",
            hint:
                "NSPersistentStoreCoordinator(versionedModel: versions), then addPersistentStore with NSMigratePersistentStoresAutomaticallyOption and NSInferMappingModelAutomaticallyOption both true.",
            entry: "VersioningChecks.openMigrating(openMigrating(storeAt:type:versions:))"),
        Exercise(
            name: "versioning-3", chapter: "versioning", folder: "Versioning", title: "Alerted in the last hour",
            task:
                "Return the to-dos whose lastAlertDate lies in the hour up to a given time, both ends included, most recently alerted first.",
            hint:
                "lastAlertDate BETWEEN %@ with an NSArray of two dates ([earlier, later] as NSArray) includes both ends; nil never matches. Sort with NSSortDescriptor(key: \"lastAlertDate\", ascending: false).",
            entry: "VersioningChecks.alertedInHour(todos(alertedInHourBefore:in:))"),
        Exercise(
            name: "migration-policies-1", chapter: "migration-policies", folder: "MigrationPolicies",
            title: "Done means quiet",
            task:
                "Write the policy of the ToDo mapping from version 1 to version 2 that sets doNotAlert for the to-dos already completed, and only those, keeping every to-do's attributes and category.",
            hint:
                "Call super.createDestinationInstances first: it makes the to-do from the attribute mappings and associates it. Then find it with manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source]) and set doNotAlert from the source's completed.",
            entry: "MigrationPoliciesChecks.doNotAlertWhenCompleted(DoNotAlertWhenCompletedPolicy.self)"),
        Exercise(
            name: "migration-policies-2", chapter: "migration-policies", folder: "MigrationPolicies",
            title: "A rule without code",
            task:
                "Write the value expression of version 2's doNotAlert: YES for a to-do that is completed or has no due date, NO otherwise.",
            hint:
                "TERNARY(predicate, valueIfTrue, valueIfFalse) turns a predicate into a value. In it, $source is the version 1 to-do; compare $source.completed == YES and $source.dueDate == nil, and answer YES or NO without quotes.",
            entry: "MigrationPoliciesChecks.doNotAlertValueExpression(doNotAlertValueExpression)"),
        Exercise(
            name: "migration-policies-3", chapter: "migration-policies", folder: "MigrationPolicies",
            title: "When was it done?",
            task:
                "Return the mapping model from version 2 to version 3: completed to-dos get their dueDate as completedDate and doNotAlert YES; the others get no completedDate and keep their doNotAlert.",
            hint:
                "Start from NSMappingModel.defaultMappingModel(forSourceModel: version2, destinationModel: version3). Either give ToDoToToDo a policy, as the chapter does, or replace two attribute mappings with TERNARY value expressions: one for completedDate, one for doNotAlert.",
            entry: "MigrationPoliciesChecks.completedDateMappingModel(completedDateMappingModel(from:to:))"),
        Exercise(
            name: "contexts-1", chapter: "contexts", folder: "Contexts", title: "Import in the background",
            task:
                "Insert one Book per title on a new background context of the container, save it, and return the books' object IDs in the order of the titles.",
            hint:
                "let context = container.newBackgroundContext(), then return try context.performAndWait { ... }: insert the books into an array, call try context.save(), and only then map them to their objectID (an ID is temporary until the save).",
            entry: "ContextsChecks.importBooks(importBooks(titled:into:))"),
        Exercise(
            name: "contexts-2", chapter: "contexts", folder: "Contexts", title: "A scratch pad",
            task:
                "Change a book's title in a child context of the view context; keep the change (it becomes the view context's unsaved change) or throw it away, without saving the view context.",
            hint:
                "let editor = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType); editor.parent = viewContext. Inside editor.performAndWait, find the book with existingObject(with:), set its title, then try editor.save() to keep it or editor.rollback() to throw it away. Never call rollback() or save() on the view context here.",
            entry: "ContextsChecks.scratchPad(editTitle(of:to:keep:in:))"),
        Exercise(
            name: "contexts-3", chapter: "contexts", folder: "Contexts", title: "Pass it on",
            task:
                "Make the reader take in every save of the writer: observe the writer's did-save notification and merge it into the reader, on the reader's queue.",
            hint:
                "NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: writer, queue: nil) { notification in ... } runs the block on the writer's queue; hop to the reader's with reader.perform { reader.mergeChanges(fromContextDidSave: notification) }. Swift 6 needs nonisolated(unsafe) let notification = notification before the hop.",
            entry: "ContextsChecks.mergeSaves(mergeSaves(of:into:))"),
        Exercise(
            name: "changes-1", chapter: "changes", folder: "Changes", title: "What did the save change?",
            task:
                "Observe the context's saves and report, once per save, how many objects it inserted, updated and deleted.",
            hint:
                "NotificationCenter.default.addObserver(forName: NSManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil) { notification in ... }; in the block, read each set as notification.userInfo?[NSManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<NSManagedObject>, counting a missing one as 0, and call report. Objects-did-change is posted at every event's end, not once per save.",
            entry: "ChangesChecks.saveCounts(reportSaves(of:to:))"),
        Exercise(
            name: "changes-2", chapter: "changes", folder: "Changes", title: "Renamed, not saved",
            task:
                "Return the context's unsaved title changes: for each updated to-do whose title changed, its saved title mapped to its new one.",
            hint:
                "Go through context.updatedObjects; keep an object when changedValues() has a \"title\"; its saved title is committedValues(forKeys: [\"title\"])[\"title\"], its new one value(forKey: \"title\"). Inserted and deleted objects are in other sets.",
            entry: "ChangesChecks.titleChanges(titleChanges(in:))"),
        Exercise(
            name: "changes-3", chapter: "changes", folder: "Changes", title: "The open to-dos",
            task:
                "Make a fetched results controller of the to-dos not completed, soonest due first, in one section, and fetch.",
            hint:
                "An NSFetchRequest<NSManagedObject>(entityName: \"ToDo\") with the predicate NSPredicate(format: \"completed == NO\") and one NSSortDescriptor(key: \"dueDate\", ascending: true); then NSFetchedResultsController<NSManagedObject>(fetchRequest:managedObjectContext:sectionNameKeyPath: nil, cacheName: nil) and try controller.performFetch().",
            entry: "ChangesChecks.openToDos(openToDos(in:))"),
        Exercise(
            name: "conflicts-1", chapter: "conflicts", folder: "Conflicts", title: "Import without duplicates",
            task:
                "Insert one Book per row (its code and title) on a background context and save it, so that a code the store already holds updates that book's title instead of failing the save.",
            hint:
                "The model's uniqueness constraint on code makes a stored code a constraint conflict, which fails the save with 133021 under the default merge policy. Inside context.performAndWait, set context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy, insert the books, then try context.save(): each duplicate becomes an update of the stored book, with the import's values.",
            entry: "ConflictsChecks.upsert(importBooks(_:into:))"),
        Exercise(
            name: "conflicts-2", chapter: "conflicts", folder: "Conflicts", title: "Save over a stale read",
            task:
                "The editor read a book, then another context saved a new number of copies. Set the book's title in the editor and save it, so that the store keeps both the new title and the other context's copies.",
            hint:
                "Inside editor.performAndWait: either editor.refresh(book, mergeChanges: true) before saving (your change stays, on the store's current values and version), or editor.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy, which writes only the properties the editor changed. NSOverwriteMergePolicy would write back the copies the editor read.",
            entry: "ConflictsChecks.staleSave(saveTitle(_:of:in:))"),
        Exercise(
            name: "conflicts-3", chapter: "conflicts", folder: "Conflicts", title: "Read the conflict",
            task:
                "From a failed save's 133020 error, return the version of the book the context read, the version the store holds, and the number of copies the store holds.",
            hint:
                "error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict] gives the conflicts; the first one's oldVersionNumber is the version read, newVersionNumber the store's, and persistedSnapshot?[\"copies\"] as? Int the store's copies (objectSnapshot holds what the context read).",
            entry: "ConflictsChecks.readConflict(whatTheStoreHolds(after:))"),
        Exercise(
            name: "batch-1", chapter: "batch", folder: "Batch", title: "Delete the small quakes",
            task:
                "Delete every quake whose magnitude is below the given one with a single batch delete, and return how many it deleted.",
            hint:
                "Make an NSFetchRequest<NSFetchRequestResult>(entityName: \"Quake\") with the predicate magnitude < %@ (the magnitude as an NSNumber), wrap it in NSBatchDeleteRequest(fetchRequest:), set its resultType to .resultTypeCount, run it with try context.execute(request) inside a background context's performAndWait, and return (result as? NSBatchDeleteResult)?.result as? Int.",
            entry: "BatchChecks.deleteSmallQuakes(deleteQuakes(below:in:))"),
        Exercise(
            name: "batch-2", chapter: "batch", folder: "Batch", title: "Review the strong quakes",
            task:
                "Mark every quake of the given magnitude or more as reviewed with a single batch update, and make the view context, which shows every quake, show the change.",
            hint:
                "NSBatchUpdateRequest(entityName: \"Quake\") with the predicate magnitude >= %@, propertiesToUpdate = [\"reviewed\": true] and resultType = .updatedObjectIDsResultType; execute it on a background context, then pass the IDs to NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: ids], into: [container.viewContext]).",
            entry: "BatchChecks.reviewStrongQuakes(markReviewed(atLeast:in:))"),
        Exercise(
            name: "batch-3", chapter: "batch", folder: "Batch", title: "What the others inserted",
            task:
                "From the store's persistent history after the token, return the IDs of the quakes that authors other than \"app\" inserted, in the order history gives them.",
            hint:
                "Execute NSPersistentHistoryChangeRequest.fetchHistory(after: token) on a background context; the result's result is [NSPersistentHistoryTransaction]. Keep the transactions whose author is not \"app\", and from their changes those whose changeType is .insert; return each one's changedObjectID.",
            entry: "BatchChecks.insertedByOthers(quakesInsertedByOthers(after:in:))"),
        Exercise(
            name: "scaling-1", chapter: "scaling", folder: "Scaling", title: "Open a store by URL",
            task:
                "Return an NSPersistentContainer on the ToDo model (version 2), its one store the PostgreSQL store at the postgres:// URL you are given, loaded.",
            hint:
                "NSPersistentContainer(name: \"ToDo\", managedObjectModel: try ToDoModels.version2()); let description = NSPersistentStoreDescription(url: url), then description.type = .postgres (a description is a SQLite store until told otherwise); container.persistentStoreDescriptions = [description]; loadPersistentStores, throwing the error it hands you.",
            entry: "ScalingChecks.openByURL(openToDoStore(at:))"),
        Exercise(
            name: "scaling-2", chapter: "scaling", folder: "Scaling", title: "One fetch, two stores",
            task:
                "Return a fetch request for the to-dos not done whose due date is before the given date, soonest first. The check runs it on SQLite and on PostgreSQL, and both must give the same answer.",
            hint:
                "NSFetchRequest<NSManagedObject>(entityName: \"ToDo\") with NSPredicate(format: \"completed == NO AND dueDate < %@\", date as NSDate) and sortDescriptors = [NSSortDescriptor(key: \"dueDate\", ascending: true)]. Without a sort the order is the store's, which SQLite and PostgreSQL need not share.",
            entry: "ScalingChecks.sameOnBoth(openToDos(dueBefore:))"),
        Exercise(
            name: "scaling-3", chapter: "scaling", folder: "Scaling", title: "Save over another process's change",
            task:
                "The editor read a to-do; then another process, with its own coordinator and connections, marked it done. Set the to-do's title in the editor and save, so that the store keeps both the new title and the other process's done.",
            hint:
                "Inside editor.performAndWait: editor.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy, editor.object(with: id).setValue(title, forKey: \"title\"), try editor.save(). Across processes PostgreSQL finds the conflict the same way as between contexts (each UPDATE carries the version read), so the same policy resolves it.",
            entry: "ScalingChecks.acrossProcesses(saveTitle(_:of:in:))"),
    ]

    /// The exercise with this name.
    public static func exercise(named name: String) -> Exercise? { all.first { $0.name == name } }
}
