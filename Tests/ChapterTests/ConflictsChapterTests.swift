import Foundation
import ObjectGraph
import Testing
import WorkbookSupport

@testable import ConflictsChapter

// Every behaviour the conflicts chapter states, asserted through its sections' output and
// through the API. Each test names the Apple page it comes from.
@Suite struct ConflictsChapterTests {
    static func output(_ name: String) throws -> String {
        try ChapterRunner.output(of: try ChapterRunner.section(named: name, in: ConflictsChapter.self))
    }

    // NSEntityDescription.uniquenessConstraints and NSConstraintConflict: a stored code fails the
    // save with 133021 under the default policy; NSMergeByPropertyObjectTrumpMergePolicy makes the
    // new object the stored one (an upsert).
    @Test func aDuplicateFailsThenBecomesAnUpdate() throws {
        let text = try Self.output("uniqueness")
        #expect(text.contains("save() failed: NSCocoaErrorDomain 133021"), "\(text)")
        #expect(text.contains("  constraint: [\"code\"], constraintValues: {code: \"ZAR-2009\"}"), "\(text)")
        #expect(text.contains("  databaseObject: \"Core Data\" by Marcus Zarra, 1 copy"), "\(text)")
        #expect(text.contains("The store still holds 3 books; ZAR-2009 is \"Core Data\" by Marcus Zarra, 1 copy"))
        #expect(
            text.contains(
                "The store holds 3 books; ZAR-2009 is \"Core Data, 2nd edition\" by Marcus Zarra, 2 copies"),
            "\(text)")
        #expect(text.hasSuffix("The inserted object was temporary: true\nIt now has the stored book's ID: true"))
    }

    // NSMergePolicy's five policies, one row each, after two contexts changed one book.
    @Test func eachPolicyKeepsWhatApplesPageSays() throws {
        let rows = try Self.output("merge-policies").split(separator: "\n").map {
            $0.split(separator: "  ", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(rows.count == 6)
        let byPolicy = Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0[0], Array($0.dropFirst())) })
        #expect(byPolicy["error"] == ["error 133020", "\"Core Data: Apple's API\"", "\"Marcus Zarra\"", "3"])
        #expect(
            byPolicy["mergeByPropertyStoreTrump"] == [
                "saved", "\"Core Data: Apple's API\"", "\"Marcus S. Zarra\"", "3",
            ])
        #expect(
            byPolicy["mergeByPropertyObjectTrump"] == [
                "saved", "\"Core Data, 2nd edition\"", "\"Marcus S. Zarra\"", "3",
            ])
        #expect(byPolicy["overwrite"] == ["saved", "\"Core Data, 2nd edition\"", "\"Marcus S. Zarra\"", "1"])
        #expect(byPolicy["rollback"] == ["saved", "\"Core Data: Apple's API\"", "\"Marcus Zarra\"", "3"])
    }

    // NSMergeConflict: 133020 with the versions and the three snapshots; refreshing and redoing,
    // or NSMergeByPropertyObjectTrumpMergePolicy, lets the save through.
    @Test func aStaleSaveFailsWith133020AndIsResolved() throws {
        let text = try Self.output("optimistic-locking")
        #expect(text.contains("save() failed: NSCocoaErrorDomain 133020"), "\(text)")
        #expect(text.contains("  oldVersionNumber: 1, newVersionNumber: 2"), "\(text)")
        #expect(
            text.contains(
                "  objectSnapshot:    {author: \"Marcus Zarra\", code: \"ZAR-2009\", copies: 1, title: \"Core Data\"}"),
            "\(text)")
        #expect(
            text.contains(
                "  persistedSnapshot: {author: \"Marcus Zarra\", code: \"ZAR-2009\", copies: 3, title: \"Core Data\"}"))
        #expect(
            text.contains(
                "Refreshed and redone, save() went through: \"Core Data, 2nd edition\" by Marcus Zarra, 3 copies"))
        #expect(
            text.hasSuffix(
                "save() went through: \"Core Data, 2nd edition\" by Marcus S. Zarra, 4 copies"), "\(text)")
    }

    // Optimistic locking holds between processes: the chapter's executable, run a second time,
    // saves the book this process read.
    @Test(.enabled(if: TwoProcesses.conflictsExecutable() != nil, "the conflicts executable is built by `swift build`"))
    func aSaveByAnotherProcessIsAConflictToo() throws {
        let text = try Self.output("two-processes")
        #expect(
            text.contains(
                "$ conflicts --other-process FOLDER --code ZAR-2009 --copies 5\n  saved ZAR-2009 with 5 copies"))
        #expect(text.contains("save() failed: NSCocoaErrorDomain 133020"), "\(text)")
        #expect(
            text.contains(
                "  persistedSnapshot: {author: \"Marcus Zarra\", code: \"ZAR-2009\", copies: 5, title: \"Core Data\"}"))
        #expect(text.hasSuffix("The store holds \"Core Data, 2nd edition\" by Marcus Zarra, 5 copies"), "\(text)")
    }

    // The chapter's output is the same on every run (two processes, fresh stores, no clock).
    @Test func theOutputIsTheSameOnEveryRun() throws {
        for section in ["uniqueness", "merge-policies", "optimistic-locking"] {
            #expect(try Self.output(section) == Self.output(section), "\(section)")
        }
    }

    // Errata R5: Apple's NSErrorMergePolicy page says the conflicting objects' IDs are under
    // NSInsertedObjectsKey and NSUpdatedObjectsKey; the conflicts are under "conflictList".
    @Test func theConflictsAreUnderConflictListNotTheObjectKeys() throws {
        let bench = Workbench { _ in }
        let container = try Shelf.makeContainer(in: bench.makeDataFolder())
        let id = try Shelf.insertBooks(into: container)[1]
        let (editor, other) = (container.newBackgroundContext(), container.newBackgroundContext())
        try editor.performAndWait { _ = try editor.existingObject(with: id).checkedValue(forKey: "title") }
        try other.performAndWait {
            try other.existingObject(with: id).checkedSetValue(3, forKey: "copies")
            try other.save()
        }
        let info: [String: Any] = try editor.performAndWait {
            try editor.existingObject(with: id).checkedSetValue("Core Data, 2nd edition", forKey: "title")
            let error = #expect(throws: CoreDataError.self) { try editor.save() }
            return error.map { ($0 as NSError).userInfo } ?? [:]
        }
        #expect(info["inserted"] == nil && info["updated"] == nil)
        #expect((info["conflictList"] as? [MergeConflict])?.count == 1)
    }

    // Errata R6: NSMergeConflict's cachedSnapshot is the coordinator's cached row on Apple's; here
    // there is no row cache, so it is the persisted snapshot, even when another coordinator (as
    // another process would) saved the row.
    @Test func theCachedSnapshotIsThePersistedOne() throws {
        let bench = Workbench { _ in }
        let folder = try bench.makeDataFolder()
        let container = try Shelf.makeContainer(in: folder)
        let id = try Shelf.insertBooks(into: container)[1]
        let editor = container.newBackgroundContext()
        try editor.performAndWait { _ = try editor.existingObject(with: id).checkedValue(forKey: "title") }
        try TwoProcesses.changeCopies(inStoreIn: folder, code: "ZAR-2009", copies: 5)
        let conflict: MergeConflict? = editor.performAndWait {
            try? editor.existingObject(with: id).checkedSetValue("Core Data, 2nd edition", forKey: "title")
            do {
                try editor.save()
                return nil
            } catch {
                return ((error as NSError).userInfo["conflictList"] as? [MergeConflict])?.first
            }
        }
        let found = try #require(conflict)
        #expect(found.cachedSnapshot?["copies"] as? Int == 5)
        #expect(found.persistedSnapshot?["copies"] as? Int == 5)
        #expect(found.objectSnapshot?["copies"] as? Int == 1)
    }

    // Like chapter 6: no listing calls the workbook's machinery, and the page links Apple's pages.
    @Test func theListingsStandOnTheirOwnAndThePageLinksApplesDocumentation() throws {
        let listings = try SelfContainedListingsTests.listings(of: "conflicts")
        #expect(listings.count >= 10)
        for listing in listings {
            for word in ["bench", "Workbench", "Shelf.insertBooks", "Shelf.stored"] {
                #expect(!listing.code.contains(word), "\(listing.name) calls \(word), which the book never shows")
            }
        }
        let page = try String(
            contentsOf: SelfContainedListingsTests.root.appendingPathComponent("book/conflicts.md"), encoding: .utf8)
        let reading = try #require(page.range(of: "\n## Further reading\n"))
        let links = page[reading.upperBound...].components(separatedBy: "](https://developer.apple.com/documentation/")
        #expect(links.count > 15)
        for path in ["nsmergepolicy", "nsmergeconflict", "nsconstraintconflict", "conflict-resolution"] {
            #expect(page.contains("](https://developer.apple.com/documentation/coredata/\(path))"), "\(path)")
        }
        #expect(page.prefix(2_500).contains("(#further-reading)"))
    }
}
