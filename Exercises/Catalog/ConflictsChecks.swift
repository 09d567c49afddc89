import ConflictsChapter
import Foundation
import ObjectGraph
import WorkbookSupport

/// How the chapter 8 exercises are judged: each check builds a container on a fresh SQLite
/// store holding the chapter's three books, calls the learner's code, then reads the store
/// with a context of its own and explains what differs from what the chapter shows.
public enum ConflictsChecks {
    /// The rows conflicts-1 imports: two codes already stored, one new.
    static let importRows: [(code: String, title: String)] = [
        ("ZAR-2009", "Core Data, 2nd edition"),
        ("ZAR-2014", "Core Data for iOS"),
        ("LAM-2005", "Fetch, Clarus, Fetch!"),
    ]

    /// The titles the store holds, by code, read by a new context.
    static func storedTitles(in container: PersistentContainer) throws -> [String: String] {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            var titles: [String: String] = [:]
            for book in try reader.fetch(FetchRequest<ManagedObject>(entityName: "Book")) {
                let code = try book.checkedValue(forKey: "code") as? String ?? "nil"
                titles[code] = try book.checkedValue(forKey: "title") as? String ?? "nil"
            }
            return titles
        }
    }

    /// The Core Data code of an error, when it is one.
    static func code(of error: Error) -> Int { (error as NSError).code }

    /// conflicts-1: rows imported so that a code already stored updates its book (an upsert).
    public static func upsert(_ attempt: ([(code: String, title: String)], PersistentContainer) throws -> Void)
        -> Verdict
    {
        judge {
            let bench = Workbench { _ in }
            let container = try Shelf.makeContainer(in: bench.makeDataFolder())
            try Shelf.insertBooks(into: container)
            do {
                try attempt(importRows, container)
            } catch let error where code(of: error) == 133021 {
                return [
                    "The save failed with 133021 (NSManagedObjectConstraintMergeError): ZAR-2009 and LAM-2005 are already stored, and a context's merge policy is NSErrorMergePolicy until you set another. Set the context's mergePolicy to NSMergeByPropertyObjectTrumpMergePolicy before saving, so that a duplicate code becomes an update of the stored book."
                ]
            }
            let titles = try storedTitles(in: container)
            var problems: [String] = []
            if titles.count != 4 {
                problems.append(
                    "The store holds \(titles.count) books, \(titles.keys.sorted()); it should hold 4: the three it had, and ZAR-2014, the one new code. Insert one Book per row and save the context."
                )
            }
            let kept = importRows.filter { titles[$0.code] != nil && titles[$0.code] != $0.title }
            if !kept.isEmpty {
                problems.append(
                    "The store kept the old titles of \(kept.map(\.code).joined(separator: " and ")) (\(kept.map { "\"\(titles[$0.code] ?? "")\"" }.joined(separator: ", "))): the stored values won. NSMergeByPropertyStoreTrumpMergePolicy keeps the store's value where both sides have one, and NSRollbackMergePolicy drops the new objects; an import's values should win, which is NSMergeByPropertyObjectTrumpMergePolicy (or NSOverwriteMergePolicy)."
                )
            }
            return problems
        }
    }

    /// conflicts-2: a title saved by a context whose read of the book another context's save
    /// made stale, keeping the other context's change.
    public static func staleSave(_ attempt: (String, ManagedObjectID, ManagedObjectContext) throws -> Void) -> Verdict {
        judge {
            let bench = Workbench { _ in }
            let container = try Shelf.makeContainer(in: bench.makeDataFolder())
            let id = try Shelf.insertBooks(into: container)[1]
            let editor = container.newBackgroundContext()
            editor.name = "editor"
            try editor.performAndWait { _ = try editor.existingObject(with: id).checkedValue(forKey: "title") }
            let other = container.newBackgroundContext()
            try other.performAndWait {
                try other.existingObject(with: id).checkedSetValue(3, forKey: "copies")
                try other.save()
            }
            let title = "Core Data, 2nd edition"
            do {
                try attempt(title, id, editor)
            } catch let error where code(of: error) == 133020 {
                return [
                    "The save failed with 133020 (NSManagedObjectMergeError): another context saved the book (3 copies) after the editor read it, and the editor's merge policy is NSErrorMergePolicy. Either refresh the book before saving (editor.refresh(book, mergeChanges: true) keeps your change on the store's values), or set editor.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy, which keeps both sides' changes."
                ]
            }
            let reader = container.newBackgroundContext()
            let (storedTitle, copies) = try reader.performAndWait {
                let book = try reader.existingObject(with: id)
                return (
                    try book.checkedValue(forKey: "title") as? String ?? "nil",
                    try book.checkedValue(forKey: "copies") as? Int ?? 0
                )
            }
            var problems: [String] = []
            if storedTitle != title {
                problems.append(
                    "The store's title is \"\(storedTitle)\", not \"\(title)\": your change was dropped. NSRollbackMergePolicy, or refresh(_:mergeChanges: false) without setting the title again, discards the editor's changes; set the title after refreshing, or use NSMergeByPropertyObjectTrumpMergePolicy. (And save the editor, inside its performAndWait.)"
                )
            }
            if copies != 3 {
                problems.append(
                    "The store holds \(copies) copies: the other context saved 3, and your save wrote back the \(copies) the editor had read. NSOverwriteMergePolicy saves the editor's whole object, values it never changed included; NSMergeByPropertyObjectTrumpMergePolicy (or a refresh before the save) writes only what the editor changed."
                )
            }
            return problems
        }
    }

    /// conflicts-3: what a 133020 error's conflict says: the version read, the store's
    /// version, and the store's number of copies.
    public static func readConflict(_ attempt: (NSError) throws -> (read: Int, stored: Int, copies: Int)) -> Verdict {
        judge {
            let bench = Workbench { _ in }
            let container = try Shelf.makeContainer(in: bench.makeDataFolder())
            let id = try Shelf.insertBooks(into: container)[1]
            let editor = container.newBackgroundContext()
            try editor.performAndWait { _ = try editor.existingObject(with: id).checkedValue(forKey: "title") }
            let other = container.newBackgroundContext()
            for copies in [3, 7] {
                try other.performAndWait {
                    try other.existingObject(with: id).checkedSetValue(copies, forKey: "copies")
                    try other.save()
                }
            }
            // The editor read version 1 with 1 copy; the store is at version 3, with 7 copies.
            let error: NSError? = editor.performAndWait {
                do {
                    try editor.existingObject(with: id).checkedSetValue("Core Data, 2nd edition", forKey: "title")
                    try editor.save()
                    return nil
                } catch {
                    return error as NSError
                }
            }
            guard let error else { return ["The check could not make a conflict: the editor's save went through."] }
            let answer = try editor.performAndWait { try attempt(error) }
            var problems: [String] = []
            if answer.read == 0 && answer.stored == 0 {
                problems.append(
                    "You found no conflict: the error's userInfo holds the conflicts under NSPersistentStoreSaveConflictsErrorKey (\"conflictList\"), an array of NSMergeConflict; read the first one's oldVersionNumber, newVersionNumber and persistedSnapshot."
                )
                return problems
            }
            if (answer.read, answer.stored) == (3, 1) {
                problems.append(
                    "The versions are swapped: oldVersionNumber is the version the editor read (1), newVersionNumber the version the store holds now (3)."
                )
            } else if (answer.read, answer.stored) != (1, 3) {
                problems.append(
                    "You returned versions \(answer.read) and \(answer.stored); the editor read version 1 and the store is at version 3 (two saves by the other context): oldVersionNumber and newVersionNumber."
                )
            }
            if answer.copies == 1 {
                problems.append(
                    "1 copy is what the editor read: objectSnapshot (and the sourceObject) hold the editor's values. The store's values are in persistedSnapshot, where \"copies\" is 7."
                )
            } else if answer.copies != 7 {
                problems.append(
                    "You returned \(answer.copies) copies; the store holds 7: persistedSnapshot[\"copies\"] as? Int.")
            }
            return problems
        }
    }
}
