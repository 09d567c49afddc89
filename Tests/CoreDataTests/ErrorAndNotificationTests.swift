import CoreData
import Testing

/// Errors as NSErrors, notification names and constants with Apple's values.
@Suite struct ErrorAndNotificationTests {
    // https://developer.apple.com/documentation/coredata/1535452-validation_error_codes
    @Test("A validation error is an NSError in NSCocoaErrorDomain with Core Data's code and keys")
    func errorsBridge() throws {
        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = try Stack.context(in: folder)
        _ = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context) // no title
        do {
            try context.save()
            Issue.record("a book without its title saved")
        } catch {
            let error = error as NSError
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSValidationMissingMandatoryPropertyError)
            #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "title")
            #expect(error.localizedDescription.contains("title"))
        }
    }

    // https://developer.apple.com/documentation/foundation/nsnotification/name/1506380-nsmanagedobjectcontextdidsave
    @Test(
        "Notification names and user-info keys have Apple's values, and the did-save notification is posted under them")
    func notifications() throws {
        #expect(Notification.Name.NSManagedObjectContextDidSave.rawValue == "NSManagedObjectContextDidSaveNotification")
        #expect(
            Notification.Name.NSManagedObjectContextObjectsDidChange.rawValue
                == "NSManagedObjectContextObjectsDidChangeNotification")
        #expect(
            NSInsertedObjectsKey == "inserted" && NSUpdatedObjectsKey == "updated" && NSDeletedObjectsKey == "deleted")
        #expect(NSStoreTypeKey == "NSStoreType" && NSStoreUUIDKey == "NSStoreUUID")
        #expect(NSManagedObjectMergeError == 133020 && NSPersistentStoreIncompatibleVersionHashError == 134100)

        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = try Stack.context(in: folder)
        nonisolated(unsafe) var inserted = 0
        let observer = NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextDidSave, object: context, queue: nil
        ) {
            inserted = ($0.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.count ?? -1
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue("Saved", forKey: "title")
        try context.save()
        #expect(inserted == 1)
    }

    // https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/didchangeobjectsnotification
    // https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/notificationkey
    @Test("The Swift names of a context's notifications and keys are Apple's, and carry the changed objects")
    func swiftNotificationNames() throws {
        #expect(NSManagedObjectContext.didChangeObjectsNotification == .NSManagedObjectContextObjectsDidChange)
        #expect(NSManagedObjectContext.didSaveObjectsNotification == .NSManagedObjectContextDidSave)
        #expect(NSManagedObjectContext.willSaveObjectsNotification == .NSManagedObjectContextWillSave)
        typealias Key = NSManagedObjectContext.NotificationKey
        #expect(
            Key.insertedObjects.rawValue == NSInsertedObjectsKey && Key.deletedObjects.rawValue == NSDeletedObjectsKey)
        #expect(
            Key.updatedObjects.rawValue == NSUpdatedObjectsKey && Key.refreshedObjects.rawValue == NSRefreshedObjectsKey
        )
        #expect(
            Key.insertedObjectIDs.rawValue == NSInsertedObjectIDsKey
                && Key.invalidatedAllObjects.rawValue == "invalidatedAll")

        let folder = try Stack.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = try Stack.context(in: folder)
        nonisolated(unsafe) var changed: [Int] = []
        let observer = NotificationCenter.default.addObserver(
            forName: NSManagedObjectContext.didChangeObjectsNotification, object: context, queue: nil
        ) { changed.append(($0.userInfo?[Key.insertedObjects.rawValue] as? Set<NSManagedObject>)?.count ?? 0) }
        defer { NotificationCenter.default.removeObserver(observer) }
        NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue("New", forKey: "title")
        #expect(changed.isEmpty)
        context.processPendingChanges()
        #expect(changed == [1])
    }

    // https://developer.apple.com/documentation/coredata/nsmergepolicy
    @Test("Apple's merge policy constants and enum spellings are the module's")
    func mergePolicies() {
        let context = NSManagedObjectContext(concurrencyType: .confinementConcurrencyType)
        context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        #expect(context.mergePolicy === NSMergePolicy.mergeByPropertyObjectTrump)
        #expect(
            NSMergePolicy(mergeType: .mergeByPropertyStoreTrumpMergePolicyType).mergeType == .mergeByPropertyStoreTrump)
        #expect(NSAttributeType.integer16AttributeType == .integer16 && NSDeleteRule.cascadeDeleteRule == .cascade)
    }
}
