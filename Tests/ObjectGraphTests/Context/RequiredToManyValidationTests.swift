import Foundation
import Testing

@testable import ObjectGraph

// Apple, NSRelationshipDescription.maxCount
// (https://developer.apple.com/documentation/coredata/nsrelationshipdescription/maxcount): the count
// limits are enforced "when that attribute is not nil"; NSPropertyDescription.isOptional
// (https://developer.apple.com/documentation/coredata/nspropertydescription/isoptional): optionality
// is whether the value "can be nil" at a save; NSValidationMissingMandatoryPropertyError
// (https://developer.apple.com/documentation/coredata/nsvalidationmissingmandatorypropertyerror): 1570
// is for "a non-optional property with a nil value". A to-many's value is a set, never nil: an
// empty one in a non-optional to-many with minimum 0 saves, on every store type.
@Suite struct RequiredToManyValidationTests {
    static let storeTypes: [StoreType] = [.inMemory, .sqlite, .xml, .binary, .postgres]

    /// A team whose players are required (minimum `minimum`), and whose coach is a required to-one.
    static func model(minimum: Int = 0) throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Team") {
                AttributeDescription("name", .string)
                RelationshipDescription(
                    "players", toMany: "Player", inverse: "team", optional: false, minCount: minimum)
                RelationshipDescription("coach", toOne: "Coach", inverse: "teams", optional: false)
            }
            EntityDescription("Player") {
                AttributeDescription("name", .string)
                RelationshipDescription("team", toOne: "Team", inverse: "players")
            }
            EntityDescription("Coach") {
                AttributeDescription("name", .string)
                RelationshipDescription("teams", toMany: "Team", inverse: "coach", optional: false)
            }
        }
    }

    @Test(arguments: storeTypes)
    func anEmptyRequiredToManySavesAndSavesAgain(_ type: StoreType) throws {
        guard let fixture = try StackFixture.ifAvailable(type, model: try Self.model()) else { return }
        let coach = try fixture.context.insertNewObject(forEntityName: "Coach")
        let team = try fixture.context.insertNewObject(forEntityName: "Team")
        try team.checkedSetValue("Rovers", forKey: "name")
        try team.checkedSetValue(coach, forKey: "coach")
        #expect((try team.checkedValue(forKey: "players") as? Set<ManagedObject>)?.isEmpty == true)
        try fixture.context.save()

        // Read back, changed and saved again while the empty set is not loaded.
        let other = fixture.secondContext()
        let fetched = try #require(try other.fetch(FetchRequest(entityName: "Team")).first)
        try fetched.checkedSetValue("Wanderers", forKey: "name")
        try other.save()
        #expect((try fetched.checkedValue(forKey: "players") as? Set<ManagedObject>)?.isEmpty == true)
        #expect(try other.count(for: FetchRequest(entityName: "Team")) == 1)
    }

    @Test func aMinimumAboveZeroStillFailsWithTooFew() throws {
        let fixture = try StackFixture(.inMemory, model: try Self.model(minimum: 1))
        let team = try fixture.context.insertNewObject(forEntityName: "Team")
        try team.checkedSetValue(try fixture.context.insertNewObject(forEntityName: "Coach"), forKey: "coach")
        let error = #expect(throws: CoreDataError.self) { try fixture.context.save() }
        #expect(error?.code == .relationshipLacksMinimumCount)
        #expect(error?.code?.rawValue == 1580)
        #expect(error?.key == "players")
        // The same through the object's own hook, as a subclass's override would reach it.
        let hook = #expect(throws: CoreDataError.self) { try team.validateForInsert() }
        #expect(hook?.code == .relationshipLacksMinimumCount)
    }

    @Test func aMissingRequiredToOneStillFailsAsMandatory() throws {
        let fixture = try StackFixture(.inMemory, model: try Self.model())
        let team = try fixture.context.insertNewObject(forEntityName: "Team")
        let error = #expect(throws: CoreDataError.self) { try fixture.context.save() }
        #expect(error?.code == .missingMandatoryProperty)
        #expect(error?.key == "coach")
        #expect(error?.objectURI == team.objectID.uriString)
    }
}
