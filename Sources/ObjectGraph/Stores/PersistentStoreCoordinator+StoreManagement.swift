import Foundation

/// Stores by type and URL, as Apple's NSPersistentStoreCoordinator manages them: adding with a
/// configuration name, reading metadata, destroying and replacing store files.
extension PersistentStoreCoordinator {
    /// Adds a store (addPersistentStore(ofType:configurationName:at:options:)), as
    /// ``addPersistentStore(type:at:options:)`` does.
    ///
    /// A store here holds every entity of the model, so the configuration must be nil or
    /// Apple's default, `PF_DEFAULT_CONFIGURATION_NAME`; another name throws 134000
    /// (NSPersistentStoreInvalidTypeError) naming it, rather than store entities the
    /// configuration leaves out.
    @discardableResult
    public func addPersistentStore(
        ofType storeType: StoreType, configurationName configuration: String?,
        at storeURL: URL?, options: [AnyHashable: Any]? = nil
    ) throws -> PersistentStore {
        if let configuration, configuration != PersistentStore.defaultConfigurationName {
            throw CoreDataError(
                .persistentStoreInvalidType,
                "A store holds every entity of its model here; the configuration "
                    + "\(configuration) cannot be given to addPersistentStore (use nil)")
        }
        return try addPersistentStore(type: storeType, at: storeURL, options: try Self.stringKeys(options))
    }

    /// The metadata of the store at a URL, without adding it
    /// (metadataForPersistentStore(ofType:at:options:)); see ``metadataForPersistentStore(type:at:)``.
    public static func metadataForPersistentStore(
        ofType storeType: StoreType, at url: URL,
        options: [AnyHashable: Any]? = nil
    ) throws -> [String: Any] {
        try metadataForPersistentStore(type: storeType, at: url)
    }

    /// The metadata of one of the coordinator's stores (metadata(for:)), with what
    /// ``setMetadata(_:for:)`` set, before the save writes it.
    public func metadata(for store: PersistentStore) -> [String: Any] { store.metadata }

    /// Sets a store's metadata, written to the store by its next save (setMetadata(_:for:)).
    ///
    /// The store's type, UUID and model version keys stay as they are, as Apple adds them
    /// again; every other key is the dictionary's (nil removes the application's keys). A store
    /// that keeps no metadata of an application's own (the PostgreSQL store, for now) stops the
    /// program, where Apple's would raise.
    public func setMetadata(_ metadata: [String: Any]?, for store: PersistentStore) {
        do { try store.backend.setMetadata(metadata ?? [:]) } catch { ManagedObject.raise(error) }
    }

    /// The coordinator's store at a URL, if it has one (persistentStore(for:)).
    public func persistentStore(for url: URL) -> PersistentStore? {
        persistentStores.first { $0.url?.standardizedFileURL == url.standardizedFileURL }
    }

    /// Deletes the store at a URL and its companion files (destroyPersistentStore(at:ofType:options:)).
    ///
    /// A store this coordinator has open there is removed from it first. Destroying a store
    /// that is not there does nothing, as Apple's does. A PostgreSQL store's schema is not
    /// dropped by this call (throws 134091): drop it with `DROP SCHEMA … CASCADE`, deliberately.
    public func destroyPersistentStore(at url: URL, ofType storeType: StoreType, options: [AnyHashable: Any]? = nil)
        throws
    {
        guard !storeType.isServer else {
            throw CoreDataError(
                .persistentStoreUnsupportedRequestType,
                "destroyPersistentStore does not drop the PostgreSQL "
                    + "schema of \(url.textWithoutPassword); drop it with DROP SCHEMA ... CASCADE")
        }
        if let open = persistentStore(for: url) {
            try remove(open)
            try open.backend.close()
        }
        StoreFiles.remove(url)
    }

    /// Replaces the store at `destinationURL` with a copy of the store at `sourceURL`
    /// (replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:ofType:)).
    ///
    /// A SQLite store is copied with SQLite's online backup (its `-wal` included); an XML or
    /// binary store's file is copied and then renamed into place. The destination must not be
    /// open in this coordinator (Apple: remove it first).
    public func replacePersistentStore(
        at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
        withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
        ofType storeType: StoreType
    ) throws {
        if persistentStore(for: destinationURL) != nil {
            throw CoreDataError(
                exception: .invalidArgument,
                "The store at \(destinationURL.path) is open in this coordinator; "
                    + "remove it before replacing it")
        }
        try storeType.registeredKind().replace(destinationURL, withStoreAt: sourceURL)
    }

    /// Options with `String` keys, as the stores read them; a key of another type is an error
    /// naming it (Apple's keys are all strings). Package-visible: the CoreData module's Apple
    /// spellings that take options convert them the same way.
    package static func stringKeys(_ options: [AnyHashable: Any]?) throws -> [String: Any] {
        var result: [String: Any] = [:]
        for (key, value) in options ?? [:] {
            guard let name = key.base as? String else {
                throw CoreDataError(
                    exception: .invalidArgument, "Store option keys are strings; \(key) is a \(type(of: key.base))")
            }
            result[name] = value
        }
        return result
    }
}
