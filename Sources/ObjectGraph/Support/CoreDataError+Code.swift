extension CoreDataError {
    /// Core Data's error codes, with Apple's raw values (`CoreDataErrors.h`, and `FoundationErrors.h`
    /// for files), each with the meaning Apple's header gives it.
    ///
    /// A struct of constants rather than an enum, as GRDB's `ResultCode`: a new code is a new
    /// constant, so a `switch` written today (with a `default`) still compiles tomorrow. Match a
    /// code with `==`, or with `case .merge:` in a `switch` or a `catch ... where`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's number, as in `NSError.code`.
        public let rawValue: Int

        /// The code with this number, whether or not the package names it.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `134080 (NSPersistentStoreOpenError)`, or the number alone for a code Apple does not name.
        public var description: String { appleName.map { "\(rawValue) (\($0))" } ?? "\(rawValue)" }

        // MARK: Validation (NSManagedObjectValidationError ... NSValidationInvalidURIError)

        /// 1550, NSManagedObjectValidationError: "Generic validation error".
        public static let validation = Code(rawValue: 1550)
        /// 1551, NSManagedObjectConstraintValidationError: "One or more uniqueness constraints were violated".
        public static let constraintValidation = Code(rawValue: 1551)
        /// 1560, NSValidationMultipleErrorsError: "Generic message for error containing multiple
        /// validation errors"; ``CoreDataError/detailedErrors`` holds them.
        public static let multipleErrors = Code(rawValue: 1560)
        /// 1570, NSValidationMissingMandatoryPropertyError: "Non-optional property with a nil value".
        public static let missingMandatoryProperty = Code(rawValue: 1570)
        /// 1580, NSValidationRelationshipLacksMinimumCountError: "To-many relationship with too few
        /// destination objects".
        public static let relationshipLacksMinimumCount = Code(rawValue: 1580)
        /// 1590, NSValidationRelationshipExceedsMaximumCountError: "Bounded, to-many relationship with
        /// too many destination objects".
        public static let relationshipExceedsMaximumCount = Code(rawValue: 1590)
        /// 1600, NSValidationRelationshipDeniedDeleteError: "Some relationship with NSDeleteRuleDeny is
        /// non-empty".
        public static let relationshipDeniedDelete = Code(rawValue: 1600)
        /// 1610, NSValidationNumberTooLargeError: "Some numerical value is too large".
        public static let numberTooLarge = Code(rawValue: 1610)
        /// 1620, NSValidationNumberTooSmallError: "Some numerical value is too small".
        public static let numberTooSmall = Code(rawValue: 1620)
        /// 1630, NSValidationDateTooLateError: "Some date value is too late".
        public static let dateTooLate = Code(rawValue: 1630)
        /// 1640, NSValidationDateTooSoonError: "Some date value is too soon".
        public static let dateTooSoon = Code(rawValue: 1640)
        /// 1650, NSValidationInvalidDateError: "Some date value fails to match date pattern".
        public static let invalidDate = Code(rawValue: 1650)
        /// 1660, NSValidationStringTooLongError: "Some string value is too long".
        public static let stringTooLong = Code(rawValue: 1660)
        /// 1670, NSValidationStringTooShortError: "Some string value is too short".
        public static let stringTooShort = Code(rawValue: 1670)
        /// 1680, NSValidationStringPatternMatchingError: "Some string value fails to match some pattern".
        public static let stringPatternMatching = Code(rawValue: 1680)
        /// 1690, NSValidationInvalidURIError: "Some URI value cannot be represented as a string".
        public static let invalidURI = Code(rawValue: 1690)

        // MARK: Objects and contexts (132000 ... 133021)

        /// 132000, NSManagedObjectContextLockingError: "Can't acquire a lock in a managed object context".
        public static let managedObjectContextLocking = Code(rawValue: 132000)
        /// 132010, NSPersistentStoreCoordinatorLockingError: "Can't acquire a lock in a persistent
        /// store coordinator".
        public static let persistentStoreCoordinatorLocking = Code(rawValue: 132010)
        /// 133000, NSManagedObjectReferentialIntegrityError: "Attempt to fire a fault pointing to an
        /// object that does not exist (we can see the store, we can't see the object)".
        public static let referentialIntegrity = Code(rawValue: 133000)
        /// 133010, NSManagedObjectExternalRelationshipError: "An object being saved has a relationship
        /// containing an object from another store".
        public static let externalRelationship = Code(rawValue: 133010)
        /// 133020, NSManagedObjectMergeError: "Merge policy failed - unable to complete merging"; here,
        /// as in Core Data, what a save with ``MergePolicy/error`` fails with on a conflict.
        public static let merge = Code(rawValue: 133020)
        /// 133021, NSManagedObjectConstraintMergeError: "Merge policy failed - unable to complete
        /// merging due to multiple conflicting constraint violations".
        public static let constraintMerge = Code(rawValue: 133021)

        // MARK: Stores (134000 ... 134100)

        /// 134000, NSPersistentStoreInvalidTypeError: "Unknown persistent store type/format/version";
        /// here, a file that is no store of any type the package reads.
        public static let persistentStoreInvalidType = Code(rawValue: 134000)
        /// 134010, NSPersistentStoreTypeMismatchError: "Returned by persistent store coordinator if a
        /// store is accessed that does not match the specified type".
        public static let persistentStoreTypeMismatch = Code(rawValue: 134010)
        /// 134020, NSPersistentStoreIncompatibleSchemaError: "Store returned an error for save
        /// operation (database level errors ie missing table, no permissions)".
        public static let persistentStoreIncompatibleSchema = Code(rawValue: 134020)
        /// 134030, NSPersistentStoreSaveError: "Unclassified save error - something we depend on
        /// returned an error".
        public static let persistentStoreSave = Code(rawValue: 134030)
        /// 134040, NSPersistentStoreIncompleteSaveError: "One or more of the stores returned an error
        /// during save (stores/objects that failed will be in userInfo)".
        public static let persistentStoreIncompleteSave = Code(rawValue: 134040)
        /// 134050, NSPersistentStoreSaveConflictsError: "An unresolved merge conflict was encountered
        /// during a save. userInfo has NSPersistentStoreSaveConflictsErrorKey".
        public static let persistentStoreSaveConflicts = Code(rawValue: 134050)
        /// 134060, NSCoreDataError: "General Core Data error" (Apple's documentation: "a nonspecific
        /// Core Data error").
        public static let coreData = Code(rawValue: 134060)
        /// 134070, NSPersistentStoreOperationError: "The persistent store operation failed".
        public static let persistentStoreOperation = Code(rawValue: 134070)
        /// 134080, NSPersistentStoreOpenError: "An error occurred while attempting to open the
        /// persistent store".
        public static let persistentStoreOpen = Code(rawValue: 134080)
        /// 134081, which `CoreDataErrors.h` does not name: Core Data returns it, with
        /// `NSUnderlyingException = "Can't add the same store twice"`, when a coordinator is asked
        /// to add a store it already has (observed in Core Data's logs, e.g.
        /// github.com/dmytro-anokhin/url-image/issues/21).
        public static let persistentStoreAlreadyAdded = Code(rawValue: 134081)
        /// 134090, NSPersistentStoreTimeoutError: "Failed to connect to the persistent store within
        /// the specified timeout (see NSPersistentStoreTimeoutOption)".
        public static let persistentStoreTimeout = Code(rawValue: 134090)
        /// 134091, NSPersistentStoreUnsupportedRequestTypeError: "An NSPersistentStore subclass was
        /// passed an NSPersistentStoreRequest that it did not understand".
        public static let persistentStoreUnsupportedRequestType = Code(rawValue: 134091)
        /// 134100, NSPersistentStoreIncompatibleVersionHashError: "Entity version hashes
        /// incompatible with data model".
        public static let persistentStoreIncompatibleVersionHash = Code(rawValue: 134100)

        // MARK: Migration (134110 ... 134190, 134504 ... 134506)

        /// 134110, NSMigrationError: "General migration error".
        public static let migration = Code(rawValue: 134110)
        /// 134111, NSMigrationConstraintViolationError: "Migration failed due to a violated
        /// uniqueness constraint".
        public static let migrationConstraintViolation = Code(rawValue: 134111)
        /// 134120, NSMigrationCancelledError: "Migration failed due to manual cancellation".
        public static let migrationCancelled = Code(rawValue: 134120)
        /// 134130, NSMigrationMissingSourceModelError: "Migration failed due to missing source data
        /// model".
        public static let migrationMissingSourceModel = Code(rawValue: 134130)
        /// 134140, NSMigrationMissingMappingModelError: "Migration failed due to missing mapping model".
        public static let migrationMissingMappingModel = Code(rawValue: 134140)
        /// 134150, NSMigrationManagerSourceStoreError: "Migration failed due to a problem with the
        /// source data store".
        public static let migrationManagerSourceStore = Code(rawValue: 134150)
        /// 134160, NSMigrationManagerDestinationStoreError: "Migration failed due to a problem with
        /// the destination data store".
        public static let migrationManagerDestinationStore = Code(rawValue: 134160)
        /// 134170, NSEntityMigrationPolicyError: "Migration failed during processing of the entity
        /// migration policy".
        public static let entityMigrationPolicy = Code(rawValue: 134170)
        /// 134180, NSSQLiteError: "General SQLite error"; ``CoreDataError/sqliteCode`` keeps SQLite's
        /// own result code, as Apple keeps it under `NSSQLiteErrorDomain`.
        public static let sqlite = Code(rawValue: 134180)
        /// 134190, NSInferredMappingModelError: "Inferred mapping model creation error".
        public static let inferredMappingModel = Code(rawValue: 134190)
        /// 134200, NSExternalRecordImportError: "General error encountered while importing external
        /// records".
        public static let externalRecordImport = Code(rawValue: 134200)
        /// 134301, NSPersistentHistoryTokenExpiredError: "The history token passed to
        /// NSPersistentChangeRequest was invalid"; the SQLite and PostgreSQL stores throw it for
        /// history fetched after a token older than history a purge deleted.
        public static let persistentHistoryTokenExpired = Code(rawValue: 134301)
        /// 134504, NSManagedObjectModelReferenceNotFoundError: Core Data "isn't able to find or
        /// instantiate the referenced object model" (Apple's documentation).
        public static let managedObjectModelReferenceNotFound = Code(rawValue: 134504)
        /// 134505, NSStagedMigrationFrameworkVersionMismatchError: "a failed migration because the
        /// persistent store's metadata doesn't support staged lightweight migrations" (Apple's
        /// documentation).
        public static let stagedMigrationFrameworkVersionMismatch = Code(rawValue: 134505)
        /// 134506, NSStagedMigrationBackwardMigrationError: "a failed migration because of an attempt
        /// to migrate backward" (Apple's documentation).
        public static let stagedMigrationBackwardMigration = Code(rawValue: 134506)

        // MARK: Files (FoundationErrors.h, also NSCocoaErrorDomain)

        /// 256, NSFileReadUnknownError: "Read error (reason unknown)".
        public static let fileReadUnknown = Code(rawValue: 256)
        /// 259, NSFileReadCorruptFileError: "Read error (file corrupt, bad format, etc)"; here, a
        /// model file that is not one Core Data would load.
        public static let fileReadCorruptFile = Code(rawValue: 259)
        /// 260, NSFileReadNoSuchFileError: "Read error (no such file)".
        public static let fileReadNoSuchFile = Code(rawValue: 260)
        /// 512, NSFileWriteUnknownError: "Write error (reason unknown)".
        public static let fileWriteUnknown = Code(rawValue: 512)
        /// 516, NSFileWriteFileExistsError: a write failed because a file is already there.
        public static let fileWriteFileExists = Code(rawValue: 516)
    }
}
