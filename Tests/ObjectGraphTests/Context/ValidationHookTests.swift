import Foundation
import Testing

@testable import ObjectGraph

/// An error of the application's own, as a subclass's validation throws it.
struct NoteRuleError: Error, Equatable { let reason: String }

// The validation hooks of NSManagedObject: validateForInsert(), validateForUpdate(),
// validateForDelete(), validateValue(_:forKey:) and per-key validation (validate<Key>:error:),
// as Apple's documentation of each describes them ("Subclasses should invoke super's
// implementation ... and should combine any error returned by super's implementation with
// their own").
@Suite struct ValidationHookTests {
    @Test(
        "A save asks validateForInsert of new objects and validateForUpdate of changed ones, each once (NSManagedObject.validateForInsert, validateForUpdate)"
    )
    func saveCallsTheRightHook() throws {
        let fixture = try LifecycleFixture()
        let old = try fixture.insertNote("Old")
        try fixture.context.save()
        #expect(old.count("validateForInsert") == 1 && old.count("validateForUpdate") == 0)
        let new = try fixture.insertNote("New")
        try old.checkedSetValue("Old, changed", forKey: "title")
        try fixture.context.save()
        #expect(new.count("validateForInsert") == 1 && new.count("validateForUpdate") == 0)
        #expect(old.count("validateForInsert") == 1 && old.count("validateForUpdate") == 1)
    }

    @Test(
        "An error thrown by validateForInsert fails the save with that error, and nothing is written (NSManagedObject.validateForInsert)"
    )
    func validateForInsertErrorFailsTheSave() throws {
        let fixture = try LifecycleFixture()
        let note = try fixture.insertNote("Too early")
        note.validateInsert = { _ in throw NoteRuleError(reason: "no notes before noon") }
        #expect(throws: NoteRuleError(reason: "no notes before noon")) { try fixture.context.save() }
        #expect(try fixture.storedNoteCount() == 0)
        #expect(fixture.context.insertedObjects == [note])
        note.validateInsert = nil
        try fixture.context.save()
        #expect(try fixture.storedNoteCount() == 1)
    }

    @Test(
        "super's model errors and the subclass's own combine into 1560, each listed (NSManagedObject.validateForInsert; NSValidationMultipleErrorsError)"
    )
    func superErrorsCombineWithTheSubclasses() throws {
        let fixture = try LifecycleFixture()
        let note = try requireNote(fixture.context.insertNewObject(forEntityName: "Note")) // no title: 1570
        try note.checkedSetValue(9.5, forKey: "rating") // above 5: 1610
        note.validateInsert = { _ in throw CoreDataError(.validation, "Note: a rating needs a title") }
        let error = try #require(throws: CoreDataError.self) { try fixture.context.save() }
        #expect(error.code == .multipleErrors)
        #expect(error.detailedErrors.map(\.code) == [.missingMandatoryProperty, .numberTooLarge, .validation])
        #expect(error.detailedErrors.map(\.key) == ["title", "rating", nil])
        #expect(error.detailedErrors.allSatisfy { $0.code == .validation || $0.objectURI == note.objectID.uriString })
    }

    @Test("validateForUpdate overridden rejects a change; the error reaches save (NSManagedObject.validateForUpdate)")
    func validateForUpdateRejectsAChange() throws {
        let fixture = try LifecycleFixture()
        let note = try fixture.insertNote("Fixed")
        try fixture.context.save()
        note.validateUpdate = { note in
            if (try? note.checkedValue(forKey: "title")) as? String != "Fixed" {
                throw CoreDataError(
                    .validation, "Note.title can't change once saved", objectURI: note.objectID.uriString, key: "title")
            }
        }
        try note.checkedSetValue("Changed", forKey: "title")
        let error = try #require(throws: CoreDataError.self) { try fixture.context.save() }
        #expect(error.code == .validation && error.key == "title")
        fixture.context.rollback()
        #expect(try note.checkedValue(forKey: "title") as? String == "Fixed")
    }

