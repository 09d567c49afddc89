import Foundation
import Testing

@testable import ToDoApp

// A `todo` killed while it created its store may leave an empty file: the next command makes
// the store there instead of refusing the file forever.
@Suite struct EmptyStoreFileTests {
    @Test(arguments: ["xml", "sqlite"])
    func anEmptyStoreFileIsANewStore(_ storeType: String) throws {
        let todo = try ToDoHarness()
        let url = todo.directory.appendingPathComponent("todo/ToDo.\(storeType)")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: url)
        #expect(try todo.run("add", "Pay rent", "--store-type", storeType) == ["Added #1: Pay rent"])
        #expect(try todo.run("list", "--store-type", storeType).contains { $0.contains("Pay rent") })
    }
}
