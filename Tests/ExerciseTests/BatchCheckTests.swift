import Foundation
import ObjectGraph
import Testing
import WorkbookSupport

@testable import ExerciseCatalog

// The batch checks explain the mistakes the chapter warns about: each wrong attempt here is one
// a learner is likely to write.
@Suite struct BatchCheckTests {
    static func messages(_ verdict: Verdict) -> String {
        if case .failed(let messages) = verdict { return messages.joined(separator: "\n") }
        return "verdict \(verdict)"
    }

    /// batch-1 with a batch delete of `format` (nil: every quake), returning what `resultType` gives.
    static func batchDelete(_ format: String?, resultType: BatchDeleteRequest.ResultType = .count) -> Verdict {
        BatchChecks.deleteSmallQuakes { magnitude, container in
            let context = container.newBackgroundContext()
            return try context.performAndWait {
                let fetch = FetchRequest<ManagedObject>(entityName: "Quake")
                if let format { fetch.predicate = try Predicate(checkedFormat: format, magnitude) }
                let request = BatchDeleteRequest(fetchRequest: fetch)
                request.resultType = resultType
                return try context.execute(request).result as? Int ?? 0
            }
        }
    }

    @Test func aBatchDeleteWithAPredicateIsSolved() {
        let verdict = Self.batchDelete("magnitude < %@")
        #expect(verdict == .solved, "\(Self.messages(verdict))")
    }

    @Test func deletingEveryQuakeIsExplained() {
        #expect(Self.messages(Self.batchDelete(nil)).contains("The store holds no quakes"))
    }

    @Test func deletingTheLimitToIsExplained() {
        let message = Self.messages(Self.batchDelete("magnitude <= %@ OR magnitude < 3"))
        #expect(message.contains("quakes of 2.5 or more were deleted too"), "\(message)")
    }

    @Test func theStatusOnlyResultIsExplained() {
        let message = Self.messages(Self.batchDelete("magnitude < %@", resultType: .statusOnly))
        #expect(message.contains("You returned 0; 3 quakes were below 2.5"), "\(message)")
    }

    @Test func deletingThroughAContextIsExplained() {
        let verdict = BatchChecks.deleteSmallQuakes { magnitude, container in
            let context = container.newBackgroundContext()
            return try context.performAndWait {
                let fetch = FetchRequest<ManagedObject>(entityName: "Quake")
                fetch.predicate = try Predicate(checkedFormat: "magnitude < %@", magnitude)
                let quakes = try context.fetch(fetch)
                for quake in quakes { context.delete(quake) }
                try context.save()
                return quakes.count
            }
        }
        #expect(Self.messages(verdict).contains("The store ran 3 DELETE statements, one per quake"))
    }

    /// batch-2's batch update, merged into the view context or not.
    static func batchUpdate(merging: Bool) -> Verdict {
        BatchChecks.reviewStrongQuakes { magnitude, container in
            let context = container.newBackgroundContext()
            let ids: [ManagedObjectID] = try context.performAndWait {
                let request = BatchUpdateRequest(entityName: "Quake")
                request.predicate = try Predicate(checkedFormat: "magnitude >= %@", magnitude)
                request.propertiesToUpdate = ["reviewed": true]
                request.resultType = .updatedObjectIDs
                return try context.execute(request).result as? [ManagedObjectID] ?? []
            }
            if merging {
                ManagedObjectContext.mergeChanges(
                    fromRemoteContextSave: [ManagedObjectContext.updatedObjectsKey: ids], into: [container.viewContext])
            }
        }
    }

    @Test func aMergedBatchUpdateIsSolved() {
        let verdict = Self.batchUpdate(merging: true)
        #expect(verdict == .solved, "\(Self.messages(verdict))")
    }

    @Test func aBatchUpdateNotMergedIsExplained() {
        let message = Self.messages(Self.batchUpdate(merging: false))
        #expect(message.contains("The view context still shows nc1004, nc1007, nc1009 as not reviewed"), "\(message)")
    }

    @Test func updatingThroughABackgroundContextIsExplained() {
        let verdict = BatchChecks.reviewStrongQuakes { magnitude, container in
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let fetch = FetchRequest<ManagedObject>(entityName: "Quake")
                fetch.predicate = try Predicate(checkedFormat: "magnitude >= %@", magnitude)
                for quake in try context.fetch(fetch) { try quake.checkedSetValue(true, forKey: "reviewed") }
                try context.save()
            }
        }
        let message = Self.messages(verdict)
        #expect(message.contains("The store ran 3 UPDATE statements"), "\(message)")
        #expect(message.contains("The view context still shows"), "\(message)")
    }

    /// batch-3's answer: the inserted IDs of the history after `token` (or all of it), of every
    /// author or of others only, insertions only or every change.
    static func history(useToken: Bool = true, othersOnly: Bool = true, insertsOnly: Bool = true) -> Verdict {
        BatchChecks.insertedByOthers { token, container in
            let context = container.newBackgroundContext()
            let transactions: [PersistentHistoryTransaction] = try context.performAndWait {
                let request = PersistentHistoryChangeRequest.fetchHistory(after: useToken ? token : nil)
                return (try context.execute(request) as? PersistentHistoryResult)?.transactions ?? []
            }
            return transactions.filter { !othersOnly || $0.author != "app" }.flatMap { $0.changes ?? [] }
                .filter { !insertsOnly || $0.changeType == .insert }.map(\.changedObjectID)
        }
    }

    @Test func othersInsertionsAfterTheTokenAreSolved() {
        let verdict = Self.history()
        #expect(verdict == .solved, "\(Self.messages(verdict))")
    }

    @Test func ignoringTheTokenIsExplained() {
        #expect(Self.messages(Self.history(useToken: false)).contains("You returned quakes inserted before the token"))
    }

    @Test func keepingTheAppsOwnIsExplained() {
        #expect(Self.messages(Self.history(othersOnly: false)).contains("You returned a quake the app inserted itself"))
    }

    @Test func keepingEveryChangeIsExplained() {
        #expect(Self.messages(Self.history(insertsOnly: false)).contains("You returned IDs of updated or deleted"))
    }

    @Test func nothingIsExplained() {
        let verdict = BatchChecks.insertedByOthers { _, _ in [] }
        #expect(Self.messages(verdict).contains("You returned no IDs"))
    }
}
