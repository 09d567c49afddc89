import Foundation
import Testing

@testable import ObjectGraph

// Apple, NSAttributeType.undefinedAttributeType
// (https://developer.apple.com/documentation/coredata/nsattributetype/undefinedattributetype): "An
// attribute that doesn't have an explicit type. Use this attribute type with transient attributes only."
// Xcode writes such an attribute with no attributeType; Core Data loads it as NSUndefinedAttributeType (0).
@Suite struct XcodeUndefinedTransientTests {
    /// A model file with a Note entity, and `extra` inside it.
    static func contents(_ extra: String) -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Note" syncable="YES">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    \(extra)
                </entity>
            </model>
            """.utf8)
    }

    @Test func aTransientAttributeWithoutATypeLoadsAsUndefined() throws {
        let dir = try TemporaryDirectory()
        let file = dir.file("contents")
        try Self.contents(#"<attribute name="scratch" optional="YES" transient="YES"/>"#).write(to: file)
        let loader = XcodeModelLoader()
        let model = try loader.loadModel(at: file)
        let scratch = try #require(try model.entity(named: "Note").attribute(named: "scratch"))
        #expect(scratch.attributeType == .undefined && scratch.attributeType.rawValue == 0)
        #expect(scratch.isTransient && scratch.isOptional)
        #expect(loader.warnings.isEmpty, "\(loader.warnings)")

        // Transient properties stay out of the entity's version hash: the same as without it.
        try Self.contents("").write(to: file)
        let without = try XcodeModelLoader().loadModel(at: file)
        #expect(model.entityVersionHashesByName == without.entityVersionHashesByName)

        // The value is whatever the application puts there, kept in memory only.
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: dir.file("Notes.sqlite"))
        let context = ManagedObjectContext(coordinator: coordinator)
        let note = try context.insertNewObject(forEntityName: "Note")
        try note.checkedSetValue("Groceries", forKey: "title")
        try note.checkedSetValue(["milk", "eggs"], forKey: "scratch")
        try context.save()
        #expect(try note.checkedValue(forKey: "scratch") as? [String] == ["milk", "eggs"])
    }

    @Test func aStoredAttributeWithoutATypeIsAnErrorNamingFileEntityAndLine() throws {
        let dir = try TemporaryDirectory()
        let file = dir.file("contents")
        try Self.contents(#"<attribute name="body" optional="YES"/>"#).write(to: file)
        let error = #expect(throws: CoreDataError.self) { _ = try XcodeModelLoader().loadModel(at: file) }
        #expect(error?.code == .fileReadCorruptFile)
        let message = error?.message ?? ""
        #expect(message.hasPrefix("\(file.path):5: "), "\(message)")
        #expect(message.contains("attribute Note.body has no attributeType"), "\(message)")
        #expect(message.contains("only a transient attribute"), "\(message)")
    }
}
