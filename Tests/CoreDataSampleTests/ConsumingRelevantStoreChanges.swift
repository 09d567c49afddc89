// swift-format-ignore-file
// (Apple's sample code, kept as Apple writes it: LEDGER.md counts its lines.)
// Article: "Consuming relevant store changes"
// https://developer.apple.com/documentation/coredata/consuming_relevant_store_changes
//
// The article: "Persistent history solves the problem by keeping track of every transaction on
// the store." Its steps: enable persistent history tracking on the store description
// (`NSPersistentHistoryTrackingKey`) and remote change notifications
// (`NSPersistentStoreRemoteChangeNotificationPostOptionKey`); observe
// `.NSPersistentStoreRemoteChange`; fetch the history after the last token processed with
// `NSPersistentHistoryChangeRequest.fetchHistory(after:)`; keep the transactions relevant to the
// view; merge each into the view context with `mergeChanges(fromContextDidSave:)` on its
// `objectIDNotification()`; keep the last transaction's token ("Keep track of the most recent
// history"); purge history with `deleteHistory(before:)`.
import CoreData
import Testing

/// The article's history processor, reduced to what a test can watch.
final class HistoryProcessor: @unchecked Sendable {
    let container: NSPersistentContainer
    let appTransactionAuthorName = "app"
    private(set) var lastToken: NSPersistentHistoryToken?
    private let lock = NSLock()
    private var remoteChanges: [Notification] = []
    private var observer: NSObjectProtocol?

    init(storeURL: URL) {
        container = NSPersistentContainer(name: "Earthquakes", managedObjectModel: SampleModel.earthquakes)
        let description = NSPersistentStoreDescription(url: storeURL)
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, error in
            if let error = error as NSError? {
                fatalError("Unresolved error \(error), \(error.userInfo)")
            }
        }
        container.viewContext.name = "viewContext"
        container.viewContext.transactionAuthor = appTransactionAuthorName
        observer = NotificationCenter.default.addObserver(
            forName: .NSPersistentStoreRemoteChange, object: container.persistentStoreCoordinator, queue: nil
        ) { [weak self] notification in
            guard let self else { return }
            self.lock.lock()
            self.remoteChanges.append(notification)
            self.lock.unlock()
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    var remoteChangeNotifications: [Notification] {
        lock.lock()
        defer { lock.unlock() }
        return remoteChanges
    }

    /// Fetches the transactions after the last token, keeps those another author made, merges
    /// them into the view context and moves the token on; returns the merged transactions.
    func processPersistentHistory() throws -> [NSPersistentHistoryTransaction] {
        let taskContext = container.newBackgroundContext()
        let transactions: [NSPersistentHistoryTransaction] = try taskContext.performAndWait {
            let changeRequest = NSPersistentHistoryChangeRequest.fetchHistory(after: lastToken)
            let historyResult = try taskContext.execute(changeRequest) as? NSPersistentHistoryResult
            return historyResult?.result as? [NSPersistentHistoryTransaction] ?? []
        }
        let relevant = transactions.filter { $0.author != appTransactionAuthorName }
        let viewContext = container.viewContext
        viewContext.performAndWait {
            for transaction in relevant {
                viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            }
        }
        lastToken = transactions.last?.token ?? lastToken
        return relevant
    }

    /// Saves the token, as the article does, to a file.
    func storeToken(to url: URL) throws {
        guard let token = lastToken else { return }
        let data = try JSONEncoder().encode(token)  // LINUX: the token is a Codable struct, not an NSSecureCoding object
        try data.write(to: url)
    }

    /// Reads a token saved by `storeToken(to:)`.
    static func loadToken(from url: URL) throws -> NSPersistentHistoryToken? {
        let data = try Data(contentsOf: url)
        return try JSONDecoder().decode(NSPersistentHistoryToken.self, from: data)  // LINUX: the token is a Codable struct, not an NSSecureCoding object
    }
}

@Suite struct ConsumingRelevantStoreChangesTests {
    @Test func historyFromAnotherAuthorIsMergedIntoTheViewContext() throws {
        let directory = try TemporaryDirectory()
        let processor = HistoryProcessor(storeURL: directory.store("Earthquakes.sqlite"))
        let viewContext = processor.container.viewContext

        // The app's own save, then an import by another author.
        try viewContext.performAndWait {
            let quake = Quake(context: viewContext)
            quake.code = "app1"
            quake.place = "Typed in by the user"
            quake.time = Date(timeIntervalSince1970: 0)
            try viewContext.save()
        }
        let importContext = processor.container.newBackgroundContext()
        importContext.transactionAuthor = "importQuakes"
        let importedID: NSManagedObjectID = try importContext.performAndWait {
            let quake = Quake(context: importContext)
            quake.code = "nc1"
            quake.magnitude = 4.5
            quake.place = "12km N of Parkfield, CA"
            quake.time = Date(timeIntervalSince1970: 1_700_000_000)
            try importContext.save()
            return quake.objectID
        }

        let merged = try processor.processPersistentHistory()
        #expect(merged.count == 1)
        #expect(merged.first?.author == "importQuakes")
        let changes = merged.first?.changes ?? []
        #expect(changes.map(\.changeType) == [.insert])
        #expect(changes.first?.changedObjectID == importedID)
        #expect(processor.lastToken != nil)

        // Nothing new after the token.
        #expect(try processor.processPersistentHistory().isEmpty)

        // An update by the importer is seen as an update of that object.
        try importContext.performAndWait {
            let quake = try importContext.existingObject(with: importedID) as! Quake
            quake.magnitude = 4.7
            try importContext.save()
        }
        let updates = try processor.processPersistentHistory()
        #expect(updates.flatMap { $0.changes ?? [] }.map(\.changeType) == [.update])
        let magnitude = viewContext.performAndWait { (viewContext.object(with: importedID) as! Quake).magnitude }
        #expect(magnitude == 4.7)
    }

