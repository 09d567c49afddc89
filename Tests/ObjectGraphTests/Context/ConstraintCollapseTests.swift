import Foundation
import ObjectGraph
import Testing

// When a merge policy resolves a constraint conflict by collapsing duplicates (Apple's
// NSMergePolicy resolve(constraintConflicts:); NSMergeByPropertyObjectTrumpMergePolicy,
// NSMergeByPropertyStoreTrumpMergePolicy, NSRollbackMergePolicy), the relationships of the
// discarded duplicate move to the object that stays, inverses included: Apple's NSMergePolicy.h
// warns that mistakes in merging relationships "will cause permanent data corruption in the form
// of dangling foreign keys". Each test runs on SQLite and on an atomic (XML) store.
@Suite struct ConstraintCollapseTests {
    static let storeTypes: [StoreType] = [.sqlite, .xml]

    /// Person(name unique) <->> Car(numberPlate unique): a relationship on each side of a
    /// constrained entity.
    final class Stack {
        let directory: TemporaryDirectory
        let coordinator: PersistentStoreCoordinator
        init(_ type: StoreType) throws {
            let model = try ManagedObjectModel {
                EntityDescription("Person", uniquenessConstraints: [["name"]]) {
                    AttributeDescription("name", .string)
                    RelationshipDescription("cars", toMany: "Car", inverse: "owner")
                }
                EntityDescription("Car", uniquenessConstraints: [["numberPlate"]]) {
                    AttributeDescription("numberPlate", .string)
                    RelationshipDescription("owner", toOne: "Person", inverse: "cars")
                }
            }
            directory = try TemporaryDirectory()
            coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(type: type, at: directory.file("Cars.\(type.rawValue)"))
        }
        func context(_ policy: MergePolicy = .error) -> ManagedObjectContext {
            let context = ManagedObjectContext(coordinator: coordinator)
            context.mergePolicy = policy
            return context
        }
        /// What a fresh context reads: each person with their cars' plates, and each car with
        /// its owner's name, sorted.
        func stored() throws -> (people: [String], cars: [String]) {
            let context = context()
            let people = try context.fetch(FetchRequest(entityName: "Person")).map { person in
                let plates = try (person.checkedValue(forKey: "cars") as? Set<ManagedObject> ?? []).map {
                    try $0.checkedValue(forKey: "numberPlate") as? String ?? "-"
                }
                return
                    "\(try person.checkedValue(forKey: "name") as? String ?? "-"): \(plates.sorted().joined(separator: ","))"
            }
            let cars = try context.fetch(FetchRequest(entityName: "Car")).map { car in
                let owner =
                    try (car.checkedValue(forKey: "owner") as? ManagedObject)?.checkedValue(forKey: "name") as? String
                return "\(try car.checkedValue(forKey: "numberPlate") as? String ?? "-") of \(owner ?? "nobody")"
            }
            return (people.sorted(), cars.sorted())
        }
    }

    static func person(_ name: String, in context: ManagedObjectContext) throws -> ManagedObject {
        let person = try context.insertNewObject(forEntityName: "Person")
        try person.checkedSetValue(name, forKey: "name")
        return person
    }

    @discardableResult
    static func car(_ plate: String, owner: ManagedObject?, in context: ManagedObjectContext) throws -> ManagedObject {
        let car = try context.insertNewObject(forEntityName: "Car")
        try car.checkedSetValue(plate, forKey: "numberPlate")
        try car.checkedSetValue(owner, forKey: "owner")
        return car
    }

    static func cars(of person: ManagedObject) throws -> Set<ManagedObject> {
        try person.checkedValue(forKey: "cars") as? Set<ManagedObject> ?? []
    }

