import Foundation
import Testing

@testable import ObjectGraph

// Inspecting a store file needs no model and never changes the file.
@Suite struct StoreInspectionTests {
    @Test(arguments: [StoreType.sqlite, .xml, .binary])
    func inspectionReadsTypeMetadataAndCounts(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Store")
        do {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
            try coordinator.addPersistentStore(
                type: type, at: url, options: [StoreOption.storeUUID: "00000000-0000-0000-0000-0000000000DD"])
            let context = ManagedObjectContext(coordinator: coordinator)
            for title in ["A", "B", "C"] {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.checkedSetValue(title, forKey: "title")
            }
            try context.save()
        }
        let before = try Data(contentsOf: url)
        let inspection = try StoreInspection(at: url)
        #expect(inspection.type == type)
        #expect(inspection.uuid == "00000000-0000-0000-0000-0000000000DD")
        #expect(inspection.entityCounts.map { "\($0.entity)=\($0.count)" } == ["Author=0", "Book=3", "Publisher=0"])
        #expect(inspection.versionHashes.map(\.entity) == ["Author", "Book", "Publisher"])
        #expect(inspection.versionHashes.allSatisfy { Data(base64Encoded: $0.hash)?.count == 32 })
        if type == .sqlite {
            let book = try #require(inspection.tables.first { $0.name == "ZBOOK" })
            #expect(book.rowCount == 3 && book.columns.prefix(3) == ["Z_PK", "Z_ENT", "Z_OPT"])
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aFileThatIsNotAStoreIsAClearError() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.txt")
        try Data("shopping list".utf8).write(to: url)
        let error = #expect(throws: CoreDataError.self) { _ = try StoreInspection(at: url) }
        #expect(error?.message.contains("is not a store") == true)
        let missing = #expect(throws: CoreDataError.self) { _ = try StoreInspection(at: directory.file("nothing")) }
        #expect(missing?.code == .fileReadNoSuchFile)
        // A folder printed NSCocoaErrorDomain Code=256 from FileHandle; now it says what to give.
        let folder = #expect(throws: CoreDataError.self) { _ = try StoreInspection(at: directory.url) }
        #expect(folder?.code == .persistentStoreInvalidType)
        #expect(
            folder?.message == "\(directory.url.path) is a folder, not a store file: "
                + "give the path of the store inside it (such as a .sqlite file)")
    }
}
