import Foundation

/// A Core Data error as Apple's code sees it: `error as NSError` gives NSCocoaErrorDomain,
/// Core Data's code and the user-info keys Apple's errors carry, so that
/// `catch let error where (error as NSError).code == 133020` works on Linux as on a Mac.
/// Apple's own spelling, `catch let error as NSError where error.code == 133020`, compiles on
/// Linux but does not catch a `CoreDataError`: there a cast pattern (`as`, `as?`) does not
/// bridge a Swift error to `NSError`; only the coercion `error as NSError` does.
extension CoreDataError: CustomNSError, LocalizedError {
    /// NSCocoaErrorDomain, Core Data's errors' domain.
    public static var errorDomain: String { NSCocoaErrorDomain }

    /// Core Data's code; 134060 (NSCoreDataError) for what Apple raises as an exception, which
    /// has no code of its own (its name is under `NSExceptionName` in ``errorUserInfo``).
    public var errorCode: Int { code?.rawValue ?? Code.coreData.rawValue }

    /// The message, and the object, key, detailed errors and conflicts under Apple's keys
    /// (NSValidationErrorObject holds the object's URI here, not the object).
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let objectURI { info["NSValidationErrorObject"] = objectURI }
        if let key { info["NSValidationErrorKey"] = key }
        if !detailedErrors.isEmpty { info["NSDetailedErrors"] = detailedErrors.map { $0 as NSError } }
        if let exceptionName { info["NSExceptionName"] = exceptionName.rawValue }
        if let sqliteCode { info["NSSQLiteErrorDomain"] = Int(sqliteCode) }
        if !conflictList.isEmpty { info[Self.conflictListKey] = conflictList }
        return info
    }

    /// The message (`localizedDescription`).
    public var errorDescription: String? { message }
}
