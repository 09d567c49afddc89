import Foundation
import Testing

@testable import ObjectGraph

/// A card class that keeps the default: every property through validateValue(_:forKey:).
final class KeyValidatedCard: ManagedObject {}

/// A card class that declares it does not override validateValue(_:forKey:), for itself only.
class UncheckedKeysCard: ManagedObject {
    override class var validatesEachKey: Bool { self != UncheckedKeysCard.self }
}

/// A subclass of a declaring class that does override it: its check must still run at a save.
final class TitleCheckedCard: UncheckedKeysCard {
    var validatedKeys: [String] = []

    override func validateValue(_ value: inout Any?, forKey key: String) throws {
        validatedKeys.append(key)
        try super.validateValue(&value, forKey: key)
        if key == "title", let title = value as? String, title.first?.isUppercase != true {
            throw CoreDataError(.validation, "Card.title must start with a capital letter", key: "title")
        }
    }
}

// ManagedObject.validatesEachKey: a class that declares it overrides no validateValue(_:forKey:)
// is checked in place, with the errors the per-key calls would find; a subclass that overrides it
// is asked for each key as before.
@Suite struct KeyValidationDeclarationTests {
    static func model(cardClass: ManagedObject.Type) throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Card", class: cardClass) {
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("rating", .double, maxValue: 5)
                AttributeDescription("code", .string, regularExpression: "[A-Z]+")
                AttributeDescription("memo", .string, optional: false, transient: true)
                AttributeDescription("note", .string)
                RelationshipDescription("deck", toOne: "Deck", inverse: "cards", optional: false)
            }
            EntityDescription("Deck") {
                AttributeDescription("name", .string)
                RelationshipDescription("cards", toMany: "Card", inverse: "deck")
            }
        }
    }

    /// A context on an in-memory store of the model with the card class.
    static func context(cardClass: ManagedObject.Type) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model(cardClass: cardClass))
        try coordinator.addPersistentStore(type: .inMemory, at: nil)
        return ManagedObjectContext(coordinator: coordinator)
    }

    /// The error of saving a card with a title, a rating and a code, and no memo or deck.
    static func saveError(cardClass: ManagedObject.Type, title: String, rating: Double, code: String) throws
        -> CoreDataError?
    {
        let context = try context(cardClass: cardClass)
        let card = try context.insertNewObject(forEntityName: "Card")
        #expect(type(of: card) == cardClass)
        try card.checkedSetValue(title, forKey: "title")
        try card.checkedSetValue(rating, forKey: "rating")
        try card.checkedSetValue(code, forKey: "code")
        do {
            try context.save()
            return nil
        } catch let error as CoreDataError {
            return error
        }
    }

    @Test(
        "A class that declares validatesEachKey false fails a save with the errors the per-key calls find, transient attributes included (NSManagedObject.validateForInsert)"
    )
    func declaredClassFindsTheSameErrors() throws {
        let asked = try #require(
            try Self.saveError(cardClass: KeyValidatedCard.self, title: "t", rating: 9, code: "ab"))
        let declared = try #require(
            try Self.saveError(cardClass: UncheckedKeysCard.self, title: "t", rating: 9, code: "ab"))
        #expect(asked.code == .multipleErrors)
        #expect(
            asked.detailedErrors.map(\.code) == [
                .numberTooLarge, .stringPatternMatching, .missingMandatoryProperty, .missingMandatoryProperty,
            ])
        #expect(asked.detailedErrors.map(\.key) == ["rating", "code", "memo", "deck"])
        #expect(declared.code == asked.code)
        #expect(declared.detailedErrors.map(\.code) == asked.detailedErrors.map(\.code))
        #expect(declared.detailedErrors.map(\.key) == asked.detailedErrors.map(\.key))
        // The same messages, each naming its own object.
        func messages(_ error: CoreDataError) -> [String] {
            error.detailedErrors.map { $0.message.replacingOccurrences(of: $0.objectURI ?? "", with: "<card>") }
        }
        #expect(messages(declared) == messages(asked))
        #expect(messages(asked).first == "Card.rating of <card>: 9 is larger than the maximum 5")
    }

    @Test(
        "validateForInsert called directly on an object of a declaring class checks the model as the per-key calls do (NSManagedObject.validateForInsert)"
    )
    func directCallOfADeclaringClass() throws {
        let context = try Self.context(cardClass: UncheckedKeysCard.self)
        let card = try context.insertNewObject(forEntityName: "Card")
        try card.checkedSetValue("Title", forKey: "title")
        try card.checkedSetValue("memo", forKey: "memo")
        let missingDeck = try #require(throws: CoreDataError.self) { try card.validateForInsert() }
        #expect(missingDeck.code == .missingMandatoryProperty && missingDeck.key == "deck")
        let deck = try context.insertNewObject(forEntityName: "Deck")
        try card.checkedSetValue(deck, forKey: "deck")
        try card.validateForInsert()
        try context.save()
        try card.checkedSetValue(7.5, forKey: "rating")
        let tooLarge = try #require(throws: CoreDataError.self) { try card.validateForUpdate() }
        #expect(tooLarge.code == .numberTooLarge && tooLarge.key == "rating")
    }

    @Test(
        "A subclass of a declaring class that overrides validateValue(_:forKey:) is asked for every property at each save (validate<Key>:error:)"
    )
    func overridingSubclassIsStillAsked() throws {
        #expect(!UncheckedKeysCard.validatesEachKey && TitleCheckedCard.validatesEachKey)
        let context = try Self.context(cardClass: TitleCheckedCard.self)
        let card = try #require(try context.insertNewObject(forEntityName: "Card") as? TitleCheckedCard)
        try card.checkedSetValue("lower", forKey: "title")
        try card.checkedSetValue("memo", forKey: "memo")
        try card.checkedSetValue(try context.insertNewObject(forEntityName: "Deck"), forKey: "deck")
        let error = try #require(throws: CoreDataError.self) { try context.save() }
        #expect(error.code == .validation && error.key == "title")
        #expect(Set(card.validatedKeys) == ["title", "rating", "code", "memo", "note", "deck"])
        try card.checkedSetValue("Upper", forKey: "title")
        try context.save()
    }
}
