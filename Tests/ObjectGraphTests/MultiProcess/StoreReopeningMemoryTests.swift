import Foundation
import ObjectGraph
import TestSupport
import Testing

// Opening a store and letting it go frees what the open read. Measured in a child process,
// because the suite's own memory moves with every test running beside this one. Found by
// `Fuzz/run.sh mapping`: each XML file read leaked its whole document (Fuzz/README.md,
// finding 12), about 1 MB per open of this store.
@Suite struct StoreReopeningMemoryTests {
    static let records = 400
    static let reopenings = 100

    @Test(
        .enabled(
            if: MultiProcessTests.childURL != nil, "objectgraph-writer-child is built by `swift build --build-tests`"),
        arguments: [StoreType.xml, .binary, .sqlite])
    func reopeningAStoreKeepsMemoryFlat(_ type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("Records.\(writerTypeName(type))")
        let seed = try writerContext(type, url)
        for index in 1...Self.records {
            let record = try seed.insertNewObject(forEntityName: "Record")
            try record.checkedSetValue("writer \(index % 7)", forKey: "writer")
            try record.checkedSetValue(index, forKey: "index")
        }
        try seed.save()

        let result = try #require(
            try MultiProcessTests.run([
                [writerTypeName(type), url.path, "reopen", "\(Self.reopenings)"]
            ]).first)
        #expect(result.status == 0, "\(result.errors)")
        let line = try #require(result.lines.first { $0.hasPrefix("resident ") }, "printed \(result.lines)")
        let kilobytes = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        try #require(kilobytes.count == 2, "\(line)")
        // Allocators keep some of what was freed; a leak of the store's contents grows by
        // megabytes per ten openings.
        let growth = kilobytes[1] - kilobytes[0]
        #expect(growth < 16 * 1024, "\(type): resident memory grew by \(growth) kB over \(Self.reopenings) openings")
    }
}
