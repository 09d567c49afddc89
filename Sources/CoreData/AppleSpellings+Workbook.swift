import ObjectGraph

// Apple's spellings that the workbook's snippets use and ObjectGraph implements under other
// names: found by converting the snippets to `import CoreData`.

extension MigrationManager {
    /// Migrates the store at `sourceURL` into `destinationURL` with a mapping model, under the
    /// labels of Apple's Swift API (migrateStore(from:type:options:mapping:to:type:options:)).
    public func migrateStore(
        from sourceURL: URL, type sourceType: StoreType, options sourceOptions: [AnyHashable: Any]? = nil,
        mapping: MappingModel, to destinationURL: URL, type destinationType: StoreType,
        options destinationOptions: [AnyHashable: Any]? = nil
    ) throws {
        try migrateStore(
            from: sourceURL, type: sourceType, options: try PersistentStoreCoordinator.stringKeys(sourceOptions),
            with: mapping, to: destinationURL, type: destinationType,
            options: try PersistentStoreCoordinator.stringKeys(destinationOptions))
    }
}
