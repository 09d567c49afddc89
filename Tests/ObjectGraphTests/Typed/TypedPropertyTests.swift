import Foundation
import Testing

@testable import ObjectGraph

/// A class with a property of every attribute type, scalars non-optional as Xcode declares them
/// with "Use Scalar Type" on, and typed relationships.
final class TypedGadget: ManagedObject {
    @Managed("small") var small: Int16
    @Managed("medium") var medium: Int32
    @Managed("large") var large: Int64
    @Managed("count") var count: Int
    @Managed("ratio") var ratio: Double
    @Managed("weight") var weight: Float
    @Managed("enabled") var enabled: Bool
    @Managed("price") var price: Decimal?
    @Managed("name") var name: String?
    @Managed("made") var made: Date?
    @Managed("blob") var blob: Data?
    @Managed("code") var code: UUID?
    @Managed("link") var link: URL?
    @Managed("level") var level: Int32 // has a default value in the model
    @Managed("optionalLevel") var optionalLevel: Int32?
    @Managed("asNumber") var asNumber: NSNumber?
    @Managed("maker") var maker: TypedMaker?
    @Managed("parts") var parts: [TypedPart]
}

final class TypedMaker: ManagedObject {
    @Managed("name") var name: String?
    @Managed("gadgets") var gadgets: Set<TypedGadget>
}

final class TypedPart: ManagedObject {
    @Managed("label") var label: String?
    @Managed("gadget") var gadget: TypedGadget?
}

/// The model of the typed tests.
func typedModel() throws -> ManagedObjectModel {
    try ManagedObjectModel {
        EntityDescription("TypedGadget", class: TypedGadget.self) {
            AttributeDescription("small", .integer16)
            AttributeDescription("medium", .integer32)
            AttributeDescription("large", .integer64)
            AttributeDescription("count", .integer64)
            AttributeDescription("ratio", .double)
            AttributeDescription("weight", .float)
            AttributeDescription("enabled", .boolean)
            AttributeDescription("price", .decimal)
            AttributeDescription("name", .string)
            AttributeDescription("made", .date)
            AttributeDescription("blob", .binaryData)
            AttributeDescription("code", .uuid)
            AttributeDescription("link", .uri)
            AttributeDescription("level", .integer32, defaultValue: 7)
            AttributeDescription("optionalLevel", .integer32)
            AttributeDescription("asNumber", .integer64)
            RelationshipDescription("maker", toOne: "TypedMaker", inverse: "gadgets")
            RelationshipDescription("parts", toMany: "TypedPart", inverse: "gadget", ordered: true)
        }
        EntityDescription("TypedMaker", class: TypedMaker.self) {
            AttributeDescription("name", .string)
            RelationshipDescription("gadgets", toMany: "TypedGadget", inverse: "maker")
        }
        EntityDescription("TypedPart", class: TypedPart.self) {
            AttributeDescription("label", .string)
            RelationshipDescription("gadget", toOne: "TypedGadget", inverse: "parts")
        }
    }
}

// Apple, Core Data Programming Guide, "Creating and Saving Managed Objects" (NSManagedObject
// subclasses, @NSManaged properties, "Use scalar properties" in the Data Model inspector); Core
// Data's scalar accessors read a nil value as zero (KVC: "Representing Non-Object Values").
@Suite struct TypedPropertyTests {
    static let storeTypes: [StoreType] = [.inMemory, .sqlite, .xml]

    @Test("a non-optional scalar reads zero when nil, or the attribute's default (NSManaged scalar properties)")
    func scalarsReadZeroOrTheDefaultWhenNil() throws {
        let fixture = try StackFixture(.inMemory, model: try typedModel())
        let gadget = TypedGadget(context: fixture.context)
        #expect(gadget.small == 0)
        #expect(gadget.medium == 0)
        #expect(gadget.large == 0)
        #expect(gadget.count == 0)
        #expect(gadget.ratio == 0)
        #expect(gadget.weight == 0)
        #expect(gadget.enabled == false)
        // The default the model declares, which a new object starts with...
        #expect(gadget.level == 7)
        // ...and which a scalar reads when the value is set to nil later.
        try gadget.checkedSetValue(nil, forKey: "level")
        #expect(try gadget.checkedValue(forKey: "level") == nil)
        #expect(gadget.level == 7)
        // An optional scalar tells nil apart.
        #expect(gadget.optionalLevel == nil)
        #expect(gadget.name == nil)
        #expect(gadget.price == nil)
        #expect(gadget.maker == nil)
        #expect(gadget.parts.isEmpty)
    }

