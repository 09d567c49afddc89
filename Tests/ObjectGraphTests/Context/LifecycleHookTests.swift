import Foundation
import Testing

@testable import ObjectGraph

// The lifecycle hooks of NSManagedObject, called when and as often as Apple's documentation of
// each says (awakeFromInsert(), awakeFromFetch(), willSave(), didSave(), prepareForDeletion(),
// willTurnIntoFault(), didTurnIntoFault()).
@Suite struct LifecycleHookTests {
    @Test(
        "awakeFromInsert runs once in the object's lifetime, not again at save or fetch (NSManagedObject.awakeFromInsert)"
    )
    func awakeFromInsertRunsOnce() throws {
        let fixture = try LifecycleFixture()
        let note = try fixture.insertNote("Groceries")
        #expect(note.events == ["awakeFromInsert"])
        try fixture.context.save()
        _ = try fixture.context.fetch(FetchRequest(entityName: "Note"))
        #expect(note.count("awakeFromInsert") == 1)
        #expect(note.count("awakeFromFetch") == 0)
    }

    // Apple, NSManagedObject.awakeFromInsert(), Special Considerations
    // (https://developer.apple.com/documentation/coredata/nsmanagedobject/awakefrominsert()): "If you create
    // a managed object then perform undo operations to bring the managed object context to a state prior to
    // the object's creation, then perform redo operations to bring the managed object context back to a state
    // after the object's creation, awakeFromInsert() is not invoked a second time."
    @Test("awakeFromInsert is not invoked again when an undone insert is redone (NSManagedObject.awakeFromInsert)")
    func awakeFromInsertIsNotInvokedAgainByRedo() throws {
        let fixture = try LifecycleFixture(.inMemory)
        fixture.context.undoManager = UndoManager()
        let note = try fixture.insertNote("Groceries")
        fixture.context.processPendingChanges()
        fixture.context.undo()
        #expect(note.managedObjectContext == nil, "the undone insert left the context")
        fixture.context.redo()
        #expect(note.managedObjectContext === fixture.context && note.isInserted, "the redone insert is back")
        #expect(try note.checkedValue(forKey: "title") as? String == "Groceries")
        #expect(note.count("awakeFromInsert") == 1)
        // Undone and redone again, then saved: still the one call of the object's lifetime.
        fixture.context.undo()
        fixture.context.redo()
        try fixture.context.save()
        #expect(note.count("awakeFromInsert") == 1)
        #expect(try fixture.storedNoteCount() == 1)
    }

    @Test(
        "awakeFromFetch runs when a fault is fulfilled, once, not per fetch of a loaded object (NSManagedObject.awakeFromFetch)",
        arguments: [StoreType.sqlite, .xml, .inMemory])
    func awakeFromFetchRunsWhenAFaultFires(_ type: StoreType) throws {
        let fixture = try LifecycleFixture(type)
        _ = try fixture.insertNote("Groceries")
        try fixture.context.save()

        let reader = ManagedObjectContext(coordinator: fixture.coordinator)
        let id = try #require(try reader.fetch(FetchRequest(entityName: "Note")).first).objectID
        let fetched = try requireNote(reader.object(with: id))
        #expect(fetched.count("awakeFromFetch") == 1)
        _ = try reader.fetch(FetchRequest(entityName: "Note"))
        _ = try fetched.checkedValue(forKey: "title")
        #expect(fetched.count("awakeFromFetch") == 1, "a loaded object fetched again is not awoken again")

        // A fault made by object(with:) awakes when it is first used, not before.
        let other = ManagedObjectContext(coordinator: fixture.coordinator)
        let fault = try requireNote(other.object(with: id))
        #expect(fault.isFault && fault.events.isEmpty)
        #expect(try fault.checkedValue(forKey: "title") as? String == "Groceries")
        #expect(fault.events == ["awakeFromFetch"])
    }

