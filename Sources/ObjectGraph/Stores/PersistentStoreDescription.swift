import Foundation

/// How a store is added, as typed properties: NSPersistentStoreDescription.
///
/// ```swift
/// let description = PersistentStoreDescription(url: URL(fileURLWithPath: "Books.sqlite"))
/// description.timeout = 30
/// description.setValue("NORMAL", forPragmaNamed: "synchronous")
/// try coordinator.addPersistentStore(with: description)
/// ```
///
/// A class, as Apple's is: a description taken from a container's
/// ``PersistentContainer/persistentStoreDescriptions`` and changed is changed there too. Adding
/// a store copies its description, so a change made afterwards does not reach the store.
///
/// The description is the source of truth for a store's options: every store reads them from
/// it, in one place. The `[String: Any]` dictionary of
/// ``PersistentStoreCoordinator/addPersistentStore(type:at:options:)`` is a view of it, parsed
/// once into a description (``init(type:url:options:)``): keys it does not know are kept in
/// ``options`` and passed on, and a known key with a value of the wrong type is an error
/// naming the key. Automatic migration and mapping-model inference are on by default, as
/// Apple's are.
public final class PersistentStoreDescription {
    /// The store's kind (NSSQLiteStoreType by default, as Apple's).
    public var type: StoreType
    /// Where the store's file is (nil for an in-memory store).
    public var url: URL?
    /// Open the store only to read it (NSReadOnlyPersistentStoreOption): saving to a SQLite
    /// store opened so fails with 134030, and it leaves no file beside it.
    public var isReadOnly = false
    /// How many seconds a save (and opening the store) waits for another connection or process
    /// to release the file (NSPersistentStoreTimeoutOption; SQLite's busy timeout); 0 fails at
    /// once. A PostgreSQL store waits this long for a free connection of its pool, then fails
    /// with 134090. Default ``StoreOption/defaultTimeout``.
    public var timeout: TimeInterval = StoreOption.defaultTimeout
    /// The SQLite pragmas the store's connection runs when it opens (NSSQLitePragmasOption), by
    /// name; set them with ``checkedSetValue(_:forPragmaNamed:)``. SQLite stores only.
    public private(set) var sqlitePragmas: [String: String] = [:]
    /// How many connections a PostgreSQL store keeps open at most (``StoreOption/connectionPoolSize``;
    /// default 2): contexts beyond that many saving or fetching at once wait for one.
    /// PostgreSQL stores only.
    public var connectionPoolSize = 2
    /// Migrate a store made by another version when it is added
    /// (NSMigratePersistentStoresAutomaticallyOption; default true).
    public var shouldMigrateStoreAutomatically = true
    /// Infer a mapping model when none matches (NSInferMappingModelAutomaticallyOption;
    /// default true).
    public var shouldInferMappingModelAutomatically = true
    /// Add the store on a background queue (default false): honoured by
    /// ``PersistentStoreCoordinator/addPersistentStore(with:completionHandler:)``; a container
    /// adds its stores on the calling thread, since ``PersistentContainer/loadPersistentStores()``
    /// returns them.
    public var shouldAddStoreAsynchronously = false
    /// Record every save in the store's persistent history (NSPersistentHistoryTrackingKey);
    /// SQLite stores only, see <doc:PersistentHistory>.
    public var isPersistentHistoryTrackingEnabled = false
    /// A fixed UUID for a new store (``StoreOption/storeUUID``), so output that shows object
    /// URIs is the same on every run; an existing store keeps its own.
    public var storeUUID: String?
    /// The versions automatic migration searches (``StoreOption/versionedModel``), for a
    /// coordinator made with a plain model.
    public var versionedModel: VersionedModel?
    /// Told about the progress of a migration while the store loads
    /// (``StoreOption/migrationProgressHandler``).
    public var migrationProgressHandler: MigrationProgressHandler?
    /// A migration's source store keeps the version hashes an earlier ObjectGraph wrote
    /// instead of rewriting its metadata (``StoreOption/keepsLegacyVersionHashes``).
    var keepsLegacyVersionHashes = false
    /// The options no typed property holds, passed on to the store as they came.
    private var otherOptions: [String: Any] = [:]

    /// A description of a store at a URL, with Apple's defaults.
    public init(type: StoreType = .sqlite, url: URL?) {
        self.type = type
        self.url = url
    }

