import Foundation

/// An object of an entity, kept by a context: NSManagedObject.
///
/// Read and write properties by key, or subclass and declare typed properties:
///
/// ```swift
/// final class Book: ManagedObject {
///     @Managed("title") var title: String?
/// }
/// ```
///
/// Setting a value checks it against the model: an unknown key or a value of the wrong type
/// throws ``CoreDataError`` with code `.invalidArgument` naming the entity and key.
open class ManagedObject: Hashable, KeyValueCoding, PredicateArgumentConvertible, CustomStringConvertible {
    // The stored properties are `final`, so reads are direct, not calls through the class's
    // table. Three keep `@exclusivity(unchecked)`, because each dynamic exclusivity check on
    // them costs more than 1% of a workload (Benchmarks/PROFILES.md, "exclusivity"):
    // `storage`, `isFault` and `managedObjectContext`. Safe because only the module mutates them,
    // by plain assignment or a subscript set (`storage[i] = v`), never passing them inout to
    // code that could reach the same object, so no two accesses overlap. The other fields
    // cost under 1% each and keep the check.

    /// The object's entity.
    public let entity: EntityDescription
    /// The object's identity; temporary until the first save.
    public internal(set) final var objectID: ManagedObjectID
    /// The context the object belongs to; nil once it has been forgotten or deleted and saved.
    @exclusivity(unchecked) public internal(set) final weak var managedObjectContext: ManagedObjectContext?

    /// Values by property index (``AttributeValue``): attributes in their type's case, a to-one
    /// as `.objectID` (or `.null`), a to-many as `.objectIDs`, `.null` while not loaded.
    @exclusivity(unchecked) final var storage: [AttributeValue]
    /// Whether each to-many has been loaded from the store.
    final var loadedToMany: Set<Int> = []
    /// The order of each ordered to-many, by property index (``ToManyOrder``).
    final var toManyOrders: [Int: ToManyOrder] = [:]
    /// Whether the object's attribute values have not been loaded yet.
    @exclusivity(unchecked) public internal(set) final var isFault: Bool
    /// The values at the last save or fetch, for rollback and change tracking (nil while
    /// unchanged, and for inserted objects, which have no saved values).
    final var committedStorage: [AttributeValue]?
    /// The row version (`Z_OPT`) the values were read at.
    final var version: Int64 = 0
    /// The context's change lists the object is in, one bit each (see ``ObjectList``): the
    /// membership test runs on every change, and a bit costs less than hashing.
    final var listMembership: UInt8 = 0

    /// Makes an object of an entity and, given a context, inserts it there
    /// (init(entity:insertInto:), NSManagedObject's designated initializer).
    ///
    /// With a nil context the object belongs to no context until ``ManagedObjectContext/insert(_:)``
    /// enters it; it reads its defaults but takes values only once inserted. Contexts make the
    /// objects they fetch with this initializer too, with no context. A subclass that overrides
    /// it writes `required init(entity:insertInto:)`, where Apple's subclasses write
    /// `override init`: Swift needs `required` on an initializer that a context calls on a class
    /// it knows only at run time, and Objective-C did not.
    public required init(entity: EntityDescription, insertInto context: ManagedObjectContext?) {
        self.entity = entity
        // A placeholder, replaced by the context that inserts or registers the object: a
        // temporary ID of no entity costs no reference counting.
        self.objectID = ManagedObjectID(temporaryFor: .empty, number: 0)
        // A fault's storage stays empty until its values are loaded (the row's array is
        // adopted as is); inserted objects get theirs from the context.
        self.storage = []
        self.isFault = true
        if let context { context.insert(self) }
    }

    // MARK: Identity

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// In a predicate, an object stands for its object ID.
    public var predicateConstant: ConstantValue { objectID.predicateConstant }

    /// `<Entity: URI>` and the values that are loaded.
    open var description: String {
        if isFault { return "<\(entity.name): \(objectID.uriString)> (fault)" }
        let values = entity.attributes.enumerated().map { i, a in "\(a.name) = \(Self.describe(storage[i].any))" }
        return "<\(entity.name): \(objectID.uriString)> { \(values.joined(separator: "; ")) }"
    }

    static func describe(_ value: Any?) -> String {
        guard let value = unwrapOptional(value) else { return "nil" }
        if let s = value as? String { return PredicatePrinter.quote(s) }
        if let c = try? ConstantValue(argument: value) { return PredicatePrinter.format(c) }
        return String(describing: value)
    }

