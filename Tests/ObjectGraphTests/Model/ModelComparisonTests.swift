import Foundation
import ObjectGraph
import Testing
import ZarraToDo

// StoreInspection.comparison(with:): a store's hashes beside a model's, entity by entity.
@Suite struct ModelComparisonTests {
    @Test func aStoreWrittenByTheModelMatchesItAndAnotherVersionDoesNot() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("ToDo.sqlite")
        let v1 = try ToDoModels.version1()
        let v2 = try ToDoModels.version2()
        try PersistentStoreCoordinator(managedObjectModel: v1).addPersistentStore(type: .sqlite, at: url)
        let inspection = try StoreInspection(at: url)
        #expect(
            inspection.versionHashes.map(\.hash)
                == ["Category", "ToDo"].map { v1.entityVersionHashesByName[$0]!.base64EncodedString() })

        let same = inspection.comparison(with: v1)
        #expect(same.isCompatible)
        #expect(same.entities.map(\.state) == [.equal, .equal])

        let other = inspection.comparison(with: v2)
        #expect(!other.isCompatible)
        // Category did not change between the versions; ToDo did.
        #expect(other.entities.map { "\($0.name) \($0.state)" } == ["Category equal", "ToDo different"])
        #expect(other.entities.last?.modelHash == v2.entityVersionHashesByName["ToDo"]?.base64EncodedString())

        let renamed = try ManagedObjectModel {
            EntityDescription("Category") { AttributeDescription("name", .string) }
            EntityDescription("Tag") { AttributeDescription("name", .string) }
        }
        #expect(
            inspection.comparison(with: renamed).entities.map { "\($0.name) \($0.state)" }
                == ["Category different", "Tag onlyInModel", "ToDo onlyInStore"])
    }

    @Test func aStoreWithTheOldHashesIsComparedAsSuch() throws {
        let directory = try TemporaryDirectory()
        let url = try LegacyVersionHashTests.copy("ToDo.xml", to: directory)
        let comparison = try StoreInspection(at: url).comparison(with: try ToDoModels.version1())
        #expect(comparison.isCompatible)
        #expect(comparison.entities.map(\.state) == [.legacy, .legacy])
        // Inspecting never changes the file.
        #expect(
            try StoreInspection(at: url).comparison(with: try ToDoModels.version1()).entities.map(\.state) == [
                .legacy, .legacy,
            ])
    }
}
