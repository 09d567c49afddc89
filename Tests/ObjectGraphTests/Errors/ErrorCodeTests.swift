import Foundation
import GRDB
import Testing

@testable import ObjectGraph

// Core Data's error codes as CoreDataErrors.h and FoundationErrors.h define them, and the
// exceptions Core Data raises where it has no code.
@Suite("Error codes and exceptions") struct ErrorCodeTests {
    typealias Code = CoreDataError.Code

    // Every code with its raw value and Apple's constant, as in CoreDataErrors.h (and
    // FoundationErrors.h for 256-516). 134081 has no constant: Core Data returns it for a store
    // added twice ("Can't add the same store twice").
    static let apple: [(Code, Int, String?)] = [
        (.fileReadUnknown, 256, "NSFileReadUnknownError"),
        (.fileReadCorruptFile, 259, "NSFileReadCorruptFileError"),
        (.fileReadNoSuchFile, 260, "NSFileReadNoSuchFileError"),
        (.fileWriteUnknown, 512, "NSFileWriteUnknownError"),
        (.fileWriteFileExists, 516, "NSFileWriteFileExistsError"),
        (.validation, 1550, "NSManagedObjectValidationError"),
        (.constraintValidation, 1551, "NSManagedObjectConstraintValidationError"),
        (.multipleErrors, 1560, "NSValidationMultipleErrorsError"),
        (.missingMandatoryProperty, 1570, "NSValidationMissingMandatoryPropertyError"),
        (.relationshipLacksMinimumCount, 1580, "NSValidationRelationshipLacksMinimumCountError"),
        (.relationshipExceedsMaximumCount, 1590, "NSValidationRelationshipExceedsMaximumCountError"),
        (.relationshipDeniedDelete, 1600, "NSValidationRelationshipDeniedDeleteError"),
        (.numberTooLarge, 1610, "NSValidationNumberTooLargeError"),
        (.numberTooSmall, 1620, "NSValidationNumberTooSmallError"),
        (.dateTooLate, 1630, "NSValidationDateTooLateError"),
        (.dateTooSoon, 1640, "NSValidationDateTooSoonError"),
        (.invalidDate, 1650, "NSValidationInvalidDateError"),
        (.stringTooLong, 1660, "NSValidationStringTooLongError"),
        (.stringTooShort, 1670, "NSValidationStringTooShortError"),
        (.stringPatternMatching, 1680, "NSValidationStringPatternMatchingError"),
        (.invalidURI, 1690, "NSValidationInvalidURIError"),
        (.managedObjectContextLocking, 132000, "NSManagedObjectContextLockingError"),
        (.persistentStoreCoordinatorLocking, 132010, "NSPersistentStoreCoordinatorLockingError"),
        (.referentialIntegrity, 133000, "NSManagedObjectReferentialIntegrityError"),
        (.externalRelationship, 133010, "NSManagedObjectExternalRelationshipError"),
        (.merge, 133020, "NSManagedObjectMergeError"),
        (.constraintMerge, 133021, "NSManagedObjectConstraintMergeError"),
        (.persistentStoreInvalidType, 134000, "NSPersistentStoreInvalidTypeError"),
        (.persistentStoreTypeMismatch, 134010, "NSPersistentStoreTypeMismatchError"),
        (.persistentStoreIncompatibleSchema, 134020, "NSPersistentStoreIncompatibleSchemaError"),
        (.persistentStoreSave, 134030, "NSPersistentStoreSaveError"),
        (.persistentStoreIncompleteSave, 134040, "NSPersistentStoreIncompleteSaveError"),
        (.persistentStoreSaveConflicts, 134050, "NSPersistentStoreSaveConflictsError"),
        (.coreData, 134060, "NSCoreDataError"),
        (.persistentStoreOperation, 134070, "NSPersistentStoreOperationError"),
        (.persistentStoreOpen, 134080, "NSPersistentStoreOpenError"),
        (.persistentStoreAlreadyAdded, 134081, nil),
        (.persistentStoreTimeout, 134090, "NSPersistentStoreTimeoutError"),
        (.persistentStoreUnsupportedRequestType, 134091, "NSPersistentStoreUnsupportedRequestTypeError"),
        (.persistentStoreIncompatibleVersionHash, 134100, "NSPersistentStoreIncompatibleVersionHashError"),
        (.migration, 134110, "NSMigrationError"),
        (.migrationConstraintViolation, 134111, "NSMigrationConstraintViolationError"),
        (.migrationCancelled, 134120, "NSMigrationCancelledError"),
        (.migrationMissingSourceModel, 134130, "NSMigrationMissingSourceModelError"),
        (.migrationMissingMappingModel, 134140, "NSMigrationMissingMappingModelError"),
        (.migrationManagerSourceStore, 134150, "NSMigrationManagerSourceStoreError"),
        (.migrationManagerDestinationStore, 134160, "NSMigrationManagerDestinationStoreError"),
        (.entityMigrationPolicy, 134170, "NSEntityMigrationPolicyError"),
        (.sqlite, 134180, "NSSQLiteError"),
        (.inferredMappingModel, 134190, "NSInferredMappingModelError"),
        (.externalRecordImport, 134200, "NSExternalRecordImportError"),
        (.persistentHistoryTokenExpired, 134301, "NSPersistentHistoryTokenExpiredError"),
        (.managedObjectModelReferenceNotFound, 134504, "NSManagedObjectModelReferenceNotFoundError"),
        (.stagedMigrationFrameworkVersionMismatch, 134505, "NSStagedMigrationFrameworkVersionMismatchError"),
        (.stagedMigrationBackwardMigration, 134506, "NSStagedMigrationBackwardMigrationError"),
    ]

