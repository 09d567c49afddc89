import CoreData
import Testing

/// Values by key as Apple's key-value coding gives them: NSNumber, NSOrderedSet, mutable sets.
@Suite struct KeyValueCodingTests {
    /// A context on a new store with one book of two chapters and an author.
    private func library(_ folder: URL) throws -> (NSManagedObjectContext, NSManagedObject) {
        let context = try Stack.context(in: folder)
        let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
        book.setValue("Core Data", forKey: "title")
        book.setValue(NSNumber(value: 412), forKey: "pages")
        book.setValue(4.5, forKey: "rating")
        book.setValue(true, forKey: "inPrint")
        return (context, book)
    }

    // https://developer.apple.com/documentation/objectivec/nsobject/1412591-value
    @Test("Numbers and Booleans read by key are NSNumbers, and cast to any numeric type that holds them")
    func numbersBridge() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (context, book) = try library(folder)
        try context.save()
        #expect(book.value(forKey: "pages") as? Int16 == 412)
        #expect(book.value(forKey: "pages") as? Int == 412)
        #expect((book.value(forKey: "pages") as? NSNumber)?.int64Value == 412)
        #expect(book.value(forKey: "rating") as? Double == 4.5)
        #expect(book.value(forKey: "rating") as? Float == 4.5)
        #expect(book.value(forKey: "inPrint") as? Bool == true)
        #expect(book.value(forKey: "title") as? String == "Core Data")
        // The throwing twin gives Swift's own values.
        #expect(try book.checkedValue(forKey: "pages") as? Int == 412)
    }

    // https://developer.apple.com/documentation/objectivec/nsobject/1416595-mutableorderedsetvalue
    @Test("An ordered to-many reads as an NSOrderedSet and is edited in order through mutableOrderedSetValue(forKey:)")
    func orderedSets() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (context, book) = try library(folder)
        let names = ["Fetching", "Predicates", "Versioning"]
        let chapters = names.map { name -> NSManagedObject in
            let chapter = NSEntityDescription.insertNewObject(forEntityName: "Chapter", into: context)
            chapter.setValue(name, forKey: "name")
            return chapter
        }
        book.setValue(NSOrderedSet(array: [chapters[0], chapters[2]]), forKey: "chapters")
        let ordered = book.mutableOrderedSetValue(forKey: "chapters")
        ordered.insert(chapters[1], at: 1)
        #expect(ordered.count == 3)
        #expect(chapters[1].value(forKey: "book") as? NSManagedObject === book)
        try context.save()
        context.refresh(book, mergeChanges: false)
        let read = try #require(book.value(forKey: "chapters") as? NSOrderedSet)
        #expect(read.array.map { ($0 as? NSManagedObject)?.value(forKey: "name") as? String } == names)
        ordered.removeObject(at: 0)
        #expect(ordered.array.map { $0.value(forKey: "name") as? String } == ["Predicates", "Versioning"])
    }

    // https://developer.apple.com/documentation/objectivec/nsobject/1408115-mutablesetvalue
    @Test("mutableSetValue(forKey:) adds and removes objects, keeping the inverse in step")
    func mutableSets() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (context, book) = try library(folder)
        let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
        book.mutableSetValue(forKey: "authors").add(author)
        #expect(author.mutableSetValue(forKey: "books").contains(book))
        #expect(book.mutableSetValue(forKey: "authors").count == 1)
        book.mutableSetValue(forKey: "authors").remove(author)
        #expect(author.mutableSetValue(forKey: "books").count == 0)
    }
}
