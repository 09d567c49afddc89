import Foundation
import Testing

@testable import ObjectGraph

// Apple, NSRelationshipDescription.inverseRelationship
// (https://developer.apple.com/documentation/coredata/nsrelationshipdescription/inverserelationship):
// "The inverse relationship is the description of the current relationship from the destination
// entity's perspective." A file whose inverse names a relationship that points elsewhere is one
// Xcode warns about and Core Data loads; ObjectGraph loads it with a warning, without that inverse,
// and hashes it as written (versionhash.md section 5: the inverse's name enters the hash).
@Suite struct XcodeUnmatchedInverseTests {
    /// Person.car names Car.driver as its inverse, but Car.driver is the inverse of
    /// Person.passenger: the pair passenger/driver is whole, car is one-way.
    static let toOne = Data(
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Car" syncable="YES">
                <attribute name="plate" optional="YES" attributeType="String"/>
                <relationship name="driver" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="passenger" inverseEntity="Person"/>
            </entity>
            <entity name="Person" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="car" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Car" inverseName="driver" inverseEntity="Car"/>
                <relationship name="passenger" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Car" inverseName="driver" inverseEntity="Car"/>
            </entity>
        </model>
        """.utf8)

    @Test func anInverseThatPointsElsewhereLoadsWithAWarningAndWithoutIt() throws {
        let dir = try TemporaryDirectory()
        let file = dir.file("contents")
        try Self.toOne.write(to: file)
        let loader = XcodeModelLoader()
        let model = try loader.loadModel(at: file)
        let person = try model.entity(named: "Person")
        let car = try #require(person.relationship(named: "car"))
        #expect(car.inverseName == nil && car.unmatchedInverseName == "driver")
        #expect(model.inverseRelationship(of: car) == nil)
        // The whole pair keeps its inverse.
        let passenger = try #require(person.relationship(named: "passenger"))
        #expect(model.inverseRelationship(of: passenger)?.name == "driver")
        #expect(try model.entity(named: "Car").relationship(named: "driver")?.inverseName == "passenger")

        #expect(loader.warnings.count == 1, "\(loader.warnings)")
        let warning = try #require(loader.warnings.first)
        #expect(warning.file == file.path && warning.line == 9)
        #expect(warning.message.contains("relationship Person.car names the inverse Car.driver"), "\(warning.message)")
        #expect(warning.message.contains("Person.passenger"), "\(warning.message)")

        // The hash is Core Data's: computed with the inverse's name as written, not without it.
        let written = RelationshipDescription("car", toOne: "Car", inverse: "driver")
        let oneWay = RelationshipDescription("car", toOne: "Car", inverse: nil)
        #expect(car.versionHash == written.versionHash && car.versionHash != oneWay.versionHash)
        // Written back, the file says what it said, and loads the same.
        let again = dir.file("again")
        try model.xcodeModelContents().write(to: again, atomically: true, encoding: .utf8)
        #expect(
            try XcodeModelLoader().loadModel(at: again).entityVersionHashesByName == model.entityVersionHashesByName)
    }

    @Test(arguments: [StoreType.sqlite, .xml, .binary, .inMemory, .postgres])
    func savesKeepEachSideItsOwn(_ type: StoreType) throws {
        let dir = try TemporaryDirectory()
        let file = dir.file("contents")
        try Self.toOne.write(to: file)
        let model = try XcodeModelLoader().loadModel(at: file)
        guard let fixture = try StackFixture.ifAvailable(type, model: model) else { return }
        let context = fixture.context
        let ann = try context.insertNewObject(forEntityName: "Person")
        let bob = try context.insertNewObject(forEntityName: "Person")
        let red = try context.insertNewObject(forEntityName: "Car")
        let blue = try context.insertNewObject(forEntityName: "Car")
        try red.checkedSetValue("RED", forKey: "plate")
        try blue.checkedSetValue("BLUE", forKey: "plate")
        // Ann owns the red car (one-way); Bob drives it, which the pair keeps on both sides.
        try ann.checkedSetValue(red, forKey: "car")
        try red.checkedSetValue(bob, forKey: "driver")
        try ann.checkedSetValue(blue, forKey: "passenger")
        #expect(try red.checkedValue(forKey: "driver") as? ManagedObject === bob, "car did not write driver")
        #expect(try bob.checkedValue(forKey: "passenger") as? ManagedObject === red)
        #expect(try blue.checkedValue(forKey: "driver") as? ManagedObject === ann)
        try context.save()

        let other = fixture.secondContext()
        func stored(_ object: ManagedObject, _ key: String) throws -> ManagedObjectID? {
            (try other.existingObject(with: object.objectID).checkedValue(forKey: key) as? ManagedObject)?.objectID
        }
        #expect(try stored(ann, "car") == red.objectID)
        #expect(try stored(ann, "passenger") == blue.objectID)
        #expect(try stored(bob, "passenger") == red.objectID)
        #expect(try stored(bob, "car") == nil)
        #expect(try stored(red, "driver") == bob.objectID)
        #expect(try stored(blue, "driver") == ann.objectID)
    }

    @Test func aOneWayToManyIsRefusedByAStoreBeforeAnythingIsWritten() throws {
        let dir = try TemporaryDirectory()
        let file = dir.file("contents")
        // Shelf.books names Book.shelf, whose inverse is Shelf.featured: books is one-way.
        try Data(
            """
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="Shelf">
                    <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
                    <relationship name="featured" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
                </entity>
                <entity name="Book">
                    <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="featured" inverseEntity="Shelf"/>
                </entity>
            </model>
            """.utf8
        ).write(to: file)
        let loader = XcodeModelLoader()
        let model = try loader.loadModel(at: file)
        #expect(try model.entity(named: "Shelf").relationship(named: "books")?.inverseName == nil)
        #expect(loader.warnings.map(\.line) == [3])
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let error = #expect(throws: CoreDataError.self) {
            try coordinator.addPersistentStore(type: .sqlite, at: dir.file("Shelves.sqlite"))
        }
        #expect(error?.code == .persistentStoreIncompatibleSchema)
        #expect(error?.message.contains("Shelf.books has no inverse") == true, "\(error?.message ?? "")")
    }
}
