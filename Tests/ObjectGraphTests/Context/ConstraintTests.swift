import Foundation
import ObjectGraph
import Testing

// Uniqueness constraints enforced at save on every store type (Apple's NSConstraintConflict:
// "A constraint conflict occurs when your data model is using unique constraints and one or
// more managed objects are violating that constraint"), and resolved by the merge policies
// (Apple's NSMergePolicy resolve(constraintConflicts:); NSMergeByPropertyObjectTrumpMergePolicy,
// NSMergeByPropertyStoreTrumpMergePolicy, NSOverwriteMergePolicy, NSRollbackMergePolicy).
@Suite struct ConstraintTests {
    static let storeTypes: [StoreType] = [.sqlite, .xml, .binary, .inMemory]

    /// A coordinator on a new store of the type, with Car(numberPlate unique, maker, colour).
    final class Stack {
        let directory: TemporaryDirectory
        let coordinator: PersistentStoreCoordinator
        init(_ type: StoreType) throws {
            let model = try ManagedObjectModel {
                EntityDescription("Car", uniquenessConstraints: [["numberPlate"]]) {
                    AttributeDescription("numberPlate", .string)
                    AttributeDescription("maker", .string)
                    AttributeDescription("colour", .string)
                }
            }
            directory = try TemporaryDirectory()
            coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(
                type: type, at: type == .inMemory ? nil : directory.file("Cars.\(type.rawValue)"))
        }
        func context(_ policy: MergePolicy = .error) -> ManagedObjectContext {
            let context = ManagedObjectContext(coordinator: coordinator)
            context.mergePolicy = policy
            return context
        }
        /// The stored cars as "plate maker colour", in plate order.
        func stored() throws -> [String] {
            let request = FetchRequest(entityName: "Car")
            request.sortDescriptors = [SortDescriptor(key: "numberPlate"), SortDescriptor(key: "maker")]
            return try context().fetch(request).map { car in
                try ["numberPlate", "maker", "colour"].map { try car.checkedValue(forKey: $0) as? String ?? "-" }
                    .joined(separator: " ")
            }
        }
    }

    @discardableResult
    static func car(_ plate: String?, _ maker: String?, _ colour: String? = nil, in context: ManagedObjectContext)
        throws -> ManagedObject
    {
        let car = try context.insertNewObject(forEntityName: "Car")
        try car.checkedSetValue(plate, forKey: "numberPlate")
        try car.checkedSetValue(maker, forKey: "maker")
        try car.checkedSetValue(colour, forKey: "colour")
        return car
    }