    // Two new people named Ann collapse into one (the first inserted survives): each car's
    // to-one owner that named the discarded Ann names the survivor, whose to-many holds both.
    @Test(
        "Cars of a discarded duplicate move to the survivor (NSMergePolicy resolve(constraintConflicts:))",
        arguments: storeTypes)
    func carsOfADiscardedDuplicateMoveToTheSurvivor(type: StoreType) throws {
        for policy in [MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite] {
            let stack = try Stack(type)
            let context = stack.context(policy)
            let ann = try Self.person("Ann", in: context)
            let duplicate = try Self.person("Ann", in: context)
            let a = try Self.car("A-1", owner: ann, in: context)
            let b = try Self.car("B-2", owner: duplicate, in: context)
            try context.save()
            #expect(duplicate.managedObjectContext == nil, "\(policy)")
            #expect(try b.checkedValue(forKey: "owner") as? ManagedObject === ann, "\(policy)")
            #expect(try Self.cars(of: ann) == [a, b], "\(policy)")
            let stored = try stack.stored()
            #expect(stored.people == ["Ann: A-1,B-2"], "\(policy)")
            #expect(stored.cars == ["A-1 of Ann", "B-2 of Ann"], "\(policy)")
        }
    }

    // Two new cars with one plate: the discarded car's membership in its owner's cars moves to
    // the survivor, which had no owner; the owner's to-many names no discarded object.
    @Test(
        "A discarded duplicate's place in another object's to-many moves to the survivor (NSMergePolicy)",
        arguments: storeTypes)
    func membershipOfADiscardedDuplicateMovesToTheSurvivor(type: StoreType) throws {
        for policy in [MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump] {
            let stack = try Stack(type)
            let context = stack.context(policy)
            let bob = try Self.person("Bob", in: context)
            let survivor = try Self.car("AB-1", owner: nil, in: context)
            let duplicate = try Self.car("AB-1", owner: bob, in: context)
            try context.save()
            #expect(duplicate.managedObjectContext == nil)
            #expect(try survivor.checkedValue(forKey: "owner") as? ManagedObject === bob, "\(policy)")
            #expect(try Self.cars(of: bob) == [survivor], "\(policy)")
            let stored = try stack.stored()
            #expect(stored.people == ["Bob: AB-1"], "\(policy)")
            #expect(stored.cars == ["AB-1 of Bob"], "\(policy)")
        }
    }

    // Both duplicates have an owner: a to-one holds one object, so the policy picks (object
    // trump: the later object's; store trump: the earlier's), and the owner not picked loses
    // the car from its to-many rather than keep a dangling member.
    @Test(
        "Conflicting to-ones follow the merge policy, inverses agree (NSMergeByPropertyObjectTrumpMergePolicy, NSMergeByPropertyStoreTrumpMergePolicy)",
        arguments: storeTypes)
    func conflictingToOnesFollowThePolicy(type: StoreType) throws {
        for (policy, owner) in [(MergePolicy.mergeByPropertyObjectTrump, "Bob"), (.mergeByPropertyStoreTrump, "Ann")] {
            let stack = try Stack(type)
            let context = stack.context(policy)
            let ann = try Self.person("Ann", in: context)
            let bob = try Self.person("Bob", in: context)
            try Self.car("AB-1", owner: ann, in: context)
            try Self.car("AB-1", owner: bob, in: context)
            try context.save()
            let stored = try stack.stored()
            #expect(stored.cars == ["AB-1 of \(owner)"], "\(policy)")
            #expect(stored.people == (owner == "Ann" ? ["Ann: AB-1", "Bob: "] : ["Ann: ", "Bob: AB-1"]), "\(policy)")
            #expect(try Self.cars(of: ann).count + Self.cars(of: bob).count == 1, "\(policy)")
        }
    }

