extension CoreDataError.Code {
    /// Apple's constant for this code, such as `NSPersistentStoreOpenError`; nil for a number
    /// Apple's headers do not name (134081, or one the package does not know).
    public var appleName: String? { Self.appleNames[rawValue] }

    /// Every code the package names, in numeric order.
    public static let allKnown: [CoreDataError.Code] = [
        .fileReadUnknown, .fileReadCorruptFile, .fileReadNoSuchFile, .fileWriteUnknown, .fileWriteFileExists,
        .validation, .constraintValidation, .multipleErrors, .missingMandatoryProperty,
        .relationshipLacksMinimumCount, .relationshipExceedsMaximumCount, .relationshipDeniedDelete,
        .numberTooLarge, .numberTooSmall, .dateTooLate, .dateTooSoon, .invalidDate,
        .stringTooLong, .stringTooShort, .stringPatternMatching, .invalidURI,
        .managedObjectContextLocking, .persistentStoreCoordinatorLocking,
        .referentialIntegrity, .externalRelationship, .merge, .constraintMerge,
        .persistentStoreInvalidType, .persistentStoreTypeMismatch, .persistentStoreIncompatibleSchema,
        .persistentStoreSave, .persistentStoreIncompleteSave, .persistentStoreSaveConflicts, .coreData,
        .persistentStoreOperation, .persistentStoreOpen, .persistentStoreAlreadyAdded, .persistentStoreTimeout,
        .persistentStoreUnsupportedRequestType, .persistentStoreIncompatibleVersionHash,
        .migration, .migrationConstraintViolation, .migrationCancelled, .migrationMissingSourceModel,
        .migrationMissingMappingModel, .migrationManagerSourceStore, .migrationManagerDestinationStore,
        .entityMigrationPolicy, .sqlite, .inferredMappingModel, .externalRecordImport,
        .persistentHistoryTokenExpired, .managedObjectModelReferenceNotFound,
        .stagedMigrationFrameworkVersionMismatch, .stagedMigrationBackwardMigration,
    ]

    // The names as CoreDataErrors.h and FoundationErrors.h declare them.
    private static let appleNames: [Int: String] = [
        256: "NSFileReadUnknownError", 259: "NSFileReadCorruptFileError", 260: "NSFileReadNoSuchFileError",
        512: "NSFileWriteUnknownError", 516: "NSFileWriteFileExistsError",
        1550: "NSManagedObjectValidationError", 1551: "NSManagedObjectConstraintValidationError",
        1560: "NSValidationMultipleErrorsError", 1570: "NSValidationMissingMandatoryPropertyError",
        1580: "NSValidationRelationshipLacksMinimumCountError",
        1590: "NSValidationRelationshipExceedsMaximumCountError",
        1600: "NSValidationRelationshipDeniedDeleteError", 1610: "NSValidationNumberTooLargeError",
        1620: "NSValidationNumberTooSmallError", 1630: "NSValidationDateTooLateError",
        1640: "NSValidationDateTooSoonError", 1650: "NSValidationInvalidDateError",
        1660: "NSValidationStringTooLongError", 1670: "NSValidationStringTooShortError",
        1680: "NSValidationStringPatternMatchingError", 1690: "NSValidationInvalidURIError",
        132000: "NSManagedObjectContextLockingError", 132010: "NSPersistentStoreCoordinatorLockingError",
        133000: "NSManagedObjectReferentialIntegrityError", 133010: "NSManagedObjectExternalRelationshipError",
        133020: "NSManagedObjectMergeError", 133021: "NSManagedObjectConstraintMergeError",
        134000: "NSPersistentStoreInvalidTypeError", 134010: "NSPersistentStoreTypeMismatchError",
        134020: "NSPersistentStoreIncompatibleSchemaError", 134030: "NSPersistentStoreSaveError",
        134040: "NSPersistentStoreIncompleteSaveError", 134050: "NSPersistentStoreSaveConflictsError",
        134060: "NSCoreDataError", 134070: "NSPersistentStoreOperationError", 134080: "NSPersistentStoreOpenError",
        134090: "NSPersistentStoreTimeoutError", 134091: "NSPersistentStoreUnsupportedRequestTypeError",
        134100: "NSPersistentStoreIncompatibleVersionHashError",
        134110: "NSMigrationError", 134111: "NSMigrationConstraintViolationError", 134120: "NSMigrationCancelledError",
        134130: "NSMigrationMissingSourceModelError", 134140: "NSMigrationMissingMappingModelError",
        134150: "NSMigrationManagerSourceStoreError", 134160: "NSMigrationManagerDestinationStoreError",
        134170: "NSEntityMigrationPolicyError", 134180: "NSSQLiteError", 134190: "NSInferredMappingModelError",
        134200: "NSExternalRecordImportError", 134301: "NSPersistentHistoryTokenExpiredError",
        134504: "NSManagedObjectModelReferenceNotFoundError", 134505: "NSStagedMigrationFrameworkVersionMismatchError",
        134506: "NSStagedMigrationBackwardMigrationError",
    ]
}

// The names the package used before the codes took Apple's names. Where only the name changed,
// the old one still compiles, with a warning; where the old constant meant something else than
// Apple's code of the same number, it no longer compiles and says what to use.
extension CoreDataError.Code {
    /// The old name of ``multipleErrors`` (1560).
    @available(*, deprecated, renamed: "multipleErrors")
    public static var multipleValidation: CoreDataError.Code { .multipleErrors }
    /// The old name of ``merge`` (133020).
    @available(*, deprecated, renamed: "merge")
    public static var mergeConflict: CoreDataError.Code { .merge }
    /// The old name of ``fileReadUnknown`` (256).
    @available(*, deprecated, renamed: "fileReadUnknown")
    public static var fileRead: CoreDataError.Code { .fileReadUnknown }
    /// No longer a code: 134000 is NSPersistentStoreInvalidTypeError.
    @available(
        *, unavailable,
        message:
            "134000 is NSPersistentStoreInvalidTypeError (.persistentStoreInvalidType); an invalid model is the exception NSInvalidArgumentException (error.exceptionName == .invalidArgument), or 259 (.fileReadCorruptFile) for a model file"
    )
    public static var invalidModel: CoreDataError.Code { .persistentStoreInvalidType }
    /// No longer a code: 134010 is NSPersistentStoreTypeMismatchError.
    @available(
        *, unavailable,
        message:
            "134010 is NSPersistentStoreTypeMismatchError (.persistentStoreTypeMismatch); a wrong entity, key or value is an exception: match error.exceptionName"
    )
    public static var invalidArgument: CoreDataError.Code { .persistentStoreTypeMismatch }
    /// No longer a code: 134020 is NSPersistentStoreIncompatibleSchemaError.
    @available(
        *, unavailable,
        message:
            "134020 is NSPersistentStoreIncompatibleSchemaError (.persistentStoreIncompatibleSchema); a fetch the SQLite store cannot translate is the exception NSInvalidArgumentException (error.exceptionName == .invalidArgument)"
    )
    public static var unsupportedOperation: CoreDataError.Code { .persistentStoreIncompatibleSchema }
    /// No longer a code: 134080 is NSPersistentStoreOpenError.
    @available(
        *, unavailable,
        message:
            "134080 is NSPersistentStoreOpenError (.persistentStoreOpen); a store added twice is 134081, .persistentStoreAlreadyAdded"
    )
    public static var persistentStoreIncompatibleType: CoreDataError.Code { .persistentStoreAlreadyAdded }
}