    /// A description of a store at a URL, with an options dictionary parsed into its
    /// properties (see ``checkedSetOption(_:forKey:)``); migration and inference stay on unless the
    /// dictionary turns them off.
    ///
    /// - Throws: ``CoreDataError`` (NSInvalidArgumentException) naming the key whose value has
    ///   the wrong type, or the pragma that is not allowed.
    public convenience init(type: StoreType = .sqlite, url: URL?, options: [String: Any]) throws {
        self.init(type: type, url: url)
        for (key, value) in options { try checkedSetOption(value, forKey: key) }
    }

    /// A description with the same settings that changes on its own (NSCopying's copy()).
    public func copy() -> Any { copied() }

    /// A description with the same settings that changes on its own.
    func copied() -> PersistentStoreDescription {
        let copy = PersistentStoreDescription(type: type, url: url)
        copy.isReadOnly = isReadOnly
        copy.timeout = timeout
        copy.sqlitePragmas = sqlitePragmas
        copy.connectionPoolSize = connectionPoolSize
        copy.shouldMigrateStoreAutomatically = shouldMigrateStoreAutomatically
        copy.shouldInferMappingModelAutomatically = shouldInferMappingModelAutomatically
        copy.shouldAddStoreAsynchronously = shouldAddStoreAsynchronously
        copy.isPersistentHistoryTrackingEnabled = isPersistentHistoryTrackingEnabled
        copy.storeUUID = storeUUID
        copy.versionedModel = versionedModel
        copy.migrationProgressHandler = migrationProgressHandler
        copy.keepsLegacyVersionHashes = keepsLegacyVersionHashes
        copy.otherOptions = otherOptions
        return copy
    }

    /// The description an options dictionary of `addPersistentStore(type:at:options:)` means:
    /// there, as for Apple's coordinator, an absent migration key means no migration.
    static func parsing(type: StoreType, url: URL?, options: [String: Any]) throws -> PersistentStoreDescription {
        let description = PersistentStoreDescription(type: type, url: url)
        description.shouldMigrateStoreAutomatically = false
        description.shouldInferMappingModelAutomatically = false
        for (key, value) in options { try description.checkedSetOption(value, forKey: key) }
        return description
    }

    /// Every option as the dictionary `addPersistentStore(type:at:options:)` takes: the typed
    /// properties under their keys, and the keys no property holds as they were set.
    public var options: [String: Any] {
        var result = otherOptions
        result[StoreOption.migratePersistentStoresAutomatically] = shouldMigrateStoreAutomatically
        result[StoreOption.inferMappingModelAutomatically] = shouldInferMappingModelAutomatically
        if isReadOnly { result[StoreOption.readOnly] = true }
        if timeout != StoreOption.defaultTimeout { result[StoreOption.timeout] = timeout }
        if !sqlitePragmas.isEmpty { result[StoreOption.sqlitePragmas] = sqlitePragmas }
        if isPersistentHistoryTrackingEnabled { result[StoreOption.persistentHistoryTracking] = true }
        if connectionPoolSize != 2 { result[StoreOption.connectionPoolSize] = connectionPoolSize }
        if let storeUUID { result[StoreOption.storeUUID] = storeUUID }
        if let versionedModel { result[StoreOption.versionedModel] = versionedModel }
        if let migrationProgressHandler { result[StoreOption.migrationProgressHandler] = migrationProgressHandler }
        if keepsLegacyVersionHashes { result[StoreOption.keepsLegacyVersionHashes] = true }
        return result
    }

    /// Sets one option by its key (setOption(_:forKey:)); a value of the wrong type stops the
    /// program, as Apple's raises NSInvalidArgumentException (see ``checkedSetOption(_:forKey:)``).
    public func setOption(_ value: Any?, forKey key: String) {
        raisingAsApple { try checkedSetOption(value, forKey: key) }
    }