    // MARK: Key-value coding

    /// The property index for a key, or an error naming the entity's keys.
    @inline(__always)
    func index(forKey key: String) throws -> Int {
        guard let i = entity.shared.index(ofProperty: key) else { throw unknownKey(key) }
        return i
    }

    private func unknownKey(_ key: String) -> CoreDataError {
        CoreDataError(
            exception: .undefinedKey,
            "The entity \(entity.name) has no property named \(key); its properties are \(entity.propertyNames.joined(separator: ", "))",
            objectURI: objectID.uriString, key: key)
    }

    /// The value of a property (valueForKey:): attributes as Swift values, a to-one as its
    /// object, a to-many as a `Set<ManagedObject>`, an ordered to-many as a `[ManagedObject]` in
    /// its order (Core Data's NSOrderedSet).
    ///
    /// Numbers and Booleans come as `NSNumber`s and an ordered to-many as an `NSOrderedSet`, as
    /// Apple's do. A key the entity lacks stops the program with NSUnknownKeyException's
    /// message, as Apple's raises; ``checkedValue(forKey:)`` throws it instead.
    public func value(forKey key: String) -> Any? {
        do { return Self.bridged(try checkedValue(forKey: key)) } catch { Self.raise(error) }
    }

    /// A value as Apple's key-value coding gives it: numbers and Booleans as `NSNumber`, so
    /// that `value(forKey: "pages") as? Int16` works for any integer attribute as on a Mac, and
    /// an ordered to-many as an `NSOrderedSet`. ``checkedValue(forKey:)`` and typed properties
    /// give Swift values, without the cost of making an `NSNumber`.
    static func bridged(_ value: Any?) -> Any? {
        switch value {
        case let int as Int: return NSNumber(value: int)
        case let double as Double: return NSNumber(value: double)
        case let bool as Bool: return NSNumber(value: bool)
        case let ordered as [ManagedObject]: return NSOrderedSet(array: ordered)
        default: return value
        }
    }

    /// The value at a dot-separated key path, across relationships (valueForKeyPath:); stops
    /// the program where Apple's raises, as ``value(forKey:)``.
    public func value(forKeyPath keyPath: String) -> Any? {
        do { return Self.bridged(try checkedValue(forKeyPath: keyPath)) } catch { Self.raise(error) }
    }

    /// Sets a property (setValue:forKey:); stops the program where ``checkedSetValue(_:forKey:)``
    /// throws: a key the entity lacks, a value of the wrong type, an object not in a context.
    public func setValue(_ value: Any?, forKey key: String) {
        do { try checkedSetValue(value, forKey: key) } catch { Self.raise(error) }
    }

    /// Ends the program with a Core Data error, where Apple's Objective-C raises an exception
    /// that Swift cannot catch. The `checked` methods throw the same error.
    static func raise(_ error: any Error) -> Never {
        fatalError("\(error)")
    }

    /// The value of a property, throwing ``CoreDataError`` (NSUnknownKeyException) for a key
    /// the entity lacks: the form of ``value(forKey:)`` for keys a program did not write itself.
    public func checkedValue(forKey key: String) throws -> Any? {
        let i = try index(forKey: key)
        // The common case first: an attribute of an object whose values are loaded is its
        // stored value, in a context or not, with no call into the context.
        if !isFault && i < entity.shared.attributeCount { return storage[i].any }
        guard let context = managedObjectContext else { return try detachedValue(at: i) }
        return try context.value(of: self, at: i)
    }

    /// The value at a dot-separated key path, across relationships, throwing where
    /// ``value(forKeyPath:)`` stops the program.
    public func checkedValue(forKeyPath keyPath: String) throws -> Any? {
        try KeyPathResolver.value(of: self, keyPath: keyPath)
    }

    /// Sets a property: an attribute to a value of its type (or nil), a to-one to an object of its
    /// destination entity, a to-many to a set of them (an ordered to-many to an array, whose
    /// order it keeps). Throws ``CoreDataError`` for a key the entity lacks, a value of the
    /// wrong type, or an object in no context.
    ///
    /// Inverses follow.
    public func checkedSetValue(_ value: Any?, forKey key: String) throws {
        let i = try index(forKey: key)
        guard let context = managedObjectContext else {
            throw CoreDataError(
                exception: .objectInaccessible,
                "Can't set \(key) on \(objectID.uriString): the object is not in a context (it was deleted or its context was reset)",
                objectURI: objectID.uriString, key: key)
        }
        try context.setValue(value, of: self, at: i)
    }

