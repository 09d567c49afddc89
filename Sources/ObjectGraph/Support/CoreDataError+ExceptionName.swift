extension CoreDataError {
    /// The name of an Objective-C exception Core Data raises (Foundation's `NSExceptionName`), for
    /// a failure that Core Data reports without an error code.
    ///
    /// Apple raises these for mistakes in how an API is called; Swift cannot catch them, and the
    /// program stops. Here the same failures are thrown as a ``CoreDataError`` whose
    /// ``CoreDataError/kind`` is `.exception(name)`, with a message that starts as Apple's reason
    /// does where the package knows it. A struct of constants, so new names never break a `switch`.
    public struct ExceptionName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The exception's name, as `NSException.name` holds it: `NSInvalidArgumentException`.
        public let rawValue: String

        /// The exception with this name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The name, such as `NSInvalidArgumentException`.
        public var description: String { rawValue }

        /// NSInvalidArgumentException: raised "when you pass an invalid argument to a method"
        /// (Apple's documentation). Core Data raises it for a value of the wrong type
        /// ("Unacceptable type of value for attribute"), a relationship between objects in
        /// different contexts, and every fetch its SQLite store cannot translate ("keypath … not
        /// found in entity …", "unimplemented SQL generation for predicate").
        public static let invalidArgument = ExceptionName(rawValue: "NSInvalidArgumentException")
        /// NSInternalInconsistencyException: raised "when an internal assertion fails and implies an
        /// unexpected condition within the called code" (Apple's documentation). Core Data raises it
        /// for an entity name the model does not have ("+entityForName: could not locate an entity
        /// named …", "NSFetchRequest could not locate an NSEntityDescription for entity name …") and
        /// for a save or fetch through a coordinator that has no store ("This
        /// NSPersistentStoreCoordinator has no persistent stores").
        public static let internalInconsistency = ExceptionName(rawValue: "NSInternalInconsistencyException")
        /// NSObjectInaccessibleException: Core Data raises it for an object it cannot reach, such as
        /// a fault it cannot fulfill ("CoreData could not fulfill a fault for …").
        public static let objectInaccessible = ExceptionName(rawValue: "NSObjectInaccessibleException")
        /// NSUnknownKeyException (Swift's `NSExceptionName.undefinedKeyException`): raised "when a
        /// key value coding operation fails" (Apple's documentation), as `value(forKey:)` and
        /// `setValue(_:forKey:)` do for a key that is not a property of the entity.
        public static let undefinedKey = ExceptionName(rawValue: "NSUnknownKeyException")
    }
}
