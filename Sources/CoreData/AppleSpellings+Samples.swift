import ObjectGraph

// Apple's spellings that Apple's own documentation samples use and ObjectGraph implements under
// other names: found by compiling those samples (Tests/CoreDataSampleTests, LEDGER.md).

extension BatchUpdateRequest.ResultType {
    /// Whether the update succeeded (NSBatchUpdateRequestResultType.statusOnlyResultType).
    public static var statusOnlyResultType: Self { .statusOnly }
    /// The IDs of the updated objects (NSBatchUpdateRequestResultType.updatedObjectIDsResultType).
    public static var updatedObjectIDsResultType: Self { .updatedObjectIDs }
    /// How many objects were updated (NSBatchUpdateRequestResultType.updatedObjectsCountResultType).
    public static var updatedObjectsCountResultType: Self { .updatedObjectsCount }
}

extension BatchDeleteRequest.ResultType {
    /// Whether the delete succeeded (NSBatchDeleteRequestResultType.resultTypeStatusOnly).
    public static var resultTypeStatusOnly: Self { .statusOnly }
    /// The IDs of the deleted objects (NSBatchDeleteRequestResultType.resultTypeObjectIDs).
    public static var resultTypeObjectIDs: Self { .objectIDs }
    /// How many objects were deleted (NSBatchDeleteRequestResultType.resultTypeCount).
    public static var resultTypeCount: Self { .count }
}

/// What a batch update returns (NSBatchUpdateRequestResultType).
public typealias NSBatchUpdateRequestResultType = BatchUpdateRequest.ResultType
/// What a batch delete returns (NSBatchDeleteRequestResultType).
public typealias NSBatchDeleteRequestResultType = BatchDeleteRequest.ResultType
/// What a batch insert returns (NSBatchInsertRequestResultType).
public typealias NSBatchInsertRequestResultType = BatchInsertRequest.ResultType

extension BatchInsertRequest {
    /// A batch insert whose handler fills one object's values into an `NSMutableDictionary` per
    /// call and returns true when there are no more (init(entity:dictionaryHandler:)).
    public convenience init(
        entity: EntityDescription, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool
    ) {
        self.init(entityName: entity.name, dictionaryHandler: Self.swiftDictionaryHandler(handler))
    }

    /// A batch insert whose handler sets one new object's values per call and returns true when
    /// there are no more (init(entity:managedObjectHandler:)).
    public convenience init(entity: EntityDescription, managedObjectHandler handler: @escaping (ManagedObject) -> Bool)
    {
        self.init(entityName: entity.name, managedObjectHandler: { object in handler(object) })
    }

    /// ObjectGraph's handler (a Swift dictionary) for Apple's (an NSMutableDictionary): each call
    /// gives Apple's handler an empty dictionary and copies what it set, as Swift values.
    private static func swiftDictionaryHandler(_ handler: @escaping (NSMutableDictionary) -> Bool) -> (
        inout [String: Any]
    ) throws -> Bool {
        { values in
            let dictionary = NSMutableDictionary()
            if handler(dictionary) { return true }
            for (key, value) in dictionary {
                guard let name = key as? String ?? (key as? NSString).map({ String(describing: $0) }) else {
                    throw CoreDataError(
                        exception: .invalidArgument,
                        "A batch insert's dictionary keys are attribute names; \(key) is a \(type(of: key))")
                }
                values[name] = swiftValue(value)
            }
            return false
        }
    }

    /// The Swift value of what an NSMutableDictionary holds: Foundation's reference types become
    /// the value types a managed object takes; numbers stay NSNumbers, which attributes accept.
    private static func swiftValue(_ value: Any) -> Any? {
        switch value {
        case is NSNull: return nil
        case let string as NSString: return String(describing: string)
        case let date as NSDate: return Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case let data as NSData: return Data(referencing: data)
        case let uuid as NSUUID: return UUID(uuidString: uuid.uuidString)
        case let url as NSURL: return url.absoluteURL
        case let decimal as NSDecimalNumber: return decimal.decimalValue
        default: return value
        }
    }
}

extension MigrationManager {
    /// Migrates the store at `sourceURL` into `destinationURL` with a mapping model, under Apple's
    /// argument labels
    /// (migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:));
    /// a nil mapping model fails with 134140 (NSMigrationMissingMappingModelError).
    public func migrateStore(
        from sourceURL: URL, sourceType: StoreType, options sourceOptions: [AnyHashable: Any]? = nil,
        with mapping: MappingModel?, toDestinationURL destinationURL: URL, destinationType: StoreType,
        destinationOptions: [AnyHashable: Any]? = nil
    ) throws {
        guard let mapping else {
            throw CoreDataError(
                .migrationMissingMappingModel,
                "migrateStore was given no mapping model for the store at \(sourceURL.path)")
        }
        try migrateStore(
            from: sourceURL, type: sourceType, options: try PersistentStoreCoordinator.stringKeys(sourceOptions),
            with: mapping, to: destinationURL, type: destinationType,
            options: try PersistentStoreCoordinator.stringKeys(destinationOptions))
    }
}

extension AnyFetchRequest.Property: ExpressibleByStringLiteral {
    /// An attribute or to-one relationship by name, as Apple's `propertiesToFetch = ["title"]`.
    public init(stringLiteral name: String) { self = .named(name) }
}
