import Foundation
import Testing

@testable import ObjectGraph

// A file store (SQLite, XML, binary) is named by a file URL. Given a server's URL it refuses,
// rather than making a file at the URL's path: `postgres://host/postgres` once made `/postgres`.
@Suite struct FileStoreURLTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("ToDo") { AttributeDescription("title", .string) }
        }
    }

    @Test(arguments: [StoreType.sqlite, .xml, .binary])
    func aFileStoreRefusesAURLThatIsNotAFile(_ type: StoreType) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let url = try #require(URL(string: "postgres://app:secret@127.0.0.1:9/objectgraph-no-such-file?schema=todo"))
        let error = #expect(throws: CoreDataError.self) { try coordinator.addPersistentStore(type: type, at: url) }
        #expect(error?.code == .persistentStoreOpen)
        #expect(error?.message.contains("is not a file URL") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("secret") == false, "the password is not shown")
        #expect(!FileManager.default.fileExists(atPath: "/objectgraph-no-such-file"))
        #expect(coordinator.persistentStores.isEmpty)
    }
}
