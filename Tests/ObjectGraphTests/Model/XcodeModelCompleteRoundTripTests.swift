import Foundation
import ObjectGraph
import Testing

// Every element Xcode writes that Core Data loads survives model file -> ObjectGraph -> model
// file -> ObjectGraph: the Everything fixture, every version of every Apple fixture bundle,
// and the suite's own ToDo bundle.
@Suite struct XcodeModelCompleteRoundTripTests {
    static let everything = ModelFixtures.folder.appendingPathComponent("Everything.xcdatamodel")

    /// Writes a model as an `.xcdatamodel` and reads it back, with the loader's warnings.
    static func roundTrip(_ model: ManagedObjectModel, in directory: TemporaryDirectory, name: String = "Copy") throws
        -> (ManagedObjectModel, [ModelFileWarning])
    {
        let url = directory.file("\(name).xcdatamodel")
        try model.writeXcodeModel(to: url)
        let loader = XcodeModelLoader()
        return (try loader.loadModel(at: url), loader.warnings)
    }

    /// The two models describe the same thing: entities, hashes, templates, configurations.
    static func expectSame(_ a: ManagedObjectModel, _ b: ManagedObjectModel, _ what: String) {
        #expect(a.entities.map(\.name) == b.entities.map(\.name), "\(what)")
        for (x, y) in zip(a.entities, b.entities) {
            #expect(x == y, "\(what): entity \(x.name) differs")
            #expect(x.attributes == y.attributes, "\(what): \(x.name) attributes")
            #expect(x.relationships == y.relationships, "\(what): \(x.name) relationships")
            #expect(x.fetchedProperties == y.fetchedProperties, "\(what): \(x.name) fetched properties")
        }
        #expect(a.entityVersionHashesByName == b.entityVersionHashesByName, "\(what): hashes")
        #expect(a.versionIdentifiers == b.versionIdentifiers, "\(what): identifiers")
        #expect(a.fetchRequestTemplatesByName == b.fetchRequestTemplatesByName, "\(what): templates")
        #expect(a.configurationDescriptions == b.configurationDescriptions, "\(what): configurations")
    }

    @Test func theEverythingFixtureLoadsWithEveryElement() throws {
        let loader = XcodeModelLoader()
        let model = try loader.loadModel(at: Self.everything)
        // Xcode's warnings, kept: the relationship without an inverse, the index Core Data ignores.
        #expect(
            loader.warnings.map(\.message).sorted() == [
                "fetch index Library.byItems names the to-many relationship items; it is kept, but no store index comes of it (Core Data ignores it too)",
                "relationship Library.featured should have an inverse; without one, Core Data (and ObjectGraph) cannot keep the objects at the other end consistent",
            ])
        let library = try model.entity(named: "Library")
        let book = try model.entity(named: "Book")
        #expect(library.renamingIdentifier == "Archive" && library.versionHashModifier == "lib2")
        #expect(library.attribute(named: "name")?.renamingIdentifier == "title")
        #expect(library.attribute(named: "name")?.versionHashModifier == "n1")
        #expect(library.attribute(named: "scratch")?.attributeType == .undefined)
        #expect(library.attribute(named: "logo")?.allowsExternalBinaryDataStorage == true)
        #expect(library.attribute(named: "code")?.preservesValueInHistoryOnDeletion == true)
        let settings = try #require(library.attribute(named: "settings"))
        #expect(
            settings.attributeType == .transformable
                && settings.valueTransformerName == "NSSecureUnarchiveFromDataTransformer")
        #expect(settings.attributeValueClassName == "[String: String]")
        #expect(
            library.attribute(named: "itemCount")?.derivationExpression
                == (try Expression(checkedFormat: "items.@count")))
        let address = try #require(library.attribute(named: "address"))
        #expect(address.attributeType == .composite && address.compositeTypeName == "Address")
        #expect(address.elements.map(\.name) == ["city", "street"])
        let items = try #require(library.relationship(named: "items"))
        #expect(items.isOrdered && items.minCount == 1 && items.maxCount == 500 && items.deleteRule == .cascade)
        #expect(library.relationship(named: "featured")?.inverseName == nil)
        // The inverse of Library.loans is declared on Book, a sub-entity of the destination Item.
        let loans = try #require(library.relationship(named: "loans"))
        #expect(loans.destinationEntityName == "Item" && loans.inverseEntityName == "Book")
        #expect(model.inverseRelationship(of: loans)?.name == "lender")
        #expect(book.relationship(named: "related")?.inverseName == "related")
        #expect(library.indexes.map(\.name) == ["byName", "byItems"])
        #expect(library.uniquenessConstraints == [["name"]])
        #expect(library.userInfo == ["owner": "city"])
        #expect(library.fetchedProperties.map(\.name) == ["recentItems"])
        #expect(library.fetchedProperties.first?.fetchRequest.predicateFormat == "library == $FETCH_SOURCE")
        let template = try #require(try model.fetchRequestTemplate(forName: "LongBooks"))
        #expect(template.entityName == "Book" && template.fetchLimit == 20)
        #expect(template.predicate?.predicateFormat == "pages > 300")
        #expect(model.configurations == ["Cloud"])
        #expect(model.entities(forConfigurationName: "Cloud")?.map(\.name) == ["Book", "Item", "Library"])
        #expect(model.configurationDescriptions.first?.isUsedWithCloudKit == true)
        #expect(model.versionIdentifiers == ["5"])
    }

    @Test func theEverythingFixtureSurvivesARoundTrip() throws {
        let directory = try TemporaryDirectory()
        let original = try XcodeModelLoader().loadModel(at: Self.everything)
        let (read, warnings) = try Self.roundTrip(original, in: directory)
        Self.expectSame(original, read, "Everything")
        #expect(warnings.count == 2, "\(warnings)")
        // Written again, the file is the same: nothing is lost or reordered on the second pass.
        #expect(read.xcodeModelContents() == original.xcodeModelContents())
        let (again, _) = try Self.roundTrip(read, in: directory, name: "Again")
        Self.expectSame(read, again, "Everything, twice")
    }

    @Test func theSuitesOwnFixturesSurviveARoundTrip() throws {
        let directory = try TemporaryDirectory()
        let loader = XcodeModelLoader()
        let bundle = try loader.loadBundle(at: ModelFixtures.toDo)
        #expect(loader.warnings.isEmpty)
        for version in bundle.versions {
            let (read, warnings) = try Self.roundTrip(version.model, in: directory, name: version.name)
            Self.expectSame(version.model, read, "ToDo \(version.name)")
            #expect(warnings.isEmpty)
        }
    }

    @Test func everyAppleFixtureModelSurvivesARoundTrip() throws {
        if AppleFixtures.skipping() { return }
        let directory = try TemporaryDirectory()
        var count = 0
        for url in try AppleFixtures.bundles() {
            let bundle = try XcodeModelLoader().loadBundle(at: url)
            for version in bundle.versions {
                let name = "\(url.deletingPathExtension().lastPathComponent)-\(version.name)"
                let (read, _) = try Self.roundTrip(version.model, in: directory, name: name)
                Self.expectSame(version.model, read, name)
                count += 1
            }
        }
        #expect(count == 26)
    }
}
