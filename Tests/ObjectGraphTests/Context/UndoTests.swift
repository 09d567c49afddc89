import Foundation
import Testing

@testable import ObjectGraph

/// Something an undo manager's actions change, for the manager's own tests.
private final class Counter {
    var value = 0
    /// Sets a value, registering the change back.
    func set(_ newValue: Int, with manager: UndoManager) {
        let old = value
        manager.registerUndo(withTarget: self) { $0.set(old, with: manager) }
        value = newValue
    }
}

// Undo. Apple pages: Foundation's UndoManager (registerUndo(withTarget:handler:),
// beginUndoGrouping(), endUndoGrouping(), groupsByEvent, undo() — "This method also invokes
// endUndoGrouping if the nesting level is 1", redo(), canUndo, canRedo, isUndoing, isRedoing,
// levelsOfUndo, setActionName(_:), undoActionName, removeAllActions(),
// removeAllActions(withTarget:), disableUndoRegistration()); NSManagedObjectContext undoManager
// ("The default value is nil"), undo(), redo(), processPendingChanges() ("causes changes to
// registered managed objects to be recorded with the undo manager"), rollback() ("removes
// everything from the undo stack").
@Suite struct UndoTests {
    @Test("UndoManager: groups, undo and redo, names, levels (Foundation UndoManager)")
    func undoManagerBasics() {
        let manager = UndoManager()
        let counter = Counter()
        #expect(!manager.canUndo && !manager.canRedo)
        counter.set(1, with: manager) // groupsByEvent opens a group
        #expect(manager.groupingLevel == 1 && manager.canUndo)
        manager.setActionName("One")
        manager.endUndoGrouping()
        manager.beginUndoGrouping()
        counter.set(2, with: manager)
        counter.set(3, with: manager)
        manager.setActionName("Two and three")
        manager.endUndoGrouping()
        #expect(manager.undoActionName == "Two and three")

        manager.undo()
        #expect(counter.value == 1, "one group undoes both of its actions")
        #expect(manager.canRedo && manager.redoActionName == "Two and three" && manager.undoActionName == "One")
        manager.undo()
        #expect(counter.value == 0 && !manager.canUndo)
        manager.redo()
        #expect(counter.value == 1)
        manager.redo()
        #expect(counter.value == 3 && !manager.canRedo)
        // A new registration clears the redo stack.
        manager.undo()
        counter.set(5, with: manager)
        manager.endUndoGrouping()
        #expect(!manager.canRedo)
        manager.undo()
        #expect(counter.value == 1)
    }

    @Test(
        "UndoManager: isUndoing during undo, disabled registration, levelsOfUndo, removeAllActions(withTarget:) (Foundation UndoManager)"
    )
    func undoManagerStates() {
        let manager = UndoManager()
        manager.groupsByEvent = false // each registration is a step
        let counter = Counter()
        let other = Counter()
        var sawUndoing = false
        manager.registerUndo(withTarget: counter) { _ in sawUndoing = manager.isUndoing && !manager.isRedoing }
        manager.undo()
        #expect(sawUndoing)

        manager.disableUndoRegistration()
        counter.set(1, with: manager)
        #expect(!manager.canUndo && !manager.isUndoRegistrationEnabled)
        manager.enableUndoRegistration()

        manager.levelsOfUndo = 2
        for n in 2...5 { counter.set(n, with: manager) }
        manager.undo()
        manager.undo()
        manager.undo()
        #expect(counter.value == 3, "only the last two steps are kept")

        manager.removeAllActions()
        counter.set(7, with: manager)
        other.set(8, with: manager)
        manager.removeAllActions(withTarget: other)
        manager.undo()
        #expect(counter.value == 3 && other.value == 8 && !manager.canUndo)
    }

    /// A context with an undo manager, on books A, B, C of publisher BookCo, saved.
    static func context() throws -> (NestedContextFixture, ManagedObjectContext, UndoManager) {
        let fixture = try NestedContextFixture(.sqlite)
        let context = ManagedObjectContext(coordinator: fixture.coordinator)
        #expect(context.undoManager == nil, "no undo manager by default")
        let manager = UndoManager()
        context.undoManager = manager
        return (fixture, context, manager)
    }