    @Test func everyCodeHasAppleRawValueAndName() {
        for (code, raw, name) in Self.apple {
            #expect(code.rawValue == raw, "\(name ?? "134081")")
            #expect(code.appleName == name, "\(raw)")
            #expect(Code(rawValue: raw) == code)
        }
        // The table and the package's list hold the same codes, each once.
        #expect(Code.allKnown.map(\.rawValue) == Self.apple.map(\.1))
        #expect(Set(Code.allKnown).count == Code.allKnown.count)
    }

    // The five codes the package used to label with other meanings.
    @Test func theCodesOnceMislabelledMeanWhatAppleSays() {
        #expect(Code(rawValue: 134000).appleName == "NSPersistentStoreInvalidTypeError")
        #expect(Code(rawValue: 134010).appleName == "NSPersistentStoreTypeMismatchError")
        #expect(Code(rawValue: 134020).appleName == "NSPersistentStoreIncompatibleSchemaError")
        #expect(Code(rawValue: 134060).appleName == "NSCoreDataError")
        #expect(Code(rawValue: 134080).appleName == "NSPersistentStoreOpenError")
    }

    @Test func aCodeThePackageDoesNotNameStillWorks() {
        let future = Code(rawValue: 134999)
        #expect(future.appleName == nil)
        #expect(future.description == "134999")
        #expect(future != .persistentStoreOpen)
        #expect(Code.persistentStoreOpen.description == "134080 (NSPersistentStoreOpenError)")
        #expect(
            CoreDataError(future, "from a newer Core Data").description
                == "Core Data error 134999: from a newer Core Data")
    }

    // What a user writes: a switch with a default compiles whatever codes are added later, and
    // matches the constants by value.
    static func advice(for code: Code) -> String {
        switch code {
        case .merge: "refresh and save again"
        case .missingMandatoryProperty, .multipleErrors: "fix the values"
        case .persistentStoreOpen, .persistentStoreInvalidType: "check the file"
        default: "report \(code.rawValue)"
        }
    }

    @Test func aSwitchOverCodesWithADefaultMatchesByValue() {
        #expect(Self.advice(for: .merge) == "refresh and save again")
        #expect(Self.advice(for: Code(rawValue: 133020)) == "refresh and save again")
        #expect(Self.advice(for: .multipleErrors) == "fix the values")
        #expect(Self.advice(for: .persistentStoreInvalidType) == "check the file")
        #expect(Self.advice(for: Code(rawValue: 134999)) == "report 134999")
    }

    @Test func catchMatchesACodeAndAKind() throws {
        let conflict = CoreDataError(.merge, "Could not merge changes")
        var caught = ""
        do { throw conflict } catch let error as CoreDataError where error.code == .merge { caught = "merge" } catch {
            caught = "other"
        }
        #expect(caught == "merge")
        do { throw conflict } catch let error as CoreDataError where error.code == .persistentStoreOpen {
            caught = "open"
        } catch { caught = "other" }
        #expect(caught == "other")
        // A kind matches with an enum pattern whose code matches by value.
        switch conflict.kind {
        case .error(.merge): caught = "error 133020"
        case .error: caught = "another error"
        case .exception: caught = "an exception"
        }
        #expect(caught == "error 133020")
    }

    @Test func anExceptionHasANameAndNoCode() {
        let error = CoreDataError(exception: .invalidArgument, "keypath pages not found in entity Book", key: "pages")
        #expect(error.code == nil)
        #expect(error.exceptionName == .invalidArgument)
        #expect(error.kind == .exception(.invalidArgument))
        #expect(error.key == "pages")
        #expect(
            error.description
                == "Core Data exception NSInvalidArgumentException: keypath pages not found in entity Book")
        #expect(CoreDataError.ExceptionName.undefinedKey.rawValue == "NSUnknownKeyException")
        #expect(CoreDataError.ExceptionName.internalInconsistency.rawValue == "NSInternalInconsistencyException")
        #expect(CoreDataError.ExceptionName.objectInaccessible.rawValue == "NSObjectInaccessibleException")
        // Passing on another error's kind keeps it.
        #expect(CoreDataError(error.kind, "in a migration").exceptionName == .invalidArgument)
    }

    // MARK: What the stack throws

    func thrown(_ body: () throws -> Void) -> CoreDataError? {
        do { try body() } catch let error as CoreDataError { return error } catch {
            Issue.record("not a CoreDataError: \(error)")
        }
        return nil
    }

    // Core Data raises NSInternalInconsistencyException for an entity name the model lacks
    // ("+entityForName: could not locate an entity named ...", "NSFetchRequest could not locate
    // an NSEntityDescription for entity name ..."); it has no error code for it.
    @Test func anUnknownEntityIsAnInternalInconsistency() throws {
        let context = try inMemoryContext()
        for error in [
            thrown { _ = try context.insertNewObject(forEntityName: "Magazine") },
            thrown { _ = try context.fetch(FetchRequest(entityName: "Magazine")) },
        ] {
            #expect(error?.exceptionName == .internalInconsistency)
            #expect(error?.code == nil)
            #expect(error?.message.hasPrefix("The model has no entity named Magazine") == true)
        }
    }

    // KVC raises NSUnknownKeyException for a key that is not a property; Core Data raises
    // NSInvalidArgumentException for a value of the wrong type.
    @Test func aWrongKeyOrValueIsTheExceptionCoreDataRaises() throws {
        let context = try inMemoryContext()
        let book = try context.insertNewObject(forEntityName: "Book")
        let key = thrown { try book.checkedSetValue("x", forKey: "pages") }
        #expect(key?.exceptionName == .undefinedKey)
        #expect(key?.key == "pages")
        let read = thrown { _ = try book.checkedValue(forKey: "pages") }
        #expect(read?.exceptionName == .undefinedKey)
        let value = thrown { try book.checkedSetValue(42, forKey: "title") }
        #expect(value?.exceptionName == .invalidArgument)
        #expect(value?.message.hasPrefix("Unacceptable type of value for attribute") == true)
    }

    // A fetch the SQLite store cannot translate is NSInvalidArgumentException in Core Data
    // (reference/coredata.md 3.3), not an error code.
    @Test func anUntranslatableFetchIsAnInvalidArgument() throws {
        let directory = try TemporaryDirectory()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try booksModel())
        try coordinator.addPersistentStore(type: .sqlite, at: directory.file("Books.sqlite"))
        let context = ManagedObjectContext(coordinator: coordinator)
        let request = FetchRequest(entityName: "Book")
        request.predicate = try ObjectGraph.Predicate(checkedFormat: "pages > 100")
        let error = thrown { _ = try context.fetch(request) }
        #expect(error?.exceptionName == .invalidArgument)
        #expect(error?.message == "keypath pages not found in entity Book")
    }

    // "This NSPersistentStoreCoordinator has no persistent stores" is an
    // NSInternalInconsistencyException in Core Data; here inserting needs a store already.
    @Test func aContextWithoutAStoreIsAnInternalInconsistency() throws {
        let context = ManagedObjectContext(
            coordinator: PersistentStoreCoordinator(managedObjectModel: try booksModel()))
        let error = thrown { _ = try context.insertNewObject(forEntityName: "Publisher") }
        #expect(error?.exceptionName == .internalInconsistency)
        #expect(error?.message.contains("addPersistentStore") == true)
    }

    @Test func storesThatCannotBeAddedCarryTheStoreCodes() throws {
        let directory = try TemporaryDirectory()
        let model = try booksModel()
        // The same store twice: 134081, as Core Data answers "Can't add the same store twice".
        let url = directory.file("Books.xml")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .xml, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.insertNewObject(forEntityName: "Publisher").checkedSetValue("BookCo", forKey: "name")
        try context.save()
        #expect(
            thrown { try coordinator.addPersistentStore(type: .xml, at: url) }?.code == .persistentStoreAlreadyAdded)
        // An XML store added as a binary one: NSPersistentStoreTypeMismatchError.
        let mismatch = thrown {
            try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .binary, at: url)
        }
        #expect(mismatch?.code == .persistentStoreTypeMismatch)
        #expect(mismatch?.message.contains("add it with type .xml") == true)
        // Text that is no store of any type: NSPersistentStoreInvalidTypeError.
        let text = directory.file("notes.xml")
        try Data("my notes".utf8).write(to: text)
        #expect(
            thrown {
                try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .xml, at: text)
            }?.code == .persistentStoreInvalidType)
        // A SQLite database that is not a Core Data store: the same.
        let database = directory.file("Other.sqlite")
        let sqlite = try DatabaseQueue(path: database.path)
        try sqlite.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        try sqlite.close()
        #expect(
            thrown {
                try PersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(
                    type: .sqlite, at: database)
            }?.code == .persistentStoreInvalidType)
        // No file at all: NSFileReadNoSuchFileError.
        let missing = thrown {
            _ = try PersistentStoreCoordinator.metadataForPersistentStore(
                type: .sqlite, at: directory.file("Missing.sqlite"))
        }
        #expect(missing?.code == .fileReadNoSuchFile)
        // Moving a store onto a file that is there: NSFileWriteFileExistsError, and nothing moves.
        let store = try #require(coordinator.persistentStores.first)
        #expect(
            thrown { try coordinator.migratePersistentStore(store, to: text, type: .xml) }?.code == .fileWriteFileExists
        )
        #expect(try String(contentsOf: text, encoding: .utf8) == "my notes")
    }

    @Test func modelFilesCarryTheFileCodes() throws {
        let directory = try TemporaryDirectory()
        // A model file Core Data would not load: 259, with the file and line.
        let folder = directory.file("Broken.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("<model><entity name=\"Book\"".utf8).write(to: folder.appendingPathComponent("contents"))
        let broken = thrown { _ = try XcodeModelLoader().loadModel(at: folder) }
        #expect(broken?.code == .fileReadCorruptFile)
        #expect(broken?.message.hasPrefix(folder.appendingPathComponent("contents").path + ":") == true)
        #expect(
            thrown { _ = try XcodeModelLoader().loadModel(at: directory.file("Missing.xcdatamodel")) }?.code
                == .fileReadNoSuchFile)
        // Writing where a file stands in the way of the folder: 512.
        let blocker = directory.file("Blocker")
        try Data("x".utf8).write(to: blocker)
        let write = thrown { try booksModel().writeXcodeModel(to: blocker.appendingPathComponent("Books.xcdatamodel")) }
        #expect(write?.code == .fileWriteUnknown)
    }
}