    @Test(
        "Values set in awakeFromFetch don't make the object or its context changed (NSManagedObject.awakeFromFetch: change processing is disabled)"
    )
    func awakeFromFetchDoesNotDirty() throws {
        let fixture = try LifecycleFixture()
        _ = try fixture.insertNote("Groceries")
        try fixture.context.save()

        let reader = ManagedObjectContext(coordinator: fixture.coordinator)
        let id = try #require(try reader.fetch(FetchRequest(entityName: "Note")).first).objectID
        reader.reset()
        let fault = try requireNote(reader.object(with: id))
        fault.onAwakeFromFetch = { note in
            let title = (try? note.checkedValue(forKey: "title")) as? String
            try? note.checkedSetValue(title?.uppercased(), forKey: "shout")
        }
        let received = LockedNotifications()
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.objectsDidChangeNotification, object: reader, queue: nil
        ) { received.append($0) }
        defer { NotificationCenter.default.removeObserver(observer) }
        #expect(try fault.checkedValue(forKey: "shout") as? String == "GROCERIES")
        #expect(!reader.hasChanges)
        #expect(reader.updatedObjects.isEmpty)
        #expect(!fault.hasChanges)
        reader.processPendingChanges()
        #expect(received.all.isEmpty, "no objects-did-change for a value set in awakeFromFetch")
        // A change after awakeFromFetch counts as usual.
        try fault.checkedSetValue("Shopping", forKey: "title")
        #expect(reader.updatedObjects == [fault])
    }

    @Test(
        "willSave runs before the store is written and didSave after, for inserted, updated and deleted objects (NSManagedObject.willSave, didSave)",
        arguments: [StoreType.sqlite, .binary])
    func willSaveAndDidSaveSurroundTheSave(_ type: StoreType) throws {
        let fixture = try LifecycleFixture(type)
        let kept = try fixture.insertNote("Kept")
        let gone = try fixture.insertNote("Gone")
        try fixture.context.save()
        #expect(kept.events == ["awakeFromInsert", "willSave", "validateForInsert", "didSave"])

        let added = try fixture.insertNote("Added")
        var storedAtWillSave: Int?
        added.onWillSave = { _ in storedAtWillSave = try? fixture.storedNoteCount() }
        try kept.checkedSetValue("Kept, renamed", forKey: "title")
        try fixture.context.checkedDelete(gone)
        kept.events = []
        gone.events = []
        try fixture.context.save()

        #expect(storedAtWillSave == 2, "willSave runs before anything is written")
        // willSave comes before validation, so that what it sets is validated.
        #expect(added.events == ["awakeFromInsert", "willSave", "validateForInsert", "didSave"])
        #expect(kept.events == ["willSave", "validateForUpdate", "didSave"])
        #expect(gone.events == ["willSave", "validateForDelete", "didSave"], "didSave applies to deletions too")
        #expect(!added.objectID.isTemporaryID)
        #expect(try fixture.storedNoteCount() == 2)
    }

    @Test("A willSave that changes a value is called again until the object stops changing (NSManagedObject.willSave)")
    func willSaveRunsAgainAfterAChange() throws {
        let fixture = try LifecycleFixture()
        let note = try fixture.insertNote("Counter")
        note.onWillSave = { note in
            // Apple's advice: compare first; this one stops after three changes.
            let stamp = (try? note.checkedValue(forKey: "stamp")) as? Int ?? 0
            if stamp < 3 { try? note.checkedSetValue(stamp + 1, forKey: "stamp") }
        }
        try fixture.context.save()
        #expect(note.count("willSave") == 4, "three rounds that changed the note and one that did not")
        let stored = try #require(
            try ManagedObjectContext(coordinator: fixture.coordinator).fetch(FetchRequest(entityName: "Note")).first)
        #expect(try stored.checkedValue(forKey: "stamp") as? Int == 3)
    }

    @Test(
        "A willSave that never stops changing fails the save after 100 rounds, writing nothing (NSManagedObject.willSave; Core Data's 'still dirty after 100 attempts')"
    )
    func willSaveThatNeverSettlesFails() throws {
        let fixture = try LifecycleFixture()
        let note = try fixture.insertNote("Restless")
        note.onWillSave = { note in
            let stamp = (try? note.checkedValue(forKey: "stamp")) as? Int ?? 0
            try? note.checkedSetValue(stamp + 1, forKey: "stamp")
        }
        let error = try #require(throws: CoreDataError.self) { try fixture.context.save() }
        #expect(error.kind == .exception(.internalInconsistency))
        #expect(error.message.contains("still dirty after 100 rounds of willSave"))
        #expect(error.objectURI == note.objectID.uriString)
        #expect(note.count("willSave") == ManagedObjectContext.willSaveAttemptLimit)
        #expect(try fixture.storedNoteCount() == 0)
        #expect(fixture.context.hasChanges, "the changes stay, to fix and save again")
    }

    @Test(
        "Objects a willSave inserts are saved and get willSave themselves (NSManagedObjectContextWillSave: insert additional objects)"
    )
    func objectsInsertedInWillSaveAreSaved() throws {
        let fixture = try LifecycleFixture()
        let note = try fixture.insertNote("Parent")
        var added: TrackedNote?
        note.onWillSave = { note in
            guard added == nil, let context = note.managedObjectContext else { return }
            added = try? requireNote(context.insertNewObject(forEntityName: "Note"))
            try? added?.checkedSetValue("Made in willSave", forKey: "title")
        }
        try fixture.context.save()
        let made = try #require(added)
        #expect(made.count("willSave") == 1)
        #expect(made.count("didSave") == 1)
        #expect(!made.objectID.isTemporaryID)
        #expect(try fixture.storedNoteCount() == 2)
    }

    @Test(
        "A willSave that changes another object calls that object's willSave again; objects inserted and deleted before the save get none (NSManagedObject.willSave)"
    )
    func willSaveFollowsChangesToOtherObjects() throws {
        let fixture = try LifecycleFixture()
        let first = try fixture.insertNote("First")
        let second = try fixture.insertNote("Second")
        try fixture.context.save()
        let transient = try fixture.insertNote("Never saved")
        try fixture.context.checkedDelete(transient)
        first.events = []
        second.events = []
        try first.checkedSetValue("First, edited", forKey: "title")
        first.onWillSave = { _ in
            // Touches the second note once: its willSave must run after the change.
            if ((try? second.checkedValue(forKey: "stamp")) as? Int ?? 0) == 0 {
                try? second.checkedSetValue(1, forKey: "stamp")
            }
        }
        try fixture.context.save()
        #expect(first.count("willSave") == 1)
        #expect(
            second.count("willSave") == 1, "it joined the save in the first round, so its willSave ran in the second")
        #expect(second.count("didSave") == 1)
        #expect(transient.count("willSave") == 0 && transient.count("didSave") == 0)
        let stored = try ManagedObjectContext(coordinator: fixture.coordinator).fetch(FetchRequest(entityName: "Note"))
        #expect(try stored.compactMap { try $0.checkedValue(forKey: "stamp") as? Int }.sorted() == [0, 1])
    }

    @Test(
        "prepareForDeletion runs in delete(_:), before the delete rules tear relationships down, once per object cascaded (NSManagedObject.prepareForDeletion)"
    )
    func prepareForDeletionRunsBeforeDeleteRules() throws {
        let fixture = try LifecycleFixture()
        let notebook = try #require(try fixture.context.insertNewObject(forEntityName: "Notebook") as? TrackedNotebook)
        let first = try fixture.insertNote("One")
        let second = try fixture.insertNote("Two")
        try first.checkedSetValue(notebook, forKey: "notebook")
        try second.checkedSetValue(notebook, forKey: "notebook")
        try fixture.context.save()

        notebook.events = []
        var notebookOfFirstAtPrepare: ManagedObject?
        first.onPrepareForDeletion = { note in
            notebookOfFirstAtPrepare = (try? note.checkedValue(forKey: "notebook")) as? ManagedObject
        }
        try fixture.context.checkedDelete(notebook)
        #expect(notebook.events == ["prepareForDeletion"])
        #expect(notebook.notesAtPrepareForDeletion == 2)
        #expect(
            first.count("prepareForDeletion") == 1 && second.count("prepareForDeletion") == 1,
            "the cascade deletes each note, and each is told")
        #expect(notebookOfFirstAtPrepare === notebook)
        try fixture.context.checkedDelete(notebook)
        #expect(notebook.events == ["prepareForDeletion"], "deleting a deleted object again does nothing")
        try fixture.context.save()
        #expect(try fixture.storedNoteCount() == 0)
    }

    @Test(
        "refresh(_:mergeChanges: false) calls willTurnIntoFault with the values readable, then didTurnIntoFault (NSManagedObject.willTurnIntoFault, didTurnIntoFault)"
    )
    func refreshTurnsIntoAFault() throws {
        let fixture = try LifecycleFixture()
        let note = try fixture.insertNote("Draft")
        try fixture.context.save()
        try note.checkedSetValue("Unsaved", forKey: "title")
        var titleAtWillTurn: String?
        note.onWillTurnIntoFault = { note in
            titleAtWillTurn = note.isFault ? nil : note.storage[0].any as? String
        }
        note.events = []
        try fixture.context.checkedRefresh(note, mergeChanges: false)
        #expect(note.events == ["willTurnIntoFault", "didTurnIntoFault"])
        #expect(titleAtWillTurn == "Unsaved")
        #expect(note.isFault)
        // Refreshing a fault turns nothing into a fault: no hooks.
        try fixture.context.checkedRefresh(note, mergeChanges: false)
        #expect(note.events == ["willTurnIntoFault", "didTurnIntoFault"])
        // Used again, it is fulfilled from the store and awoken.
        #expect(try note.checkedValue(forKey: "title") as? String == "Draft")
        #expect(note.events.last == "awakeFromFetch")
    }

    @Test(
        "A child context's save calls willSave and didSave on the child's objects; the parent's copies get theirs when the parent saves (NSManagedObject.willSave, didSave; NSManagedObjectContext.save)"
    )
    func childSaveCallsHooksInEachContext() throws {
        let fixture = try LifecycleFixture()
        let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: fixture.coordinator)
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        let note = try child.performAndWait { () throws -> TrackedNote in
            let note = try fixture.insertNote("From the child", in: child)
            try child.save()
            return note
        }
        #expect(note.events == ["awakeFromInsert", "willSave", "validateForInsert", "didSave"])
        #expect(try fixture.storedNoteCount() == 0)
        let inParent = try parent.performAndWait { () throws -> TrackedNote in
            let copy = try requireNote(parent.object(with: note.objectID))
            try parent.save()
            return copy
        }
        #expect(inParent !== note)
        #expect(inParent.count("willSave") == 1 && inParent.count("didSave") == 1)
        #expect(note.count("didSave") == 1, "the parent's save is not the child's")
        #expect(try fixture.storedNoteCount() == 1)
    }

    @Test(
        "Plain ManagedObject objects (no subclass) save exactly as before: hooks are skipped, not needed (NSManagedObject)"
    )
    func plainObjectsNeedNoHooks() throws {
        let fixture = try StackFixture(.sqlite)
        try fixture.seedBooks(["A", "B"])
        let books = try fixture.context.fetch(FetchRequest(entityName: "Book"))
        try books[0].checkedSetValue("A2", forKey: "title")
        try fixture.context.checkedDelete(books[1])
        try fixture.context.save()
        let titles = try fixture.secondContext().fetch(FetchRequest(entityName: "Book")).map {
            try $0.checkedValue(forKey: "title") as? String
        }
        #expect(titles == ["A2"])
    }
}
