import Foundation
import Testing

@testable import ObjectGraph

/// Every value an attribute accepts comes back from a store exactly as it went in: the
/// SQLite, in-memory, XML and binary stores (Apple, Core Data Programming Guide, "Persistent
/// Store Types and Behaviors": the store types differ in speed and features, not in what a
/// saved value is).
@Suite struct ValueRoundTripTests {
    /// Saves one object per corpus value, then reads every object back through a new
    /// coordinator (a new context on the same coordinator for the in-memory store).
    @Test(arguments: [StoreType.sqlite, .inMemory, .xml, .binary])
    func theCorpusComesBackExactly(type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let (model, url, coordinator) = try ValueCorpus.store(type, in: directory)
        let context = ManagedObjectContext(coordinator: coordinator)
        for (ordinal, entry) in ValueCorpus.values.enumerated() {
            let object = try context.insertNewObject(forEntityName: "Holder")
            try object.checkedSetValue(ordinal, forKey: "ordinal")
            try object.checkedSetValue(entry.value, forKey: entry.key)
        }
        try context.save()
        try ValueCorpus.expectReadBack(model: model, type: type, url: url, coordinator: coordinator)
    }

    /// What the SQLite store cannot keep exactly is refused at save with 1550, naming the
    /// object and the key, and nothing of that save is written; the other stores keep it,
    /// except a Decimal NaN, which the XML and binary files refuse too (no Decimal reads
    /// "NaN" back) and only the in-memory store holds.
    @Test(arguments: [StoreType.sqlite, .inMemory, .xml, .binary])
    func valuesSQLiteCannotKeepAreRefusedThereAndKeptElsewhere(type: StoreType) throws {
        let directory = try TemporaryDirectory()
        let model = try ValueCorpus.model()
        let url = type == .inMemory ? nil : directory.file("refused.\(type.rawValue)")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: type, at: url)
        for (ordinal, entry) in ValueCorpus.refusedBySQLite.enumerated() {
            let context = ManagedObjectContext(coordinator: coordinator)
            let object = try context.insertNewObject(forEntityName: "Holder")
            try object.checkedSetValue(ordinal, forKey: "ordinal")
            try object.checkedSetValue(entry.value, forKey: entry.key)
            let isDecimalNaN = (entry.value as? Decimal)?.isNaN == true
            if type == .sqlite || (isDecimalNaN && type != .inMemory) {
                let error = #expect(throws: CoreDataError.self, "\(entry.label)") { try context.save() }
                #expect(error?.code == .validation, "\(entry.label): \(String(describing: error))")
                #expect(error?.key == entry.key)
                #expect(error?.objectURI?.hasPrefix("x-coredata://") == true, "\(String(describing: error))")
                if type == .sqlite {
                    #expect(error?.message.contains("Holder.\(entry.key)") == true, "\(String(describing: error))")
                }
                let check = ManagedObjectContext(coordinator: coordinator)
                let request = FetchRequest(entityName: "Holder")
                request.predicate = try Predicate(checkedFormat: "ordinal == %@", ordinal)
                #expect(try check.count(for: request) == 0, "\(entry.label) was written")
            } else {
                try context.save()
                let check = ManagedObjectContext(coordinator: coordinator)
                let request = FetchRequest(entityName: "Holder")
                request.predicate = try Predicate(checkedFormat: "ordinal == %@", ordinal)
                let got = try check.fetch(request).first?.checkedValue(forKey: entry.key)
                #expect(
                    ValueCorpus.same(got, entry.value),
                    "\(type): \(entry.label) came back as \(ValueCorpus.describe(got))")
            }
        }
    }

    /// Setting a value the attribute's type cannot hold throws an error naming the key; it
    /// never traps (Foundation's Decimal(Double) traps on NaN and the infinities).
    @Test func valuesATypeCannotHoldAreRefusedBySetValue() throws {
        let model = try ValueCorpus.model()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .inMemory)
        let context = ManagedObjectContext(coordinator: coordinator)
        let object = try context.insertNewObject(forEntityName: "Holder")
        let refused: [(String, Any)] = [
            ("amount", Double.infinity), ("amount", -Double.infinity), ("amount", Double.nan),
            ("amount", 1e300), ("medium", 1e300), ("medium", Double.infinity), ("medium", 1 << 40),
            ("small", 40_000), ("big", 1e19), ("big", Double.nan), ("single", 1e300),
            ("flag", 2), ("when", "yesterday"), ("text", 5),
        ]
        for (key, value) in refused {
            let error = #expect(throws: CoreDataError.self, "\(key) = \(value)") {
                try object.checkedSetValue(value, forKey: key)
            }
            #expect(error?.key == key, "\(key) = \(value): \(String(describing: error))")
        }
        // What converts: a Double to the decimal of its shortest representation.
        try object.checkedSetValue(19.99, forKey: "amount")
        #expect(try object.checkedValue(forKey: "amount") as? Decimal == Decimal(string: "19.99"))
        try object.checkedSetValue(Double(1 << 53), forKey: "big")
        #expect(try object.checkedValue(forKey: "big") as? Int == 1 << 53)
        try object.checkedSetValue(Double.infinity, forKey: "single")
        #expect(try object.checkedValue(forKey: "single") as? Double == .infinity)
    }
}
