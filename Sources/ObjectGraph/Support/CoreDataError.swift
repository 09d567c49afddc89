import Foundation

/// A failure of the Core Data stack: an error with Core Data's code, or what Core Data raises as
/// an exception.
///
/// Apple's Core Data reports a failure in one of two ways. Most are an `NSError` in
/// `NSCocoaErrorDomain` whose code is one of `CoreDataErrors.h` (or `FoundationErrors.h` for a
/// file); the raw values here are Apple's, so "error 134080" means what Apple's documentation
/// says it means. The rest, mistakes in how an API is called (an entity name the model lacks, a
/// key that is not a property, a fetch the SQLite store cannot translate), Core Data raises as an
/// Objective-C exception, which has a name and no code and which Swift cannot catch. Here both
/// are thrown as a `CoreDataError`; ``kind`` says which, and an exception never borrows the code
/// of an error that means something else.
public struct CoreDataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// How Core Data reports the failure: an error with a code, or an exception with a name.
    public enum Kind: Hashable, Sendable, CustomStringConvertible {
        /// Core Data returns an `NSError` in `NSCocoaErrorDomain` with this code.
        case error(Code)
        /// Core Data raises this Objective-C exception; it has no error code.
        case exception(ExceptionName)

        /// `error 134080` or `exception NSInvalidArgumentException`, as the error's description
        /// starts.
        public var description: String {
            switch self {
            case .error(let code): "error \(code.rawValue)"
            case .exception(let name): "exception \(name.rawValue)"
            }
        }
    }

    /// An error with a code, or an exception with a name.
    public let kind: Kind
    /// A message a person can act on.
    public let message: String
    /// The object the error is about, if any (NSValidationObjectErrorKey).
    public let objectURI: String?
    /// The property the error is about, if any (NSValidationKeyErrorKey).
    public let key: String?
    /// The errors a 1560 error gathers, or that a migration error wraps (NSDetailedErrorsKey).
    public let detailedErrors: [CoreDataError]
    /// SQLite's extended result code for a 134180 error (userInfo's `NSSQLiteErrorDomain`):
    /// 5 is SQLITE_BUSY, 13 SQLITE_FULL, 26 SQLITE_NOTADB.
    public let sqliteCode: Int32?
    /// The conflicts of a 133020 or 133021 error (see ``conflictList``).
    var conflicts = ConflictList()

    /// Core Data's error code; nil when Core Data raises an exception instead (see ``exceptionName``).
    ///
    /// Stored, not computed from ``kind``: `catch let error as CoreDataError where error.code ==
    /// .merge` with a computed `code` crashed Swift 6.3.1's optimizer (CopyPropagation) in
    /// release builds.
    public let code: Code?

    /// The exception Core Data raises for this failure; nil when it returns an error with a ``code``.
    public let exceptionName: ExceptionName?

    /// Creates an error with Core Data's code.
    public init(
        _ code: Code, _ message: String, objectURI: String? = nil, key: String? = nil,
        detailedErrors: [CoreDataError] = [], sqliteCode: Int32? = nil
    ) {
        self.init(
            .error(code), message, objectURI: objectURI, key: key, detailedErrors: detailedErrors,
            sqliteCode: sqliteCode)
    }

    /// Creates the error for a failure Core Data raises as the exception `name`.
    public init(exception name: ExceptionName, _ message: String, objectURI: String? = nil, key: String? = nil) {
        self.init(.exception(name), message, objectURI: objectURI, key: key)
    }

    /// Creates an error of either kind; use it to pass on another error's kind with a new message.
    public init(
        _ kind: Kind, _ message: String, objectURI: String? = nil, key: String? = nil,
        detailedErrors: [CoreDataError] = [], sqliteCode: Int32? = nil
    ) {
        self.kind = kind
        switch kind {
        case .error(let code): (self.code, self.exceptionName) = (code, nil)
        case .exception(let name): (self.code, self.exceptionName) = (nil, name)
        }
        self.message = message
        self.objectURI = objectURI
        self.key = key
        self.detailedErrors = detailedErrors
        self.sqliteCode = sqliteCode
    }

    /// `Core Data error 134080: message`, or `Core Data exception NSInvalidArgumentException: message`.
    public var description: String { "Core Data \(kind): \(message)" }
}
