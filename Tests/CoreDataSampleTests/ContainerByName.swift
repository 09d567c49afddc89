// Test harness beside the samples (LEDGER.md does not count it): Apple's one-line container,
// whose model is found by name among the application's resources.
// https://developer.apple.com/documentation/coredata/nspersistentcontainer/init(name:)
import CoreData
import Testing

@Suite struct ContainerByName {
    @Test("NSPersistentContainer(name:) finds Earthquakes.xcdatamodeld among the resources beside the program")
    func findsTheModelByName() throws {
        let directory = try TemporaryDirectory()
        let container = NSPersistentContainer(name: "Earthquakes")
        #expect(container.managedObjectModel.entitiesByName["Quake"] != nil)
        #expect(container.persistentStoreDescriptions.first?.url?.lastPathComponent == "Earthquakes.sqlite")
        container.persistentStoreDescriptions = [
            NSPersistentStoreDescription(url: directory.store("Earthquakes.sqlite"))
        ]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        let context = container.newBackgroundContext()
        let name = context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Quake", into: context).entity.name
        }
        #expect(name == "Quake")
    }
}
