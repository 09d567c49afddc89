import Foundation
import Testing

@testable import ObjectGraph

// Per-object change state. Apple pages: NSManagedObject isInserted, isUpdated, isDeleted,
// hasChanges, hasPersistentChangedValues, changedValues() ("the keys and (new) values of
// persistent properties that have been changed since last fetching or saving the receiver"),
// changedValuesForCurrentEvent() ("the keys and old values of persistent properties that have
// changed since the last posting of NSManagedObjectContextObjectsDidChange"),
// committedValues(forKeys:) ("the last fetched or saved values of the receiver").
@Suite struct PerObjectChangeStateTests {
    static func seeded() throws -> (NestedContextFixture, ManagedObjectContext, ManagedObject) {
        let fixture = try NestedContextFixture(.sqlite)
        let context = ManagedObjectContext(coordinator: fixture.coordinator)
        let a = try #require(try NestedContextFixture.book("A", in: context))
        return (fixture, context, a)
    }

    @Test(
        "isInserted, isUpdated, isDeleted and hasChanges before and after save (NSManagedObject.isInserted, isUpdated, isDeleted, hasChanges)"
    )
    func flagsFollowTheObject() throws {
        let (_, context, a) = try Self.seeded()
        #expect(!a.isInserted && !a.isUpdated && !a.isDeleted && !a.hasChanges)
        let d = try context.insertNewObject(forEntityName: "Book")
        try d.checkedSetValue("D", forKey: "title")
        #expect(
            d.isInserted && !d.isUpdated && d.hasChanges, "an inserted object that changes stays inserted, not updated")
        try a.checkedSetValue(8, forKey: "salesRank")
        #expect(a.isUpdated && a.hasChanges && !a.isInserted)
        let b = try #require(try NestedContextFixture.book("B", in: context))
        try context.checkedDelete(b)
        #expect(b.isDeleted && !b.isUpdated && b.hasChanges)
        try context.save()
        for object in [a, d] {
            #expect(!object.isInserted && !object.isUpdated && !object.isDeleted && !object.hasChanges)
        }
        #expect(!b.isDeleted && b.managedObjectContext == nil, "a saved deletion leaves the context")
    }

    @Test(
        "changedValues() and hasPersistentChangedValues against the last saved values (changedValues(), hasPersistentChangedValues)"
    )
    func changedValuesAgainstCommitted() throws {
        let (_, context, a) = try Self.seeded()
        let publisher = try #require(a.checkedValue(forKey: "publisher") as? ManagedObject)
        #expect(a.changedValues().isEmpty && !a.hasPersistentChangedValues)
        try a.checkedSetValue(8, forKey: "salesRank")
        try a.checkedSetValue(nil, forKey: "publisher")
        let changed = a.changedValues()
        #expect(Set(changed.keys) == ["salesRank", "publisher"])
        #expect(changed["salesRank"] as? Int == 8)
        #expect(changed["publisher"] is NSNull, "no value is NSNull")
        // The inverse changed too: the publisher's books lost A.
        let books = try #require(publisher.changedValues()["books"] as? Set<ManagedObject>)
        #expect(!books.contains(a) && books.count == 2)
        // A value set back is no persistent change, though the object stays updated.
        try a.checkedSetValue(1, forKey: "salesRank")
        try a.checkedSetValue(publisher, forKey: "publisher")
        #expect(a.changedValues().isEmpty && !a.hasPersistentChangedValues && a.isUpdated)

        let d = try context.insertNewObject(forEntityName: "Book")
        try d.checkedSetValue("D", forKey: "title")
        try d.checkedSetValue(publisher, forKey: "publisher")
        #expect(Set(d.changedValues().keys) == ["title", "publisher"], "an inserted object's values are all changes")
        #expect(d.changedValues()["publisher"] as? ManagedObject === publisher)
        try context.save()
        #expect(d.changedValues().isEmpty && publisher.changedValues().isEmpty)
    }

    @Test("changedValuesForCurrentEvent() gives the values at the event's start (changedValuesForCurrentEvent())")
    func changedValuesForTheEvent() throws {
        let (_, context, a) = try Self.seeded()
        try a.checkedSetValue(5, forKey: "salesRank")
        #expect(a.changedValuesForCurrentEvent()["salesRank"] as? Int == 1)
        try a.checkedSetValue(6, forKey: "salesRank")
        #expect(
            a.changedValuesForCurrentEvent()["salesRank"] as? Int == 1,
            "the value at the start of the event, not the previous one")
        context.processPendingChanges()
        #expect(a.changedValuesForCurrentEvent().isEmpty)
        try a.checkedSetValue("A2", forKey: "title")
        try a.checkedSetValue(7, forKey: "salesRank")
        let event = a.changedValuesForCurrentEvent()
        #expect(event["title"] as? String == "A" && event["salesRank"] as? Int == 6)
        #expect(a.changedValues()["salesRank"] as? Int == 7, "changedValues() still compares with the saved values")
        let d = try context.insertNewObject(forEntityName: "Book")
        try d.checkedSetValue("D", forKey: "title")
        #expect(d.changedValuesForCurrentEvent().isEmpty, "an object inserted in this event had no values before it")
        context.processPendingChanges()
        try d.checkedSetValue("D2", forKey: "title")
        #expect(d.changedValuesForCurrentEvent()["title"] as? String == "D")
    }

    @Test(
        "committedValues(forKeys:) ignores unsaved changes; rollback and refresh clear the changes (committedValues(forKeys:), rollback(), refresh(_:mergeChanges:))"
    )
    func committedValuesAndClearing() throws {
        let (fixture, context, a) = try Self.seeded()
        try a.checkedSetValue(5, forKey: "salesRank")
        try a.checkedSetValue("A2", forKey: "title")
        let committed = try a.committedValues(forKeys: ["salesRank", "title"])
        #expect(committed.count == 2 && committed["salesRank"] as? Int == 1 && committed["title"] as? String == "A")
        let all = try a.committedValues(forKeys: nil)
        #expect(Set(all.keys) == Set(a.entity.propertyNames))
        #expect(all["isbn"] is NSNull)
        #expect((all["authors"] as? Set<ManagedObject>)?.isEmpty == true)
        #expect(throws: CoreDataError.self) { try a.committedValues(forKeys: ["rating"]) }
        #expect(try context.insertNewObject(forEntityName: "Book").committedValues(forKeys: nil).isEmpty)

        context.rollback()
        #expect(!a.hasChanges && a.changedValues().isEmpty)
        #expect(try a.checkedValue(forKey: "salesRank") as? Int == 1)

        try a.checkedSetValue(9, forKey: "salesRank")
        try context.checkedRefresh(a, mergeChanges: false)
        #expect(!a.isUpdated && !a.hasChanges && a.changedValues().isEmpty)
        #expect(try a.checkedValue(forKey: "salesRank") as? Int == 1)

        // Saved values are the committed ones from then on.
        try a.checkedSetValue(3, forKey: "salesRank")
        try context.save()
        #expect(try a.committedValues(forKeys: ["salesRank"])["salesRank"] as? Int == 3)
        #expect(try fixture.storedTitles() == ["A", "B", "C"])
    }
}
