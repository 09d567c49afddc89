import ObjectGraph

// Core Data's error codes under Apple's names (CoreDataErrors.h, FoundationErrors.h), for
// `(error as NSError).code == NSManagedObjectMergeError`: a CoreDataError bridges to an NSError
// in NSCocoaErrorDomain with the same code. (`catch let error as NSError where …` does not
// catch on Linux, where a cast does not bridge.)

/// 256, as `NSError.code` in NSCocoaErrorDomain.
public let NSFileReadUnknownError: Int = 256
/// 259, as `NSError.code` in NSCocoaErrorDomain.
public let NSFileReadCorruptFileError: Int = 259
/// 260, as `NSError.code` in NSCocoaErrorDomain.
public let NSFileReadNoSuchFileError: Int = 260
/// 512, as `NSError.code` in NSCocoaErrorDomain.
public let NSFileWriteUnknownError: Int = 512
/// 516, as `NSError.code` in NSCocoaErrorDomain.
public let NSFileWriteFileExistsError: Int = 516
/// 1550, as `NSError.code` in NSCocoaErrorDomain.
public let NSManagedObjectValidationError: Int = 1550
/// 1551, as `NSError.code` in NSCocoaErrorDomain.
public let NSManagedObjectConstraintValidationError: Int = 1551
/// 1560, as `NSError.code` in NSCocoaErrorDomain.
public let NSValidationMultipleErrorsError: Int = 1560
/// 1570, as `NSError.code` in NSCocoaErrorDomain.
public let NSValidationMissingMandatoryPropertyError: Int = 1570
/// 1580, as `NSError.code` in NSCocoaErrorDomain.
public let NSValidationRelationshipLacksMinimumCountError: Int = 1580
/// 1590, as `NSError.code` in NSCocoaErrorDomain.
public let NSValidationRelationshipExceedsMaximumCountError: Int = 1590
/// 1600, as `NSError.code` in NSCocoaErrorDomain.
public let NSValidationRelationshipDeniedDeleteError: Int = 1600
/// 1610, as `NSError.code` in NSCocoaErrorDomain.
public let NSValidationNumberTooLargeError: Int = 1610
/// 1620, as `NSError.code` in NSCocoaErrorDomain.
public let NSValidationNumberTooSmallError: Int = 1620
/// 1630, as `NSError.code` in NSCocoaErrorDomain.
public let NSValidationDateTooLateError: Int = 1630
/// 1640, as `NSError.code` in NSCocoaErrorDomain.
public let NSValidationDateTooSoonError: Int = 1640
/// 1650, as `NSError.code` in NSCocoaErrorDomain.
public let NSValidationInvalidDateError: Int = 1650
/// 1660, as `NSError.code` in NSCocoaErrorDomain.
public let NSValidationStringTooLongError: Int = 1660
/// 1670, as `NSError.code` in NSCocoaErrorDomain.
public let NSValidationStringTooShortError: Int = 1670
/// 1680, as `NSError.code` in NSCocoaErrorDomain.
public let NSValidationStringPatternMatchingError: Int = 1680
/// 1690, as `NSError.code` in NSCocoaErrorDomain.
public let NSValidationInvalidURIError: Int = 1690
/// 132000, as `NSError.code` in NSCocoaErrorDomain.
public let NSManagedObjectContextLockingError: Int = 132000
/// 132010, as `NSError.code` in NSCocoaErrorDomain.
public let NSPersistentStoreCoordinatorLockingError: Int = 132010
/// 133000, as `NSError.code` in NSCocoaErrorDomain.
public let NSManagedObjectReferentialIntegrityError: Int = 133000
/// 133010, as `NSError.code` in NSCocoaErrorDomain.
public let NSManagedObjectExternalRelationshipError: Int = 133010
/// 133020, as `NSError.code` in NSCocoaErrorDomain.
public let NSManagedObjectMergeError: Int = 133020
/// 133021, as `NSError.code` in NSCocoaErrorDomain.
public let NSManagedObjectConstraintMergeError: Int = 133021
/// 134000, as `NSError.code` in NSCocoaErrorDomain.
public let NSPersistentStoreInvalidTypeError: Int = 134000
/// 134010, as `NSError.code` in NSCocoaErrorDomain.
public let NSPersistentStoreTypeMismatchError: Int = 134010
/// 134020, as `NSError.code` in NSCocoaErrorDomain.
public let NSPersistentStoreIncompatibleSchemaError: Int = 134020
/// 134030, as `NSError.code` in NSCocoaErrorDomain.
public let NSPersistentStoreSaveError: Int = 134030
/// 134040, as `NSError.code` in NSCocoaErrorDomain.
public let NSPersistentStoreIncompleteSaveError: Int = 134040
/// 134050, as `NSError.code` in NSCocoaErrorDomain.
public let NSPersistentStoreSaveConflictsError: Int = 134050
/// 134060, as `NSError.code` in NSCocoaErrorDomain.
public let NSCoreDataError: Int = 134060
/// 134070, as `NSError.code` in NSCocoaErrorDomain.
public let NSPersistentStoreOperationError: Int = 134070
/// 134080, as `NSError.code` in NSCocoaErrorDomain.
public let NSPersistentStoreOpenError: Int = 134080
/// 134090, as `NSError.code` in NSCocoaErrorDomain.
public let NSPersistentStoreTimeoutError: Int = 134090
/// 134091, as `NSError.code` in NSCocoaErrorDomain.
public let NSPersistentStoreUnsupportedRequestTypeError: Int = 134091
/// 134100, as `NSError.code` in NSCocoaErrorDomain.
public let NSPersistentStoreIncompatibleVersionHashError: Int = 134100
/// 134110, as `NSError.code` in NSCocoaErrorDomain.
public let NSMigrationError: Int = 134110
/// 134111, as `NSError.code` in NSCocoaErrorDomain.
public let NSMigrationConstraintViolationError: Int = 134111
/// 134120, as `NSError.code` in NSCocoaErrorDomain.
public let NSMigrationCancelledError: Int = 134120
/// 134130, as `NSError.code` in NSCocoaErrorDomain.
public let NSMigrationMissingSourceModelError: Int = 134130
/// 134140, as `NSError.code` in NSCocoaErrorDomain.
public let NSMigrationMissingMappingModelError: Int = 134140
/// 134150, as `NSError.code` in NSCocoaErrorDomain.
public let NSMigrationManagerSourceStoreError: Int = 134150
/// 134160, as `NSError.code` in NSCocoaErrorDomain.
public let NSMigrationManagerDestinationStoreError: Int = 134160
/// 134170, as `NSError.code` in NSCocoaErrorDomain.
public let NSEntityMigrationPolicyError: Int = 134170
/// 134180, as `NSError.code` in NSCocoaErrorDomain.
public let NSSQLiteError: Int = 134180
/// 134190, as `NSError.code` in NSCocoaErrorDomain.
public let NSInferredMappingModelError: Int = 134190
/// 134200, as `NSError.code` in NSCocoaErrorDomain.
public let NSExternalRecordImportError: Int = 134200
/// 134301, as `NSError.code` in NSCocoaErrorDomain.
public let NSPersistentHistoryTokenExpiredError: Int = 134301
/// 134504, as `NSError.code` in NSCocoaErrorDomain.
public let NSManagedObjectModelReferenceNotFoundError: Int = 134504
/// 134505, as `NSError.code` in NSCocoaErrorDomain.
public let NSStagedMigrationFrameworkVersionMismatchError: Int = 134505
/// 134506, as `NSError.code` in NSCocoaErrorDomain.
public let NSStagedMigrationBackwardMigrationError: Int = 134506

/// The key of the objects a validation error is about (NSValidationObjectErrorKey).
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
/// The key of the property a validation error is about (NSValidationKeyErrorKey).
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
/// The key of the errors a multiple-errors error gathers (NSDetailedErrorsKey).
public let NSDetailedErrorsKey = "NSDetailedErrors"
/// The key of a SQLite error's result code (NSSQLiteErrorDomain).
public let NSSQLiteErrorDomain = "NSSQLiteErrorDomain"
/// The key of a 133020 or 133021 error's conflicts, `NSMergeConflict`s or `NSConstraintConflict`s
/// (NSPersistentStoreSaveConflictsErrorKey).
public let NSPersistentStoreSaveConflictsErrorKey = CoreDataError.conflictListKey