    // NSErrorMergePolicy (the default): a save with a constraint conflict fails with 133021
    // (NSManagedObjectConstraintMergeError) and writes nothing; the conflict lists the
    // constraint, the values and the objects (NSConstraintConflict).
    @Test(arguments: storeTypes) func twoNewObjectsWithTheSameValuesFailTheSave(type: StoreType) throws {
        let stack = try Stack(type)
        let context = stack.context()
        let a = try Self.car("AB-1", "Fiat", in: context)
        let b = try Self.car("AB-1", "Seat", in: context)
        try Self.car("CD-2", "Opel", in: context)
        let error = #expect(throws: CoreDataError.self) { try context.save() }
        #expect(error?.code == .constraintMerge)
        #expect(error?.detailedErrors.count == 1)
        let message = error?.message ?? ""
        #expect(message.contains("Car (numberPlate) with numberPlate = \"AB-1\""), "\(message)")
        #expect(
            message.contains(a.objectID.uriRepresentation().absoluteString)
                && message.contains(b.objectID.uriRepresentation().absoluteString), "\(message)")
        #expect(try stack.stored().isEmpty)
        #expect(context.hasChanges)
    }

    @Test(arguments: storeTypes) func aNewObjectWithAStoredRowsValuesFailsTheSave(type: StoreType) throws {
        let stack = try Stack(type)
        let first = stack.context()
        try Self.car("AB-1", "Fiat", in: first)
        try first.save()
        let context = stack.context()
        try Self.car("AB-1", "Seat", in: context)
        let error = #expect(throws: CoreDataError.self) { try context.save() }
        #expect(error?.code == .constraintMerge)
        #expect(error?.message.contains("and the stored x-coredata://") == true, "\(error?.message ?? "")")
        #expect(try stack.stored() == ["AB-1 Fiat -"])
    }

    // The 133021 error's userInfo holds its NSConstraintConflicts under "conflictList"
    // (NSPersistentStoreSaveConflictsErrorKey), with the stored object and the new one.
    @Test func theErrorCarriesItsConstraintConflicts() throws {
        let stack = try Stack(.sqlite)
        let first = stack.context()
        try Self.car("AB-1", "Fiat", in: first)
        try first.save()
        let context = stack.context()
        let car = try Self.car("AB-1", "Seat", in: context)
        let error = try #require(#expect(throws: CoreDataError.self) { try context.save() })
        let conflicts = (error as NSError).userInfo[CoreDataError.conflictListKey] as? [ConstraintConflict]
        #expect(conflicts?.count == 1)
        #expect(conflicts?.first?.constraint == ["numberPlate"])
        #expect(conflicts?.first?.conflictingObjects.first === car)
        #expect(conflicts?.first?.databaseSnapshot?["maker"] as? String == "Fiat")
    }

    // Not conflicts: nil values (NULLs never collide in a UNIQUE index), a changed object that
    // keeps its own values, and a row deleted in the same save.
    @Test(arguments: storeTypes) func nilValuesOwnRowsAndDeletedRowsDoNotConflict(type: StoreType) throws {
        let stack = try Stack(type)
        let context = stack.context()
        try Self.car(nil, "Fiat", in: context)
        try Self.car(nil, "Seat", in: context)
        let old = try Self.car("AB-1", "Opel", in: context)
        try context.save()
        try old.checkedSetValue("red", forKey: "colour")
        try context.save()
        try context.checkedDelete(old)
        try Self.car("AB-1", "Kia", in: context)
        try context.save()
        #expect(try stack.stored().sorted() == ["- Fiat -", "- Seat -", "AB-1 Kia -"])
    }

    // NSMergeByPropertyObjectTrumpMergePolicy: an upsert. The new object takes over the stored
    // row's identity; where both have a value the in-memory one wins.
    @Test(arguments: storeTypes) func objectTrumpUpsertsWithTheInMemoryValuesWinning(type: StoreType) throws {
        let stack = try Stack(type)
        let first = stack.context()
        let stored = try Self.car("AB-1", "Fiat", "red", in: first)
        try first.save()
        let context = stack.context(.mergeByPropertyObjectTrump)
        let car = try Self.car("AB-1", "Seat", nil, in: context)
        try context.save()
        #expect(try stack.stored() == ["AB-1 Seat red"])
        #expect(car.objectID == stored.objectID)
        #expect(!car.objectID.isTemporaryID)
        #expect(!context.hasChanges)
        // The object goes on as the row: a later change updates it.
        try car.checkedSetValue("blue", forKey: "colour")
        try context.save()
        #expect(try stack.stored() == ["AB-1 Seat blue"])
    }

    // NSMergeByPropertyStoreTrumpMergePolicy: an upsert where the stored values win.
    @Test(arguments: storeTypes) func storeTrumpUpsertsWithTheStoredValuesWinning(type: StoreType) throws {
        let stack = try Stack(type)
        let first = stack.context()
        try Self.car("AB-1", "Fiat", nil, in: first)
        try first.save()
        let context = stack.context(.mergeByPropertyStoreTrump)
        let car = try Self.car("AB-1", "Seat", "green", in: context)
        try context.save()
        #expect(try stack.stored() == ["AB-1 Fiat green"])
        #expect(try car.checkedValue(forKey: "maker") as? String == "Fiat")
    }

    // Within one save the conflicting objects collapse into one (the first inserted survives).
    @Test(arguments: storeTypes) func mergePoliciesCollapseNewObjectsIntoOne(type: StoreType) throws {
        for (policy, expected) in [
            (MergePolicy.mergeByPropertyObjectTrump, "AB-1 Seat blue"), (.mergeByPropertyStoreTrump, "AB-1 Fiat blue"),
        ] {
            let stack = try Stack(type)
            let context = stack.context(policy)
            let a = try Self.car("AB-1", "Fiat", nil, in: context)
            let b = try Self.car("AB-1", "Seat", "blue", in: context)
            try context.save()
            #expect(try stack.stored() == [expected], "\(policy)")
            #expect(a.managedObjectContext === context && !a.objectID.isTemporaryID)
            #expect(b.managedObjectContext == nil)
        }
    }

    // NSOverwriteMergePolicy: "saving the entire in-memory object to the persistent store":
    // the stored row takes the new object's values whole, nil included.
    @Test(arguments: storeTypes) func overwriteSavesTheInMemoryObjectWhole(type: StoreType) throws {
        let stack = try Stack(type)
        let first = stack.context()
        try Self.car("AB-1", "Fiat", "red", in: first)
        try first.save()
        let context = stack.context(.overwrite)
        try Self.car("AB-1", "Seat", nil, in: context)
        try context.save()
        #expect(try stack.stored() == ["AB-1 Seat -"])
    }

    // NSRollbackMergePolicy: "discarding unsaved changes": the stored row stays as it is and
    // the conflicting new object leaves the context; the rest of the save goes through.
    @Test(arguments: storeTypes) func rollbackKeepsTheStoredRow(type: StoreType) throws {
        let stack = try Stack(type)
        let first = stack.context()
        try Self.car("AB-1", "Fiat", "red", in: first)
        try first.save()
        let context = stack.context(.rollback)
        let car = try Self.car("AB-1", "Seat", nil, in: context)
        try Self.car("CD-2", "Opel", nil, in: context)
        try context.save()
        #expect(try stack.stored() == ["AB-1 Fiat red", "CD-2 Opel -"])
        #expect(car.managedObjectContext == nil)
    }

    // A changed stored object that takes another row's values conflicts too.
    @Test(arguments: storeTypes) func aChangedObjectTakingAnotherRowsValuesConflicts(type: StoreType) throws {
        let stack = try Stack(type)
        let context = stack.context()
        try Self.car("AB-1", "Fiat", in: context)
        let other = try Self.car("CD-2", "Opel", in: context)
        try context.save()
        try other.checkedSetValue("AB-1", forKey: "numberPlate")
        let error = #expect(throws: CoreDataError.self) { try context.save() }
        #expect(error?.code == .constraintMerge)
        #expect(try stack.stored() == ["AB-1 Fiat -", "CD-2 Opel -"])
    }

    // A stored object changed to a stored row's values, under the merging policies: the row
    // keeps its values and identity, the changed object merges into it by property and is
    // deleted, so no two rows share the plate (the SQLite store's UNIQUE index would refuse).
    @Test(
        "A changed stored object merges into the stored row with its values (NSMergeByPropertyObjectTrumpMergePolicy, NSMergeByPropertyStoreTrumpMergePolicy)",
        arguments: storeTypes)
    func aChangedObjectMergesIntoTheStoredRow(type: StoreType) throws {
        for (policy, expected) in [
            (MergePolicy.mergeByPropertyObjectTrump, "AB-1 Opel red"), (.mergeByPropertyStoreTrump, "AB-1 Fiat red"),
        ] {
            let stack = try Stack(type)
            let context = stack.context(policy)
            let kept = try Self.car("AB-1", "Fiat", "red", in: context)
            let changed = try Self.car("CD-2", "Opel", nil, in: context)
            try context.save()
            try changed.checkedSetValue("AB-1", forKey: "numberPlate")
            try context.save()
            #expect(try stack.stored() == [expected], "\(policy)")
            #expect(kept.managedObjectContext === context && !kept.objectID.isTemporaryID, "\(policy)")
            #expect(changed.managedObjectContext == nil, "\(policy)")
            #expect(!context.hasChanges)
        }
    }

    /// Vehicle(numberPlate unique) with sub-entities Car(seats) and Van(load): the constraint
    /// is declared on the parent, so a Car and a Van share it.
    static func vehicles(_ type: StoreType, in directory: TemporaryDirectory) throws -> PersistentStoreCoordinator {
        let model = try ManagedObjectModel {
            EntityDescription("Vehicle", abstract: true, uniquenessConstraints: [["numberPlate"]]) {
                AttributeDescription("numberPlate", .string)
            }
            EntityDescription("Car", parent: "Vehicle") { AttributeDescription("seats", .integer16) }
            EntityDescription("Van", parent: "Vehicle") { AttributeDescription("load", .integer32) }
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(
            type: type, at: type == .inMemory ? nil : directory.file("Vehicles.\(type.rawValue)"))
        return coordinator
    }

    @discardableResult
    static func vehicle(_ entity: String, _ plate: String, in context: ManagedObjectContext) throws -> ManagedObject {
        let vehicle = try context.insertNewObject(forEntityName: entity)
        try vehicle.checkedSetValue(plate, forKey: "numberPlate")
        return vehicle
    }

    // Apple's NSMergePolicy.h: "if an entity hierarchy has a constraint which is extended in
    // subentities, all constraint violations for that constraint will be collapsed into a
    // single report": a new Car conflicts with a stored Van of the same plate. An object
    // cannot change entity and merging would lose the properties only one entity has, so the
    // merging policies fail with 133021 naming both entities; rollback keeps the stored Van.
    @Test(
        "A new object conflicts with a stored row of another sub-entity (NSConstraintConflict, NSManagedObjectConstraintMergeError)",
        arguments: storeTypes)
    func aConflictAcrossSubEntitiesFailsNamingBoth(type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let coordinator = try Self.vehicles(type, in: directory)
        let first = ManagedObjectContext(coordinator: coordinator)
        try Self.vehicle("Van", "AB-1", in: first)
        try first.save()
        for policy in [MergePolicy.error, .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite] {
            let context = ManagedObjectContext(coordinator: coordinator)
            context.mergePolicy = policy
            try Self.vehicle("Car", "AB-1", in: context)
            let error = #expect(throws: CoreDataError.self, "\(policy)") { try context.save() }
            #expect(error?.code == .constraintMerge, "\(policy)")
            let message = error?.message ?? ""
            #expect(message.contains("Vehicle (numberPlate) with numberPlate = \"AB-1\""), "\(message)")
            #expect(message.contains("/Car/") && message.contains("/Van/"), "\(message)")
            if policy.mergeType != .error { #expect(message.contains("Car and Van"), "\(message)") }
        }
        let context = ManagedObjectContext(coordinator: coordinator)
        context.mergePolicy = .rollback
        let car = try Self.vehicle("Car", "AB-1", in: context)
        try context.save()
        #expect(car.managedObjectContext == nil)
        let stored = try ManagedObjectContext(coordinator: coordinator).fetch(FetchRequest(entityName: "Vehicle"))
        #expect(stored.map(\.entity.name) == ["Van"])
    }

    // Within one save, a new Car and a new Van with one plate: the same refusal, naming both.
    @Test(
        "New objects of two sub-entities with one constrained value fail the save (NSConstraintConflict)",
        arguments: storeTypes)
    func newObjectsOfTwoSubEntitiesConflict(type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let context = ManagedObjectContext(coordinator: try Self.vehicles(type, in: directory))
        context.mergePolicy = .mergeByPropertyObjectTrump
        try Self.vehicle("Car", "AB-1", in: context)
        try Self.vehicle("Van", "AB-1", in: context)
        let error = #expect(throws: CoreDataError.self) { try context.save() }
        #expect(error?.code == .constraintMerge)
        #expect(error?.message.contains("Car and Van") == true, "\(error?.message ?? "")")
        #expect(try context.count(for: FetchRequest(entityName: "Vehicle")) == 2)
    }

    /// Collects the constraint conflicts it is given, then resolves them as object trump.
    final class RecordingPolicy: MergePolicy, @unchecked Sendable {
        var conflicts: [ConstraintConflict] = []
        override func resolve(constraintConflicts list: [ConstraintConflict]) throws {
            conflicts += list
            try super.resolve(constraintConflicts: list)
        }
    }

    // NSManagedObjectContext save(): a child's save "only updates managed objects in that parent
    // store", so duplicates pass into the parent; the parent's save to the store finds them as
    // one context-level conflict, whose databaseObject is nil (NSMergePolicy.h: "May be null
    // if this is a context-level violation").
    @Test(
        "A child's duplicates are found by the parent's save, as a context-level conflict (NSConstraintConflict)",
        arguments: storeTypes)
    func aChildsDuplicatesAreFoundByTheParentsSave(type: StoreType) throws {
        let stack = try Stack(type)
        let parent = stack.context()
        let policy = RecordingPolicy(merge: .mergeByPropertyObjectTrump)
        parent.mergePolicy = policy
        let child = ManagedObjectContext(concurrencyType: .privateQueue, parent: parent)
        try child.performAndWait {
            try Self.car("AB-1", "Fiat", in: child)
            try Self.car("AB-1", "Seat", in: child)
            try child.save()
        }
        #expect(parent.insertedObjects.count == 2)
        try parent.save()
        let conflict = try #require(policy.conflicts.first)
        #expect(policy.conflicts.count == 1)
        #expect(conflict.databaseObject == nil && conflict.databaseSnapshot == nil)
        #expect(conflict.conflictingObjects.count == 2)
        #expect(try stack.stored() == ["AB-1 Seat -"])
    }
}
