import ObjectGraph

// Apple's Swift spellings of Core Data's enumerations. ObjectGraph's cases are Swift's short
// names (`.mainQueue`); Apple's Swift API keeps the Objective-C constants' long names
// (`.mainQueueConcurrencyType`). These static members give the long names the same values,
// so both spellings compile. A `switch` over one of these types still names ObjectGraph's
// cases (a static member is not a case pattern Swift can check for exhaustiveness).

extension ManagedObjectContext.ConcurrencyType {
    /// A context on a queue of its own (NSPrivateQueueConcurrencyType).
    public static var privateQueueConcurrencyType: Self { .privateQueue }
    /// A context on the main queue (NSMainQueueConcurrencyType).
    public static var mainQueueConcurrencyType: Self { .mainQueue }
    /// A context confined by its caller (NSConfinementConcurrencyType, deprecated by Apple).
    public static var confinementConcurrencyType: Self { .confinement }
}

extension MergePolicyType {
    /// Fail the save on a conflict (NSErrorMergePolicyType).
    public static var errorMergePolicyType: Self { .error }
    /// The store's values win, property by property (NSMergeByPropertyStoreTrumpMergePolicyType).
    public static var mergeByPropertyStoreTrumpMergePolicyType: Self { .mergeByPropertyStoreTrump }
    /// The context's values win, property by property (NSMergeByPropertyObjectTrumpMergePolicyType).
    public static var mergeByPropertyObjectTrumpMergePolicyType: Self { .mergeByPropertyObjectTrump }
    /// The context's objects replace the store's (NSOverwriteMergePolicyType).
    public static var overwriteMergePolicyType: Self { .overwrite }
    /// The store's objects replace the context's (NSRollbackMergePolicyType).
    public static var rollbackMergePolicyType: Self { .rollback }
}

extension MergePolicy {
    /// A merge policy of one of Core Data's types (init(merge:) with Apple's label).
    public convenience init(mergeType: MergePolicyType) { self.init(merge: mergeType) }
}

/// Fail the save on a conflict (NSErrorMergePolicy).
public let NSErrorMergePolicy = MergePolicy.error
/// The store's values win, property by property (NSMergeByPropertyStoreTrumpMergePolicy).
public let NSMergeByPropertyStoreTrumpMergePolicy = MergePolicy.mergeByPropertyStoreTrump
/// The context's values win, property by property (NSMergeByPropertyObjectTrumpMergePolicy).
public let NSMergeByPropertyObjectTrumpMergePolicy = MergePolicy.mergeByPropertyObjectTrump
/// The context's objects replace the store's (NSOverwriteMergePolicy).
public let NSOverwriteMergePolicy = MergePolicy.overwrite
/// The store's objects replace the context's (NSRollbackMergePolicy).
public let NSRollbackMergePolicy = MergePolicy.rollback

extension AttributeType {
    /// NSUndefinedAttributeType.
    public static var undefinedAttributeType: Self { .undefined }
    /// NSInteger16AttributeType.
    public static var integer16AttributeType: Self { .integer16 }
    /// NSInteger32AttributeType.
    public static var integer32AttributeType: Self { .integer32 }
    /// NSInteger64AttributeType.
    public static var integer64AttributeType: Self { .integer64 }
    /// NSDecimalAttributeType.
    public static var decimalAttributeType: Self { .decimal }
    /// NSDoubleAttributeType.
    public static var doubleAttributeType: Self { .double }
    /// NSFloatAttributeType.
    public static var floatAttributeType: Self { .float }
    /// NSStringAttributeType.
    public static var stringAttributeType: Self { .string }
    /// NSBooleanAttributeType.
    public static var booleanAttributeType: Self { .boolean }
    /// NSDateAttributeType.
    public static var dateAttributeType: Self { .date }
    /// NSBinaryDataAttributeType.
    public static var binaryDataAttributeType: Self { .binaryData }
    /// NSUUIDAttributeType.
    public static var UUIDAttributeType: Self { .uuid }
    /// NSURIAttributeType.
    public static var URIAttributeType: Self { .uri }
    /// NSTransformableAttributeType.
    public static var transformableAttributeType: Self { .transformable }
    /// NSObjectIDAttributeType.
    public static var objectIDAttributeType: Self { .objectID }
}

extension DeleteRule {
    /// NSNoActionDeleteRule.
    public static var noActionDeleteRule: Self { .noAction }
    /// NSNullifyDeleteRule.
    public static var nullifyDeleteRule: Self { .nullify }
    /// NSCascadeDeleteRule.
    public static var cascadeDeleteRule: Self { .cascade }
    /// NSDenyDeleteRule.
    public static var denyDeleteRule: Self { .deny }
}

extension AnyFetchRequest.ResultType {
    /// NSManagedObjectResultType.
    public static var managedObjectResultType: Self { .managedObject }
    /// NSManagedObjectIDResultType.
    public static var managedObjectIDResultType: Self { .managedObjectID }
    /// NSDictionaryResultType.
    public static var dictionaryResultType: Self { .dictionary }
    /// NSCountResultType.
    public static var countResultType: Self { .count }
}

extension EntityMappingType {
    /// NSUndefinedEntityMappingType.
    public static var undefinedEntityMappingType: Self { .undefined }
    /// NSCustomEntityMappingType.
    public static var customEntityMappingType: Self { .custom }
    /// NSAddEntityMappingType.
    public static var addEntityMappingType: Self { .add }
    /// NSRemoveEntityMappingType.
    public static var removeEntityMappingType: Self { .remove }
    /// NSCopyEntityMappingType.
    public static var copyEntityMappingType: Self { .copy }
    /// NSTransformEntityMappingType.
    public static var transformEntityMappingType: Self { .transform }
}
