import Foundation
import Testing

@testable import ObjectGraph

// Apple, CoreDataErrors.h (Core Data Constants: validation error codes) and NSPropertyDescription
// reference: optional, min/max values, regular expressions, relationship counts.
@Suite struct ValidationTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Team") {
                AttributeDescription("name", .string, optional: false, minValue: 2, maxValue: 10)
                AttributeDescription("size", .integer16, minValue: 1, maxValue: 11)
                AttributeDescription("code", .string, regularExpression: "[A-Z]{3}")
                RelationshipDescription("players", toMany: "Player", inverse: "team", minCount: 1, maxCount: 2)
            }
            EntityDescription("Player") {
                AttributeDescription("name", .string)
                RelationshipDescription("team", toOne: "Team", inverse: "players", optional: false)
            }
        }
    }

    @Test(arguments: [
        ("name", ConstantValue.string("X"), CoreDataError.Code.stringTooShort),
        ("name", .string("Extraordinarily long"), .stringTooLong),
        ("size", .int(12), .numberTooLarge),
        ("size", .int(0), .numberTooSmall),
        ("code", .string("abc"), .stringPatternMatching),
    ])
    func attributeRules(_ key: String, _ constant: ConstantValue, _ code: CoreDataError.Code) throws {
        let value = constant.runtimeValue
        let fixture = try StackFixture(.inMemory, model: try Self.model())
        let team = try fixture.context.insertNewObject(forEntityName: "Team")
        try team.checkedSetValue("Rovers", forKey: "name")
        let player = try fixture.context.insertNewObject(forEntityName: "Player")
        try player.checkedSetValue(team, forKey: "team")
        try team.checkedSetValue(value, forKey: key)
        let error = #expect(throws: CoreDataError.self) { try fixture.context.save() }
        #expect(error?.code == code)
        #expect(error?.key == key)
        #expect(error?.objectURI == team.objectID.uriString)
    }

    @Test func relationshipCounts() throws {
        let fixture = try StackFixture(.inMemory, model: try Self.model())
        let team = try fixture.context.insertNewObject(forEntityName: "Team")
        try team.checkedSetValue("Rovers", forKey: "name")
        // An optional to-many with a minimum may be empty, but not below the minimum otherwise.
        try fixture.context.save()
        for _ in 0..<3 {
            let player = try fixture.context.insertNewObject(forEntityName: "Player")
            try player.checkedSetValue(team, forKey: "team")
        }
        let tooMany = #expect(throws: CoreDataError.self) { try fixture.context.save() }
        #expect(tooMany?.code == .relationshipExceedsMaximumCount)
        let orphan = try fixture.context.insertNewObject(forEntityName: "Player")
        let several = #expect(throws: CoreDataError.self) { try fixture.context.save() }
        #expect(several?.code == .multipleErrors)
        #expect(
            several?.detailedErrors.compactMap(\.code).sorted { $0.rawValue < $1.rawValue } == [
                .missingMandatoryProperty, .relationshipExceedsMaximumCount,
            ])
        #expect(
            several?.detailedErrors.contains { $0.objectURI == orphan.objectID.uriString && $0.key == "team" } == true)
    }

    // A failed save writes nothing: the transaction rolls back every statement of it.
    @Test func aConflictingSaveWritesNothing() throws {
        let fixture = try StackFixture(.sqlite)
        let publisher = try fixture.seedBooks(["A"])
        let other = fixture.secondContext()
        let copy = try other.existingObject(with: publisher.objectID)
        try copy.checkedSetValue("Theirs", forKey: "name")
        try other.save()
        try publisher.checkedSetValue("Mine", forKey: "name")
        for title in ["B", "C"] {
            let book = try fixture.context.insertNewObject(forEntityName: "Book")
            try book.checkedSetValue(title, forKey: "title")
        }
        #expect(throws: CoreDataError.self) { try fixture.context.save() }
        let third = fixture.secondContext()
        #expect(try third.count(for: FetchRequest(entityName: "Book")) == 1)
        #expect(try third.existingObject(with: publisher.objectID).checkedValue(forKey: "name") as? String == "Theirs")
    }
}