    private func detachedValue(at i: Int) throws -> Any? {
        guard i < entity.attributes.count else {
            throw CoreDataError(
                exception: .objectInaccessible,
                "Can't follow \(entity.propertyNames[i]) of \(objectID.uriString): the object is not in a context",
                objectURI: objectID.uriString, key: entity.propertyNames[i])
        }
        // A fault's values were never loaded: nil here would be a wrong answer, not a value
        // (Core Data raises "could not fulfill a fault" in this case).
        guard !isFault else {
            throw CoreDataError(
                exception: .objectInaccessible,
                "Can't read \(entity.propertyNames[i]) of \(objectID.uriString): the object is a fault whose context is gone (released or reset), so its values cannot be loaded; keep the context alive, or fetch the object again in a live context",
                objectURI: objectID.uriString, key: entity.propertyNames[i])
        }
        return i < storage.count ? storage[i].any : nil
    }

    // MARK: Lifecycle and validation hooks
    //
    // Declared here because Swift lets a subclass override only what the class body declares;
    // when the context calls each, and the default implementations, are in
    // ManagedObject+Lifecycle.swift and <doc:ObjectLifecycle>. Overrides call `super` first.

    /// Called once in the object's lifetime, when it is inserted into a context (awakeFromInsert).
    ///
    /// Not again when an undone insert is redone: Apple's page says so in its Special
    /// Considerations ("awakeFromInsert() is not invoked a second time"), so a redone object
    /// keeps the values it had, and a creation stamp set here is not stamped twice.
    open func awakeFromInsert() {}
    /// Called when a fault is fulfilled from its store, not for objects already loaded; changes made here don't dirty
    /// the object (awakeFromFetch).
    open func awakeFromFetch() {}
    /// Called before a save writes the object (inserted, updated or deleted), again while it keeps changing, up to
    /// ``ManagedObjectContext/willSaveAttemptLimit`` times (willSave).
    open func willSave() {}
    /// Called after a save wrote the object to its parent store (didSave).
    open func didSave() {}
    /// Called by `delete(_:)` before the delete rules change the object's relationships (prepareForDeletion).
    open func prepareForDeletion() {}
    /// Called before the object becomes a fault, while its values can still be read (willTurnIntoFault).
    open func willTurnIntoFault() {}
    /// Called after the object became a fault: clear caches of its values here (didTurnIntoFault).
    open func didTurnIntoFault() {}
    /// Whether a new object may be saved: by default, each property through ``validateValue(_:forKey:)``
    /// (validateForInsert).
    open func validateForInsert() throws { try validateProperties() }
    /// Whether a changed object may be saved: by default, each property through ``validateValue(_:forKey:)``
    /// (validateForUpdate).
    open func validateForUpdate() throws { try validateProperties() }
    /// Whether the object may be deleted: by default, no Deny relationship may still hold objects, error 1600
    /// (validateForDelete).
    open func validateForDelete() throws { try validateDeleteRules() }
    /// Coerces a value to a property's type and checks it against the model; override it to validate one key, Core
    /// Data's `validate<Key>:error:` (validateValue:forKey:error:).
    open func validateValue(_ value: inout Any?, forKey key: String) throws {
        try validateModelValue(&value, forKey: key)
    }

    /// Whether ``validateForInsert()`` and ``validateForUpdate()`` ask ``validateValue(_:forKey:)``
    /// of each property of this class's objects; when false they check the model's rules
    /// (mandatory, bounds, patterns, count ranges) in place, with the same errors, without a call
    /// and an `Any` per property.
    ///
    /// Swift cannot ask a class whether it overrides a method (Objective-C's
    /// `respondsToSelector:`, which Core Data uses to find `validate<Key>:error:`), so a class
    /// says so: true for every subclass unless it declares otherwise, which is always correct. A
    /// class that does not override `validateValue(_:forKey:)` may answer false for itself and
    /// true for its subclasses, which might:
    ///
    /// ```swift
    /// class Book: ManagedObject {
    ///     override class var validatesEachKey: Bool { self != Book.self }
    /// }
    /// ```
    ///
    /// (`{ false }` in a `final` class). Overriding `validateForInsert()` or `validateForUpdate()`
    /// does not need it: they are still called, once per object.
    open class var validatesEachKey: Bool { self != ManagedObject.self }
}