    @Test(
        "every attribute type round-trips through typed properties and a save (NSManaged properties)",
        arguments: storeTypes)
    func everyAttributeTypeRoundTrips(_ type: StoreType) throws {
        let fixture = try StackFixture(type, model: try typedModel())
        let made = Date(timeIntervalSinceReferenceDate: 800_000_000.5)
        let code = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")
        let gadget = TypedGadget(context: fixture.context)
        gadget.small = -12
        gadget.medium = 70_000
        gadget.large = 1 << 40
        gadget.count = 3
        gadget.ratio = 0.25
        gadget.weight = 1.5
        gadget.enabled = true
        gadget.price = Decimal(string: "19.99")
        gadget.name = "Widget"
        gadget.made = made
        gadget.blob = Data([0, 1, 2, 255])
        gadget.code = code
        gadget.link = URL(string: "https://example.com/widget")
        gadget.level = 9
        gadget.optionalLevel = 4
        gadget.asNumber = NSNumber(value: 42)
        try fixture.context.save()

        let other = fixture.secondContext()
        let fetched = try #require(try other.fetch(TypedGadget.fetchRequest()).first)
        #expect(fetched.small == -12)
        #expect(fetched.medium == 70_000)
        #expect(fetched.large == 1 << 40)
        #expect(fetched.count == 3)
        #expect(fetched.ratio == 0.25)
        #expect(fetched.weight == 1.5)
        #expect(fetched.enabled == true)
        #expect(fetched.price == Decimal(string: "19.99"))
        #expect(fetched.name == "Widget")
        #expect(fetched.made == made)
        #expect(fetched.blob == Data([0, 1, 2, 255]))
        #expect(fetched.code == code)
        #expect(fetched.link == URL(string: "https://example.com/widget"))
        #expect(fetched.level == 9)
        #expect(fetched.optionalLevel == 4)
        #expect(fetched.asNumber == NSNumber(value: 42))
        // Set back to nil, an optional reads nil and a scalar zero.
        fetched.optionalLevel = nil
        fetched.name = nil
        #expect(fetched.optionalLevel == nil)
        #expect(fetched.name == nil)
    }

    @Test(
        "to-one properties are the destination class, to-many a Set of it, ordered ones an array (NSManaged relationships)",
        arguments: storeTypes)
    func relationshipsAreTyped(_ type: StoreType) throws {
        let fixture = try StackFixture(type, model: try typedModel())
        let maker = TypedMaker(context: fixture.context)
        maker.name = "Acme"
        let gadget = TypedGadget(context: fixture.context)
        gadget.maker = maker
        let wheel = TypedPart(context: fixture.context)
        wheel.label = "wheel"
        let bell = TypedPart(context: fixture.context)
        bell.label = "bell"
        gadget.parts = [wheel, bell]
        #expect(maker.gadgets == [gadget])
        #expect(wheel.gadget === gadget)
        try fixture.context.save()

        let other = fixture.secondContext()
        let fetchedMaker = try #require(try other.fetch(TypedMaker.fetchRequest()).first)
        let fetchedGadget = try #require(fetchedMaker.gadgets.first)
        #expect(fetchedGadget.maker === fetchedMaker)
        #expect(fetchedGadget.parts.map(\.label) == ["wheel", "bell"])
        // A to-many set through the typed property, inverses in step.
        fetchedMaker.gadgets = []
        #expect(fetchedGadget.maker == nil)
    }

    @Test(
        "addObjects/removeObjects, what generated addTo…/removeFrom… helpers call, keep inverses and order (mutableSetValueForKey:)"
    )
    func relationshipHelpers() throws {
        let fixture = try StackFixture(.inMemory, model: try typedModel())
        let maker = TypedMaker(context: fixture.context)
        let a = TypedGadget(context: fixture.context)
        let b = TypedGadget(context: fixture.context)
        maker.addObjects([a, b], toRelationship: "gadgets")
        #expect(maker.gadgets == [a, b])
        #expect(a.maker === maker)
        maker.removeObjects([a], fromRelationship: "gadgets")
        #expect(maker.gadgets == [b])
        #expect(a.maker == nil)

        let first = TypedPart(context: fixture.context)
        let second = TypedPart(context: fixture.context)
        a.addObjects([second], toRelationship: "parts")
        a.addObjects([first], toRelationship: "parts")
        a.addObjects([second], toRelationship: "parts") // already there: stays where it is
        #expect(a.parts == [second, first])
        a.removeObjects([second], fromRelationship: "parts")
        #expect(a.parts == [first])
        #expect(second.gadget == nil)
    }

    @Test("numbers read through a property of another numeric type convert where they fit, as NSNumber does")
    func numbersConvertBetweenTypes() throws {
        #expect(ManagedValueConversion.convert(Int(12), to: Int16.self) == 12)
        #expect(ManagedValueConversion.convert(Int(70_000), to: Int16.self) == nil)
        #expect(ManagedValueConversion.convert(Int(3), to: Double?.self) == .some(3.0))
        #expect(ManagedValueConversion.convert(Double(2.5), to: Float.self) == 2.5)
        #expect(ManagedValueConversion.convert(Int(1), to: Bool.self) == true)
        #expect(ManagedValueConversion.convert(Int(2), to: Bool.self) == nil)
        #expect(ManagedValueConversion.convert(Int(5), to: NSNumber.self) == NSNumber(value: 5))
        #expect(ManagedValueConversion.convert(nil, to: Int32.self) == 0)
        #expect(ManagedValueConversion.convert(nil, to: Int32?.self) == .some(nil))
        // A nil String has no zero: the property must be optional.
        #expect(ManagedValueConversion.convert(nil, to: String.self) == nil)
        #expect(ManagedValueConversion.convert("x", to: Int.self) == nil)
    }
}
