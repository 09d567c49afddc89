import Foundation
import ObjectGraph
import Testing
import WorkbookSupport

@testable import ExerciseCatalog

// The changes checks explain the mistakes the chapter warns about: each wrong attempt here is
// one a learner is likely to write.
@Suite struct ChangesCheckTests {
    static func messages(_ verdict: Verdict) -> String {
        if case .failed(let messages) = verdict { return messages.joined(separator: "\n") }
        return "verdict \(verdict)"
    }

    /// An observer of `name` that reports the counts of the three sets.
    static func counting(
        _ name: Notification.Name, of context: ManagedObjectContext?,
        _ report: @escaping @Sendable (Int, Int, Int) -> Void
    ) -> NSObjectProtocol {
        NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { notification in
            func count(_ key: String) -> Int { (notification.userInfo?[key] as? Set<ManagedObject>)?.count ?? 0 }
            report(
                count(ManagedObjectContext.insertedObjectsKey), count(ManagedObjectContext.updatedObjectsKey),
                count(ManagedObjectContext.deletedObjectsKey))
        }
    }

    @Test func observingObjectsDidChangeIsExplained() {
        let verdict = ChangesChecks.saveCounts { context, report in
            Self.counting(ManagedObjectContext.objectsDidChangeNotification, of: context, report)
        }
        #expect(Self.messages(verdict).contains("you observe objects-did-change"), "\(verdict)")
    }

    @Test func observingEveryContextIsExplained() {
        let verdict = ChangesChecks.saveCounts { _, report in
            Self.counting(ManagedObjectContext.didSaveNotification, of: nil, report)
        }
        #expect(Self.messages(verdict).contains("another context's save reached your observer"), "\(verdict)")
    }

    @Test func theCurrentValueAsTheOldOneIsExplained() {
        let verdict = ChangesChecks.titleChanges { context in
            var result: [String: String] = [:]
            for object in context.updatedObjects where object.changedValues()["title"] != nil {
                let title = try object.checkedValue(forKey: "title") as? String ?? ""
                result[title] = title
            }
            return result
        }
        #expect(Self.messages(verdict).contains("value(forKey:) gives the current value"), "\(verdict)")
    }

    @Test func everyUpdatedObjectIsExplained() {
        let verdict = ChangesChecks.titleChanges { context in
            var result: [String: String] = [:]
            for object in context.updatedObjects {
                let saved = try object.committedValues(forKeys: ["title"])["title"] as? String ?? ""
                result[saved] = try object.checkedValue(forKey: "title") as? String ?? ""
            }
            return result
        }
        let text = Self.messages(verdict)
        #expect(text.contains("whose title did not change: only its completed flag did"), "\(text)")
        #expect(text.contains("set back to the saved one"), "\(text)")
    }

    @Test func aListWithoutThePredicateIsExplained() {
        let verdict = ChangesChecks.openToDos { context in
            let request = FetchRequest<ManagedObject>(entityName: "ToDo")
            request.sortDescriptors = [ObjectGraph.SortDescriptor(key: "dueDate", ascending: true)]
            let controller = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            try controller.performFetch()
            return controller
        }
        #expect(Self.messages(verdict).contains("NSPredicate(format: \"completed == NO\")"), "\(verdict)")
    }

    @Test func aControllerNeverFetchedIsExplained() {
        let verdict = ChangesChecks.openToDos { context in
            let request = FetchRequest<ManagedObject>(entityName: "ToDo")
            request.predicate = ObjectGraph.Predicate(format: "completed == NO")
            request.sortDescriptors = [ObjectGraph.SortDescriptor(key: "dueDate", ascending: true)]
            return FetchedResultsController(
                fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        }
        #expect(Self.messages(verdict).contains("call try controller.performFetch()"), "\(verdict)")
    }
}
