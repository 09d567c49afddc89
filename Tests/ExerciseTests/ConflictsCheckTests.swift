import Foundation
import ObjectGraph
import Testing
import WorkbookSupport

@testable import ExerciseCatalog

// The conflicts checks explain the mistakes the chapter warns about: each wrong attempt here is
// one a learner is likely to write.
@Suite struct ConflictsCheckTests {
    static func messages(_ verdict: Verdict) -> String {
        if case .failed(let messages) = verdict { return messages.joined(separator: "\n") }
        return "verdict \(verdict)"
    }

    /// conflicts-1's import, saved with `policy`.
    static func importBooks(with policy: MergePolicy) -> Verdict {
        ConflictsChecks.upsert { rows, container in
            let context = container.newBackgroundContext()
            try context.performAndWait {
                context.mergePolicy = policy
                for (code, title) in rows {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.checkedSetValue(code, forKey: "code")
                    try book.checkedSetValue(title, forKey: "title")
                }
                try context.save()
            }
        }
    }

    @Test func theDefaultPolicysConstraintErrorIsExplained() {
        #expect(Self.messages(Self.importBooks(with: .error)).contains("The save failed with 133021"))
    }

    @Test func keepingTheStoredTitlesIsExplained() {
        let message = Self.messages(Self.importBooks(with: .mergeByPropertyStoreTrump))
        #expect(message.contains("The store kept the old titles of ZAR-2009 and LAM-2005"), "\(message)")
    }

    @Test func anUpsertWithObjectTrumpIsSolved() {
        #expect(Self.importBooks(with: .mergeByPropertyObjectTrump) == .solved)
    }

    /// conflicts-2's save, with `policy`.
    static func saveTitle(with policy: MergePolicy) -> Verdict {
        ConflictsChecks.staleSave { title, id, editor in
            try editor.performAndWait {
                editor.mergePolicy = policy
                try editor.existingObject(with: id).checkedSetValue(title, forKey: "title")
                try editor.save()
            }
        }
    }

    @Test func aPlainSaveIsExplained() {
        #expect(Self.messages(Self.saveTitle(with: .error)).contains("The save failed with 133020"))
    }

    @Test func overwritingIsExplained() {
        let message = Self.messages(Self.saveTitle(with: .overwrite))
        #expect(message.contains("your save wrote back the 1 the editor had read"), "\(message)")
    }

    @Test func rollingBackIsExplained() {
        let message = Self.messages(Self.saveTitle(with: .rollback))
        #expect(message.contains("your change was dropped"), "\(message)")
    }

    @Test func refreshingBeforeTheSaveIsSolved() {
        let verdict = ConflictsChecks.staleSave { title, id, editor in
            try editor.performAndWait {
                let book = try editor.existingObject(with: id)
                try book.checkedSetValue(title, forKey: "title")
                editor.refresh(book, mergeChanges: true)
                try editor.save()
            }
        }
        #expect(verdict == .solved, "\(Self.messages(verdict))")
    }

    @Test func readingTheObjectSnapshotIsExplained() {
        let verdict = ConflictsChecks.readConflict { error in
            let conflict = try #require((error.userInfo[CoreDataError.conflictListKey] as? [MergeConflict])?.first)
            return (
                conflict.oldVersionNumber, conflict.newVersionNumber, conflict.objectSnapshot?["copies"] as? Int ?? 0
            )
        }
        #expect(Self.messages(verdict).contains("1 copy is what the editor read"))
    }

    @Test func swappedVersionsAreExplained() {
        let verdict = ConflictsChecks.readConflict { error in
            let conflict = try #require((error.userInfo[CoreDataError.conflictListKey] as? [MergeConflict])?.first)
            return (
                conflict.newVersionNumber, conflict.oldVersionNumber, conflict.persistedSnapshot?["copies"] as? Int ?? 0
            )
        }
        #expect(Self.messages(verdict).contains("The versions are swapped"))
    }

    @Test func lookingElsewhereIsExplained() {
        let verdict = ConflictsChecks.readConflict { _ in (0, 0, 0) }
        #expect(Self.messages(verdict).contains("You found no conflict"))
    }
}
