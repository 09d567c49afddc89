import Foundation

@testable import ObjectGraph

/// A ManagedObject subclass that records each lifecycle hook the context calls on it, in order,
/// and runs what a test gives it in some of them. The record is the object's own, so tests
/// running in parallel share nothing.
final class TrackedNote: ManagedObject {
    var events: [String] = []
    var onWillSave: ((TrackedNote) -> Void)?
    var onAwakeFromFetch: ((TrackedNote) -> Void)?
    var onPrepareForDeletion: ((TrackedNote) -> Void)?
    var onWillTurnIntoFault: ((TrackedNote) -> Void)?
    var validateInsert: ((TrackedNote) throws -> Void)?
    var validateUpdate: ((TrackedNote) throws -> Void)?
    var validateDelete: ((TrackedNote) throws -> Void)?
    /// Per-key validation: the keys asked, and a check for the key "title".
    var validatedKeys: [String] = []
    var validateTitle: ((Any?) throws -> Any?)?

    func count(_ event: String) -> Int { events.filter { $0 == event }.count }

    override func awakeFromInsert() {
        super.awakeFromInsert()
        events.append("awakeFromInsert")
    }
    override func awakeFromFetch() {
        super.awakeFromFetch()
        events.append("awakeFromFetch")
        onAwakeFromFetch?(self)
    }
    override func willSave() {
        super.willSave()
        events.append("willSave")
        onWillSave?(self)
    }
    override func didSave() {
        super.didSave()
        events.append("didSave")
    }
    override func prepareForDeletion() {
        super.prepareForDeletion()
        events.append("prepareForDeletion")
        onPrepareForDeletion?(self)
    }
    override func willTurnIntoFault() {
        super.willTurnIntoFault()
        events.append("willTurnIntoFault")
        onWillTurnIntoFault?(self)
    }
    override func didTurnIntoFault() {
        super.didTurnIntoFault()
        events.append("didTurnIntoFault")
    }

    override func validateForInsert() throws {
        events.append("validateForInsert")
        // As Apple asks: super's errors combined with the subclass's own.
        var errors: [any Error] = []
        do { try super.validateForInsert() } catch { errors.append(error) }
        do { try validateInsert?(self) } catch { errors.append(error) }
        try throwAll(errors)
    }

    override func validateForUpdate() throws {
        events.append("validateForUpdate")
        try super.validateForUpdate()
        try validateUpdate?(self)
    }

    override func validateForDelete() throws {
        events.append("validateForDelete")
        try super.validateForDelete()
        try validateDelete?(self)
    }

    override func validateValue(_ value: inout Any?, forKey key: String) throws {
        validatedKeys.append(key)
        try super.validateValue(&value, forKey: key)
        if key == "title", let validateTitle { value = try validateTitle(value) }
    }

    private func throwAll(_ errors: [any Error]) throws {
        if errors.count == 1 { throw errors[0] }
        if errors.count > 1 {
            let detailed = errors.compactMap { $0 as? CoreDataError }.flatMap {
                $0.code == .multipleErrors ? $0.detailedErrors : [$0]
            }
            throw CoreDataError(.multipleErrors, "Multiple validation errors occurred", detailedErrors: detailed)
        }
    }
}

/// The notebook a note may belong to; deleting one cascades to its notes.
final class TrackedNotebook: ManagedObject {
    var events: [String] = []
    var notesAtPrepareForDeletion: Int?

    override func prepareForDeletion() {
        super.prepareForDeletion()
        events.append("prepareForDeletion")
        // The relationships are still whole here: the delete rules have not run yet.
        notesAtPrepareForDeletion = ((try? checkedValue(forKey: "notes")) as? Set<ManagedObject>)?.count
    }
    override func willSave() {
        super.willSave()
        events.append("willSave")
    }
    override func didSave() {
        super.didSave()
        events.append("didSave")
    }
}

/// A store with notes (TrackedNote) and notebooks (TrackedNotebook).
struct LifecycleFixture {
    let directory: TemporaryDirectory
    let coordinator: PersistentStoreCoordinator
    let context: ManagedObjectContext

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Note", class: TrackedNote.self) {
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("stamp", .integer32, defaultValue: 0)
                AttributeDescription("rating", .double, maxValue: 5)
                AttributeDescription("shout", .string, transient: true)
                RelationshipDescription("notebook", toOne: "Notebook", inverse: "notes")
            }
            EntityDescription("Notebook", class: TrackedNotebook.self) {
                AttributeDescription("name", .string)
                RelationshipDescription("notes", toMany: "Note", inverse: "notebook", deleteRule: .cascade)
            }
        }
    }

    init(_ type: StoreType = .sqlite) throws {
        directory = try TemporaryDirectory()
        coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        try coordinator.addPersistentStore(
            type: type, at: type == .inMemory ? nil : directory.file("Notes.\(type.rawValue.lowercased())"))
        context = ManagedObjectContext(coordinator: coordinator)
    }

    /// Inserts a note with a title.
    func insertNote(_ title: String, in context: ManagedObjectContext? = nil) throws -> TrackedNote {
        let note = try requireNote((context ?? self.context).insertNewObject(forEntityName: "Note"))
        try note.checkedSetValue(title, forKey: "title")
        return note
    }

    /// How many notes a fresh context finds in the store.
    func storedNoteCount() throws -> Int {
        try ManagedObjectContext(coordinator: coordinator).count(for: FetchRequest(entityName: "Note"))
    }
}

/// The object as a TrackedNote, or an error saying what it was.
func requireNote(_ object: ManagedObject) throws -> TrackedNote {
    guard let note = object as? TrackedNote else {
        throw CoreDataError(.validation, "expected a TrackedNote, got \(type(of: object))")
    }
    return note
}