    @Test(
        "Each event is one undo step; undo and redo attribute changes (NSManagedObjectContext.undo(), redo(), processPendingChanges())"
    )
    func attributeChangesByEvent() throws {
        let (_, context, manager) = try Self.context()
        let a = try #require(try NestedContextFixture.book("A", in: context))
        try a.checkedSetValue(10, forKey: "salesRank")
        context.processPendingChanges()
        try a.checkedSetValue(20, forKey: "salesRank")
        try a.checkedSetValue("A2", forKey: "title")
        context.processPendingChanges()
        #expect(manager.canUndo)
        context.undo()
        #expect(
            try a.checkedValue(forKey: "salesRank") as? Int == 10 && a.checkedValue(forKey: "title") as? String == "A")
        context.undo()
        #expect(try a.checkedValue(forKey: "salesRank") as? Int == 1)
        #expect(!manager.canUndo)
        context.redo()
        context.redo()
        #expect(
            try a.checkedValue(forKey: "salesRank") as? Int == 20 && a.checkedValue(forKey: "title") as? String == "A2")
        // The pending event is registered first: undo right after a change undoes it.
        try a.checkedSetValue(30, forKey: "salesRank")
        context.undo()
        #expect(try a.checkedValue(forKey: "salesRank") as? Int == 20)
    }

    @Test("Undo of inserts, deletes and relationship changes, inverses included (NSManagedObjectContext.undo())")
    func insertsDeletesAndRelationships() throws {
        let (_, context, _) = try Self.context()
        let publisher = try #require(
            try NestedContextFixture.book("A", in: context)?.checkedValue(forKey: "publisher") as? ManagedObject)
        let d = try context.insertNewObject(forEntityName: "Book")
        try d.checkedSetValue("D", forKey: "title")
        try d.checkedSetValue(publisher, forKey: "publisher")
        context.processPendingChanges()
        #expect((try publisher.checkedValue(forKey: "books") as? Set<ManagedObject>)?.count == 4)
        context.undo()
        #expect(d.managedObjectContext == nil && !context.insertedObjects.contains(d), "the insert is undone")
        #expect((try publisher.checkedValue(forKey: "books") as? Set<ManagedObject>)?.count == 3, "the inverse follows")
        context.redo()
        #expect(d.isInserted && d.managedObjectContext === context)
        #expect((try publisher.checkedValue(forKey: "books") as? Set<ManagedObject>)?.contains(d) == true)
        #expect(try d.checkedValue(forKey: "title") as? String == "D")

        let b = try #require(try NestedContextFixture.book("B", in: context))
        try context.checkedDelete(b)
        context.processPendingChanges()
        #expect((try publisher.checkedValue(forKey: "books") as? Set<ManagedObject>)?.contains(b) == false)
        context.undo()
        #expect(!b.isDeleted && !context.deletedObjects.contains(b))
        #expect(try b.checkedValue(forKey: "publisher") as? ManagedObject === publisher)
        #expect(
            (try publisher.checkedValue(forKey: "books") as? Set<ManagedObject>)?.contains(b) == true,
            "the nullified inverse comes back")
        context.redo()
        #expect(b.isDeleted)
    }

    @Test(
        "An open undo group spans events; rollback() empties the stack (beginUndoGrouping(), NSManagedObjectContext.rollback())"
    )
    func groupsAndRollback() throws {
        let (_, context, manager) = try Self.context()
        let a = try #require(try NestedContextFixture.book("A", in: context))
        manager.beginUndoGrouping()
        try a.checkedSetValue(10, forKey: "salesRank")
        context.processPendingChanges()
        try a.checkedSetValue(20, forKey: "salesRank")
        context.processPendingChanges()
        manager.endUndoGrouping()
        context.undo()
        #expect(try a.checkedValue(forKey: "salesRank") as? Int == 1, "both events were one group")

        try a.checkedSetValue(5, forKey: "salesRank")
        context.processPendingChanges()
        #expect(manager.canUndo)
        context.rollback()
        #expect(!manager.canUndo && !manager.canRedo)
    }

    @Test("Undo after save reverts the objects, which are changed again and save (NSManagedObjectContext.undo())")
    func undoAfterSave() throws {
        let (fixture, context, _) = try Self.context()
        let a = try #require(try NestedContextFixture.book("A", in: context))
        try a.checkedSetValue("A2", forKey: "title")
        let d = try context.insertNewObject(forEntityName: "Book")
        try d.checkedSetValue("D", forKey: "title")
        try context.save()
        #expect(try fixture.storedTitles() == ["A2", "B", "C", "D"])
        context.undo()
        #expect(a.isUpdated && a.changedValues()["title"] as? String == "A")
        #expect(d.isDeleted, "a saved insert undone is a delete")
        try context.save()
        #expect(try fixture.storedTitles() == ["A", "B", "C"])
        context.redo()
        #expect(d.isInserted && !d.objectID.isTemporaryID)
        try context.save()
        #expect(try fixture.storedTitles() == ["A2", "B", "C", "D"])
    }

    @Test("Undoing posts objectsDidChange like any event (objectsDidChangeNotification)")
    func undoPostsChanges() throws {
        let (_, context, _) = try Self.context()
        let d = try context.insertNewObject(forEntityName: "Book")
        try d.checkedSetValue("D", forKey: "title")
        context.processPendingChanges()
        let recorder = NotificationRecorder(ManagedObjectContext.objectsDidChangeNotification, of: context)
        context.undo()
        #expect(recorder.all.count == 1)
        #expect((recorder.all[0][ManagedObjectContext.deletedObjectsKey] as? Set<ManagedObject>) == [d])
    }
}
