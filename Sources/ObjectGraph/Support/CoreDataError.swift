import Foundation

/// An error from the Core Data stack, with Core Data's error code where Apple has one.
///
/// Apple reports these as NSError in NSCocoaErrorDomain; the codes are the same, so a message
/// such as "error 1570" means here what it means in Apple's documentation.
public struct CoreDataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Core Data's error codes (CoreDataErrors.h), with the raw values Apple uses.
    public enum Code: Int, Hashable, Sendable {
        /// 1550: generic validation failure.
        case validation = 1550
        /// 1551: a uniqueness constraint is violated.
        case constraintValidation = 1551
        /// 1560: several validation errors; see `detailedErrors`.
        case multipleValidation = 1560
        /// 1570: a non-optional property has no value.
        case missingMandatoryProperty = 1570
        /// 1580: a to-many relationship has too few objects.
        case relationshipLacksMinimumCount = 1580
        /// 1590: a to-many relationship has too many objects.
        case relationshipExceedsMaximumCount = 1590
        /// 1600: the Deny delete rule refused a deletion.
        case relationshipDeniedDelete = 1600
        /// 1610: a number is larger than the attribute's maximum.
        case numberTooLarge = 1610
        /// 1620: a number is smaller than the attribute's minimum.
        case numberTooSmall = 1620
        /// 1630: a date is later than the attribute's maximum.
        case dateTooLate = 1630
        /// 1640: a date is earlier than the attribute's minimum.
        case dateTooSoon = 1640
        /// 1660: a string is longer than the attribute's maximum length.
        case stringTooLong = 1660
        /// 1670: a string is shorter than the attribute's minimum length.
        case stringTooShort = 1670
        /// 1680: a string does not match the attribute's regular expression.
        case stringPatternMatching = 1680
        /// 133000: an object ID that names nothing in the stores.
        case referentialIntegrity = 133000
        /// 133020: optimistic locking found a conflict while saving.
        case mergeConflict = 133020
        /// 134000: the model is not valid.
        case invalidModel = 134000
        /// 134010: an entity, key or value the model does not allow.
        case invalidArgument = 134010
        /// 134020: the store refused an operation (an untranslatable predicate, say).
        case unsupportedOperation = 134020
        /// 134030: the store could not be saved.
        case persistentStoreSave = 134030
        /// 134060: the store could not be opened or is not a store.
        case persistentStoreOpen = 134060
        /// 134080: a store was added twice.
        case persistentStoreIncompatibleType = 134080
        /// 134100: the model does not match the one that created the store.
        case persistentStoreIncompatibleVersionHash = 134100
        /// 134110: migration failed.
        case migration = 134110
        /// 134111: a uniqueness constraint was violated while migrating.
        case migrationConstraintViolation = 134111
        /// 134120: the migration was cancelled (cancelMigrationWithError:).
        case migrationCancelled = 134120
        /// 134130: no model among the versions matches the store (Can't find model for source store).
        case migrationMissingSourceModel = 134130
        /// 134140: no mapping model was found, or could be inferred, to migrate the store.
        case migrationMissingMappingModel = 134140
        /// 134150: the source store of a migration could not be read.
        case migrationManagerSourceStore = 134150
        /// 134160: the destination store of a migration could not be written.
        case migrationManagerDestinationStore = 134160
        /// 134170: an entity migration policy failed.
        case entityMigrationPolicy = 134170
        /// 134180: SQLite reported an error (NSSQLiteError); ``CoreDataError/sqliteCode`` keeps
        /// SQLite's own result code, as Apple keeps it under `NSSQLiteErrorDomain`.
        case sqlite = 134180
        /// 134190: a mapping model could not be inferred (NSInferredMappingModelError).
        case inferredMappingModel = 134190
        /// 256: reading a file failed.
        case fileRead = 256
    }

    /// The error code.
    public let code: Code
    /// A message a person can act on.
    public let message: String
    /// The object the error is about, if any (NSValidationObjectErrorKey).
    public let objectURI: String?
    /// The property the error is about, if any (NSValidationKeyErrorKey).
    public let key: String?
    /// The errors a 1560 error gathers (NSDetailedErrorsKey).
    public let detailedErrors: [CoreDataError]
    /// SQLite's extended result code for a 134180 error (userInfo's `NSSQLiteErrorDomain`):
    /// 5 is SQLITE_BUSY, 13 SQLITE_FULL, 26 SQLITE_NOTADB.
    public let sqliteCode: Int32?

    /// Creates an error.
    public init(_ code: Code, _ message: String, objectURI: String? = nil, key: String? = nil,
                detailedErrors: [CoreDataError] = [], sqliteCode: Int32? = nil) {
        self.code = code
        self.message = message
        self.objectURI = objectURI
        self.key = key
        self.detailedErrors = detailedErrors
        self.sqliteCode = sqliteCode
    }

    public var description: String { "Core Data error \(code.rawValue): \(message)" }
}