    // An upsert of a person: the new Ann takes over the stored Ann's row; the stored car stays
    // hers and the new car joins it, in the store and in the context.
    @Test(
        "An upsert keeps the stored row's to-many members and adds the new ones (NSMergeByPropertyObjectTrumpMergePolicy)",
        arguments: storeTypes)
    func upsertKeepsStoredMembersAndAddsNewOnes(type: StoreType) throws {
        let stack = try Stack(type)
        let first = stack.context()
        let storedAnn = try Self.person("Ann", in: first)
        try Self.car("A-1", owner: storedAnn, in: first)
        try first.save()
        let context = stack.context(.mergeByPropertyObjectTrump)
        let ann = try Self.person("Ann", in: context)
        let car = try Self.car("B-2", owner: ann, in: context)
        try context.save()
        #expect(ann.objectID == storedAnn.objectID)
        #expect(try car.checkedValue(forKey: "owner") as? ManagedObject === ann)
        #expect(
            try Self.cars(of: ann).map { try $0.checkedValue(forKey: "numberPlate") as? String ?? "-" }.sorted() == [
                "A-1", "B-2",
            ])
        let stored = try stack.stored()
        #expect(stored.people == ["Ann: A-1,B-2"])
        #expect(stored.cars == ["A-1 of Ann", "B-2 of Ann"])
    }

    // An upsert of a car whose stored row has another owner: object trump gives it the new
    // owner and the stored owner loses it; store trump keeps the stored owner and the new
    // owner's to-many drops the car.
    @Test("An upsert's to-one against the stored row's follows the policy (NSMergePolicy)", arguments: storeTypes)
    func upsertToOneFollowsThePolicy(type: StoreType) throws {
        for (policy, expected) in [
            (MergePolicy.mergeByPropertyObjectTrump, (["Ann: ", "Bob: AB-1"], ["AB-1 of Bob"])),
            (.mergeByPropertyStoreTrump, (["Ann: AB-1", "Bob: "], ["AB-1 of Ann"])),
        ] {
            let stack = try Stack(type)
            let first = stack.context()
            try Self.car("AB-1", owner: try Self.person("Ann", in: first), in: first)
            try first.save()
            let context = stack.context(policy)
            let bob = try Self.person("Bob", in: context)
            let car = try Self.car("AB-1", owner: bob, in: context)
            try context.save()
            let stored = try stack.stored()
            #expect(stored.people == expected.0, "\(policy)")
            #expect(stored.cars == expected.1, "\(policy)")
            let owner = try car.checkedValue(forKey: "owner") as? ManagedObject
            #expect(
                try owner?.checkedValue(forKey: "name") as? String
                    == (policy.mergeType == .mergeByPropertyObjectTrump ? "Bob" : "Ann"))
            #expect(try Self.cars(of: bob) == (owner === bob ? [car] : []), "\(policy)")
        }
    }

    // NSRollbackMergePolicy: the new car is discarded and the stored row stays; the new owner's
    // to-many, which held the discarded car, holds the stored car instead.
    @Test(
        "Rollback moves references to a discarded new object to the stored one (NSRollbackMergePolicy)",
        arguments: storeTypes)
    func rollbackMovesReferencesToTheStoredObject(type: StoreType) throws {
        let stack = try Stack(type)
        let first = stack.context()
        try Self.car("AB-1", owner: nil, in: first)
        try first.save()
        let context = stack.context(.rollback)
        let bob = try Self.person("Bob", in: context)
        let car = try Self.car("AB-1", owner: bob, in: context)
        try context.save()
        #expect(car.managedObjectContext == nil)
        #expect(try Self.cars(of: bob).allSatisfy { $0.managedObjectContext === context && !$0.objectID.isTemporaryID })
        let stored = try stack.stored()
        #expect(stored.people == ["Bob: AB-1"])
        #expect(stored.cars == ["AB-1 of Bob"])
    }

    // A stored car changed to another stored car's plate merges into that car (whose row has
    // the plate) and is deleted; its owner follows the policy and the owner not picked loses it.
    @Test(
        "A changed stored duplicate merges into the stored row, its owner following the policy (NSMergePolicy)",
        arguments: storeTypes)
    func aChangedStoredDuplicateMergesIntoTheStoredRow(type: StoreType) throws {
        for (policy, expected) in [
            (MergePolicy.mergeByPropertyObjectTrump, (["Ann: ", "Bob: A-1"], ["A-1 of Bob"])),
            (.mergeByPropertyStoreTrump, (["Ann: A-1", "Bob: "], ["A-1 of Ann"])),
        ] {
            let stack = try Stack(type)
            let first = stack.context()
            try Self.car("A-1", owner: try Self.person("Ann", in: first), in: first)
            try Self.car("B-2", owner: try Self.person("Bob", in: first), in: first)
            try first.save()
            let context = stack.context(policy)
            let request = FetchRequest(entityName: "Car")
            request.predicate = try Predicate(checkedFormat: "numberPlate == %@", "B-2")
            let car = try #require(try context.fetch(request).first)
            try car.checkedSetValue("A-1", forKey: "numberPlate")
            try context.save()
            let stored = try stack.stored()
            #expect(stored.people == expected.0, "\(policy)")
            #expect(stored.cars == expected.1, "\(policy)")
        }
    }

    // A many-to-many: two new tags named "red" collapse; the cars of the discarded tag join
    // the survivor's, and each car's tags name the survivor, not the discarded tag.
    @Test("A discarded duplicate's many-to-many links move to the survivor (NSMergePolicy)", arguments: storeTypes)
    func manyToManyLinksMoveToTheSurvivor(type: StoreType) throws {
        let model = try ManagedObjectModel {
            EntityDescription("Tag", uniquenessConstraints: [["name"]]) {
                AttributeDescription("name", .string)
                RelationshipDescription("cars", toMany: "Car", inverse: "tags")
            }
            EntityDescription("Car") {
                AttributeDescription("numberPlate", .string)
                RelationshipDescription("tags", toMany: "Tag", inverse: "cars")
            }
        }
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: directory.file("Tags.\(type.rawValue)"))
        let context = ManagedObjectContext(coordinator: coordinator)
        context.mergePolicy = .mergeByPropertyObjectTrump
        func insert(_ entity: String, _ key: String, _ value: String) throws -> ManagedObject {
            let object = try context.insertNewObject(forEntityName: entity)
            try object.checkedSetValue(value, forKey: key)
            return object
        }
        let red = try insert("Tag", "name", "red")
        let duplicate = try insert("Tag", "name", "red")
        let a = try insert("Car", "numberPlate", "A-1")
        let b = try insert("Car", "numberPlate", "B-2")
        try a.checkedSetValue(Set([red]), forKey: "tags")
        try b.checkedSetValue(Set([duplicate]), forKey: "tags")
        try context.save()
        #expect(try red.checkedValue(forKey: "cars") as? Set<ManagedObject> == [a, b])
        #expect(try b.checkedValue(forKey: "tags") as? Set<ManagedObject> == [red])
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let tags = try fresh.fetch(FetchRequest(entityName: "Tag"))
        #expect(tags.count == 1)
        let plates = try (tags.first?.checkedValue(forKey: "cars") as? Set<ManagedObject> ?? []).map {
            try $0.checkedValue(forKey: "numberPlate") as? String ?? "-"
        }
        #expect(plates.sorted() == ["A-1", "B-2"])
    }

    // A relationship declared without an inverse (Garage.favourite) that points at a discarded
    // duplicate points at the survivor, so the store holds no key of a car that was never saved.
    @Test("A one-way reference to a discarded duplicate points at the survivor (NSMergePolicy)", arguments: storeTypes)
    func oneWayReferencesPointAtTheSurvivor(type: StoreType) throws {
        let model = try ManagedObjectModel {
            EntityDescription("Car", uniquenessConstraints: [["numberPlate"]]) {
                AttributeDescription("numberPlate", .string)
            }
            EntityDescription("Garage") {
                AttributeDescription("name", .string)
                RelationshipDescription("favourite", toOne: "Car", inverse: nil)
            }
        }
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: directory.file("Garages.\(type.rawValue)"))
        let context = ManagedObjectContext(coordinator: coordinator)
        context.mergePolicy = .mergeByPropertyStoreTrump
        let survivor = try context.insertNewObject(forEntityName: "Car")
        try survivor.checkedSetValue("AB-1", forKey: "numberPlate")
        let duplicate = try context.insertNewObject(forEntityName: "Car")
        try duplicate.checkedSetValue("AB-1", forKey: "numberPlate")
        let garage = try context.insertNewObject(forEntityName: "Garage")
        try garage.checkedSetValue(duplicate, forKey: "favourite")
        try context.save()
        #expect(try garage.checkedValue(forKey: "favourite") as? ManagedObject === survivor)
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let favourite =
            try fresh.fetch(FetchRequest(entityName: "Garage")).first?.checkedValue(forKey: "favourite")
            as? ManagedObject
        #expect(try favourite?.checkedValue(forKey: "numberPlate") as? String == "AB-1")
        #expect(try fresh.count(for: FetchRequest(entityName: "Car")) == 1)
    }
}