    /// Sets one option by its key: a key a typed property holds sets that property, any other
    /// key is kept and passed on; nil removes the option.
    ///
    /// - Throws: ``CoreDataError`` (NSInvalidArgumentException) naming the key when its value
    ///   has the wrong type (a string for ``StoreOption/readOnly``, say), or the pragma of
    ///   ``StoreOption/sqlitePragmas`` that is not allowed; the description is left as it was.
    public func checkedSetOption(_ value: Any?, forKey key: String) throws {
        switch key {
        case StoreOption.migratePersistentStoresAutomatically:
            shouldMigrateStoreAutomatically = try Self.bool(value, key: key) ?? false
        case StoreOption.inferMappingModelAutomatically:
            shouldInferMappingModelAutomatically = try Self.bool(value, key: key) ?? false
        case StoreOption.readOnly:
            isReadOnly = try Self.bool(value, key: key) ?? false
        case StoreOption.persistentHistoryTracking:
            isPersistentHistoryTrackingEnabled = try Self.bool(value, key: key) ?? false
        case StoreOption.keepsLegacyVersionHashes:
            keepsLegacyVersionHashes = try Self.bool(value, key: key) ?? false
        case StoreOption.timeout:
            timeout = try Self.seconds(value, key: key) ?? StoreOption.defaultTimeout
        case StoreOption.connectionPoolSize:
            guard let size = try Self.typed(value, Int.self, key: key, expected: "an Int") else {
                connectionPoolSize = 2
                break
            }
            guard size >= 1 else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "The store option \(key) is \(size): a pool holds 1 connection or more", key: key)
            }
            connectionPoolSize = size
        case StoreOption.storeUUID:
            storeUUID = try Self.typed(value, String.self, key: key, expected: "a String")
        case StoreOption.versionedModel:
            versionedModel = try Self.typed(value, VersionedModel.self, key: key, expected: "a VersionedModel")
        case StoreOption.migrationProgressHandler:
            migrationProgressHandler = try Self.typed(
                value, MigrationProgressHandler.self, key: key, expected: "a MigrationProgressHandler")
        case StoreOption.sqlitePragmas:
            sqlitePragmas = try SQLitePragmas.parse(value, key: key)
        default:
            otherOptions[key] = value
        }
    }

    /// Sets one SQLite pragma (setValue(_:forPragmaNamed:)); a pragma or value that is not
    /// allowed stops the program (see ``checkedSetValue(_:forPragmaNamed:)``).
    public func setValue(_ value: String?, forPragmaNamed name: String) {
        raisingAsApple { try checkedSetValue(value, forPragmaNamed: name) }
    }

    /// Sets one SQLite pragma the store's connection runs when it opens; nil removes it. Only
    /// pragmas that tune the connection are allowed, each with the values SQLite documents for
    /// it (see <doc:OpeningStores>).
    ///
    /// - Throws: ``CoreDataError`` (NSInvalidArgumentException) naming the pragma and the
    ///   values it takes; the description is left as it was.
    public func checkedSetValue(_ value: String?, forPragmaNamed name: String) throws {
        guard let value else {
            sqlitePragmas[name] = nil
            return
        }
        sqlitePragmas[name] = try SQLitePragmas.check(name: name, value: value)
    }

    /// A Bool option: a Bool or a number (as an NSNumber is); nil when absent.
    private static func bool(_ value: Any?, key: String) throws -> Bool? {
        switch value {
        case nil: return nil
        case let on as Bool: return on
        case let number as NSNumber: return number.boolValue
        default: throw wrongType(value, key: key, expected: "a Bool")
        }
    }

    /// A number of seconds, never negative; nil when absent.
    private static func seconds(_ value: Any?, key: String) throws -> TimeInterval? {
        let seconds: TimeInterval
        switch value {
        case nil: return nil
        case let number as TimeInterval: seconds = number
        case let number as Int: seconds = TimeInterval(number)
        case let number as NSNumber: seconds = number.doubleValue
        default: throw wrongType(value, key: key, expected: "a number of seconds")
        }
        guard seconds >= 0, seconds.isFinite else {
            throw CoreDataError(
                exception: .invalidArgument,
                "The store option \(key) is \(seconds): a timeout is a number of seconds, 0 or more", key: key)
        }
        return seconds
    }

    /// A value of one type; nil when absent.
    private static func typed<T>(_ value: Any?, _ type: T.Type, key: String, expected: String) throws -> T? {
        guard let value else { return nil }
        guard let typed = value as? T else { throw wrongType(value, key: key, expected: expected) }
        return typed
    }

    /// The error for a known key whose value has another type.
    static func wrongType(_ value: Any?, key: String, expected: String) -> CoreDataError {
        let found = value.map { "\($0) (\(Swift.type(of: $0)))" } ?? "nil"
        return CoreDataError(
            exception: .invalidArgument, "The store option \(key) must be \(expected), not \(found)", key: key)
    }
}

extension PersistentStoreDescription: CustomStringConvertible, CustomDebugStringConvertible {
    /// Apple's shape, `<NSPersistentStoreDescription> (type: SQLite, url: …)`, without a
    /// password the URL holds: a description is printed, logged and put in error reports.
    public var description: String {
        "<NSPersistentStoreDescription> (type: \(type), url: \(url?.textWithoutPassword ?? "nil"))"
    }
    /// The description: a store's password is never printed.
    public var debugDescription: String { description }
}
