import Foundation
import Testing

@testable import ObjectGraph

/// Finding a property by its key, the lookup behind every `value(forKey:)` and
/// `setValue(_:forKey:)`: a short entity's names are searched one by one, a long one's through
/// the dictionary, and both answer as the dictionary does.
@Suite struct PropertyKeyLookupTests {
    /// A model with a short entity (3 properties) and a long one (20, past the table's limit).
    func context() throws -> ManagedObjectContext {
        let model = try ManagedObjectModel {
            EntityDescription("Short") {
                AttributeDescription("title", .string)
                AttributeDescription("price", .double)
                AttributeDescription("aVeryLongAttributeNameOnTheHeap", .integer64)
            }
            EntityDescription("Long") {
                for i in 0..<20 { AttributeDescription("field\(i)", .integer32) }
            }
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .inMemory)
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test("Every property is found by a literal key and by a key built at run time (NSKeyValueCoding valueForKey:)")
    func keysFindTheirProperties() throws {
        let context = try context()
        let short = try context.insertNewObject(forEntityName: "Short")
        try short.checkedSetValue("Dune", forKey: "title")
        // Same UTF-8 length as "title": the search must compare the names, not only lengths.
        try short.checkedSetValue(9.5, forKey: "price")
        try short.checkedSetValue(7, forKey: ["aVery", "Long", "AttributeNameOnTheHeap"].joined())
        #expect(try short.checkedValue(forKey: String("xtitle".dropFirst())) as? String == "Dune")
        #expect(try short.checkedValue(forKey: "price") as? Double == 9.5)
        #expect(try short.checkedValue(forKey: "aVeryLongAttributeNameOnTheHeap") as? Int == 7)

        let long = try context.insertNewObject(forEntityName: "Long")
        for i in 0..<20 { try long.checkedSetValue(Int32(i * 10), forKey: "field\(i)") }
        #expect(try long.checkedValue(forKey: "field0") as? Int == 0)
        #expect(try long.checkedValue(forKey: "field19") as? Int == 190)
        #expect(long.entity.attribute(named: "field7")?.attributeType == .integer32)
    }

    @Test(
        "A key that names no property throws NSUnknownKeyException naming the entity and key (NSKeyValueCoding valueForUndefinedKey:)"
    )
    func anUnknownKeyThrows() throws {
        let context = try context()
        for (entity, key) in [("Short", "titles"), ("Short", "Title"), ("Short", ""), ("Long", "field20")] {
            let object = try context.insertNewObject(forEntityName: entity)
            do {
                _ = try object.checkedValue(forKey: key)
                Issue.record("\(entity).\(key) was found")
            } catch let error as CoreDataError {
                #expect(error.exceptionName == .undefinedKey)
                #expect(error.key == key)
                #expect(error.message.contains("The entity \(entity) has no property named \(key)"))
            }
        }
    }

    @Test(
        "A key in another Unicode normalization finds the property, as String equality does (NSEntityDescription.propertiesByName)"
    )
    func anotherNormalizationFindsTheProperty() throws {
        let entity = EntityDescription("Menu")
        var index: [String: Int] = [:]
        for (i, n) in ["caf\u{E9}", "name"].enumerated() { index[n] = i }
        entity.propertyIndex = index
        let table = PropertyKeyTable(index)
        #expect(table.index(of: "caf\u{E9}") == 0)
        #expect(table.index(of: "name") == 1)
        // "cafe" + combining acute accent equals "caf\u{E9}" but is one UTF-8 byte longer: the
        // table leaves it to the dictionary, which finds it, as Core Data's string keys do.
        let decomposed = "cafe\u{301}"
        #expect(decomposed == "caf\u{E9}")
        #expect(table.index(of: decomposed) == nil)
        #expect(entity.shared.index(ofProperty: decomposed) == 0)
        #expect(entity.shared.index(ofProperty: "menu") == nil)
    }
}