    @Test func remoteChangeNotificationsCarryTheHistoryToken() async throws {
        let directory = try TemporaryDirectory()
        let storeURL = directory.store("Earthquakes.sqlite")
        let processor = HistoryProcessor(storeURL: storeURL)
        let context = processor.container.newBackgroundContext()
        try await context.perform {
            let quake = Quake(context: context)
            quake.code = "ci2"
            quake.place = "5km S of Anza, CA"
            quake.time = Date(timeIntervalSince1970: 0)
            try context.save()
        }
        let posted = await eventually { !processor.remoteChangeNotifications.isEmpty }
        #expect(posted)
        let userInfo = processor.remoteChangeNotifications.first?.userInfo ?? [:]
        #expect(userInfo[NSPersistentHistoryTokenKey] is NSPersistentHistoryToken)
        #expect((userInfo[NSPersistentStoreURLKey] as? URL)?.standardizedFileURL == storeURL.standardizedFileURL)
        let token = try processor.container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        #expect(userInfo[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken == token)
    }

    @Test func theTokenIsKeptAcrossLaunchesAndHistoryIsPurged() throws {
        let directory = try TemporaryDirectory()
        let processor = HistoryProcessor(storeURL: directory.store("Earthquakes.sqlite"))
        let context = processor.container.newBackgroundContext()
        context.transactionAuthor = "importQuakes"
        func importQuake(_ code: String) throws {
            try context.performAndWait {
                let quake = Quake(context: context)
                quake.code = code
                quake.place = code
                quake.time = Date(timeIntervalSince1970: 0)
                try context.save()
            }
        }
        try importQuake("a")
        #expect(try processor.processPersistentHistory().count == 1)
        let tokenURL = directory.store("token.data")
        try processor.storeToken(to: tokenURL)
        let token = try HistoryProcessor.loadToken(from: tokenURL)
        #expect(token == processor.lastToken)
        try importQuake("b")

        // Purge what was processed (up to and including the token): the later transaction is left.
        let purged: Int = try context.performAndWait {
            let purgeRequest = NSPersistentHistoryChangeRequest.deleteHistory(before: token)
            purgeRequest.resultType = .count
            let result = try context.execute(purgeRequest) as? NSPersistentHistoryResult
            return result?.result as? Int ?? -1
        }
        #expect(purged == 1)
        let remaining: Int = try context.performAndWait {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?)
            let result = try context.execute(request) as? NSPersistentHistoryResult
            return (result?.result as? [NSPersistentHistoryTransaction])?.count ?? -1
        }
        #expect(remaining == 1)
    }
}