    @Test(
        "validateForDelete: the Deny rule by default (1600), and a subclass's own refusal (NSManagedObject.validateForDelete)"
    )
    func validateForDeleteRefuses() throws {
        let fixture = try LifecycleFixture()
        let note = try fixture.insertNote("Pinned")
        try fixture.context.save()
        note.validateDelete = { note in
            throw CoreDataError(.validation, "\(note.objectID.uriString) is pinned", objectURI: note.objectID.uriString)
        }
        try fixture.context.checkedDelete(note)
        let error = try #require(throws: CoreDataError.self) { try fixture.context.save() }
        #expect(error.code == .validation)
        #expect(note.count("validateForDelete") == 1)
        #expect(try fixture.storedNoteCount() == 1)

        // The default: a Deny relationship that still holds objects (error 1600), for a subclass too.
        let model = try ManagedObjectModel {
            EntityDescription("Note", class: TrackedNote.self) {
                AttributeDescription("title", .string)
                RelationshipDescription("tags", toMany: "Tag", inverse: "note", deleteRule: .deny)
            }
            EntityDescription("Tag") {
                AttributeDescription("name", .string)
                RelationshipDescription("note", toOne: "Note", inverse: "tags")
            }
        }
        let stack = try StackFixture(.sqlite, model: model)
        let tagged = try requireNote(stack.context.insertNewObject(forEntityName: "Note"))
        let tag = try stack.context.insertNewObject(forEntityName: "Tag")
        try tag.checkedSetValue(tagged, forKey: "note")
        try stack.context.save()
        try stack.context.checkedDelete(tagged)
        let denied = try #require(throws: CoreDataError.self) { try stack.context.save() }
        #expect(denied.code == .relationshipDeniedDelete && denied.key == "tags")
        #expect(tagged.count("validateForDelete") == 1)
    }

    @Test(
        "validateValue(_:forKey:) checks one key against the model and coerces the value (NSManagedObject.validateValue(_:forKey:))"
    )
    func validateValueChecksAndCoerces() throws {
        let fixture = try LifecycleFixture()
        let note = try fixture.insertNote("Any")
        var rating: Any? = 4
        try note.validateValue(&rating, forKey: "rating")
        #expect(rating as? Double == 4.0, "an Int for a Double attribute is coerced")
        var tooHigh: Any? = 7
        let high = try #require(throws: CoreDataError.self) { try note.validateValue(&tooHigh, forKey: "rating") }
        #expect(high.code == .numberTooLarge && high.key == "rating")
        var missing: Any? = nil
        let mandatory = try #require(throws: CoreDataError.self) { try note.validateValue(&missing, forKey: "title") }
        #expect(mandatory.code == .missingMandatoryProperty)
        var any: Any? = 1
        let unknown = try #require(throws: CoreDataError.self) { try note.validateValue(&any, forKey: "colour") }
        #expect(unknown.kind == .exception(.undefinedKey))
        // Validating changes nothing: the object keeps its value and stays unchanged.
        #expect(try note.checkedValue(forKey: "rating") == nil)
    }

    @Test(
        "Per-key validation (Core Data's validate<Key>:error:): an override of validateValue(_:forKey:) for one key runs at each save, for every property, after the model's checks (NSManagedObject.validateValue(_:forKey:))"
    )
    func perKeyValidationRunsAtSave() throws {
        let fixture = try LifecycleFixture()
        let note = try fixture.insertNote("ok")
        note.validateTitle = { value in
            guard let title = value as? String, title.first?.isUppercase == true else {
                throw CoreDataError(.validation, "Note.title must start with a capital letter", key: "title")
            }
            return value
        }
        let error = try #require(throws: CoreDataError.self) { try fixture.context.save() }
        #expect(error.code == .validation && error.key == "title")
        #expect(Set(note.validatedKeys).isSuperset(of: ["title", "stamp", "rating", "shout", "notebook"]))
        try note.checkedSetValue("Ok", forKey: "title")
        note.validatedKeys = []
        try fixture.context.save()
        #expect(note.validatedKeys.filter { $0 == "title" }.count == 1)
    }

    @Test(
        "A save does not store a value validateValue replaced: validation checks, willSave changes (NSManagedObject.validateValue(_:forKey:), willSave)"
    )
    func validationDoesNotChangeSavedValues() throws {
        let fixture = try LifecycleFixture()
        let note = try fixture.insertNote("lower")
        note.validateTitle = { value in (value as? String)?.capitalized }
        try fixture.context.save()
        let stored = try #require(
            try ManagedObjectContext(coordinator: fixture.coordinator).fetch(FetchRequest(entityName: "Note")).first)
        #expect(try stored.checkedValue(forKey: "title") as? String == "lower")
    }

    @Test(
        "A child context validates through the same hooks before pushing into its parent (NSManagedObject.validateForInsert; NSManagedObjectContext.save)"
    )
    func childSaveValidatesThroughHooks() throws {
        let fixture = try LifecycleFixture()
        let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: fixture.coordinator)
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        try child.performAndWait {
            let note = try fixture.insertNote("Child", in: child)
            note.validateInsert = { _ in throw NoteRuleError(reason: "not in the child") }
            #expect(throws: NoteRuleError(reason: "not in the child")) { try child.save() }
            #expect(note.count("validateForInsert") == 1)
        }
        #expect(parent.performAndWait { parent.insertedObjects.isEmpty })
    }
}
