import ObjectGraph

// Apple's classes and protocols, by the ObjectGraph types that implement them.

/// An object of an entity, kept by a context (NSManagedObject).
public typealias NSManagedObject = ManagedObject
/// The identity of a managed object, stable across contexts (NSManagedObjectID).
public typealias NSManagedObjectID = ManagedObjectID
/// A scratch pad of managed objects (NSManagedObjectContext).
public typealias NSManagedObjectContext = ManagedObjectContext
/// A model's entities, properties and versions (NSManagedObjectModel).
public typealias NSManagedObjectModel = ManagedObjectModel
/// An entity of a model (NSEntityDescription).
public typealias NSEntityDescription = EntityDescription
/// An attribute of an entity (NSAttributeDescription).
public typealias NSAttributeDescription = AttributeDescription
/// A relationship of an entity (NSRelationshipDescription).
public typealias NSRelationshipDescription = RelationshipDescription
/// An attribute or a relationship (NSPropertyDescription).
public typealias NSPropertyDescription = PropertyDescription
/// A fetched property of an entity (NSFetchedPropertyDescription).
public typealias NSFetchedPropertyDescription = FetchedPropertyDescription
/// An index of an entity (NSFetchIndexDescription).
public typealias NSFetchIndexDescription = FetchIndexDescription
/// One property of an index (NSFetchIndexElementDescription).
public typealias NSFetchIndexElementDescription = FetchIndexElementDescription

/// Connects a model to its stores (NSPersistentStoreCoordinator).
public typealias NSPersistentStoreCoordinator = PersistentStoreCoordinator
/// A store added to a coordinator (NSPersistentStore).
public typealias NSPersistentStore = PersistentStore
/// A model, a coordinator and a view context together (NSPersistentContainer).
public typealias NSPersistentContainer = PersistentContainer
/// What a store is and how to open it (NSPersistentStoreDescription).
public typealias NSPersistentStoreDescription = PersistentStoreDescription

/// What every fetch request result adopts (NSFetchRequestResult).
public typealias NSFetchRequestResult = FetchRequestResult
/// A description of objects to fetch (NSFetchRequest<ResultType>), of any result type.
public typealias NSFetchRequest<ResultType> = FetchRequest<ResultType>
/// A computed column of a dictionary fetch (NSExpressionDescription).
public typealias NSExpressionDescription = ExpressionDescription
/// A request a store runs (NSPersistentStoreRequest).
public typealias NSPersistentStoreRequest = PersistentStoreRequest
/// What a store request returns (NSPersistentStoreResult).
public typealias NSPersistentStoreResult = PersistentStoreResult
/// Inserts rows without objects (NSBatchInsertRequest).
public typealias NSBatchInsertRequest = BatchInsertRequest
/// The result of a batch insert (NSBatchInsertResult).
public typealias NSBatchInsertResult = BatchInsertResult
/// Updates rows without objects (NSBatchUpdateRequest).
public typealias NSBatchUpdateRequest = BatchUpdateRequest
/// The result of a batch update (NSBatchUpdateResult).
public typealias NSBatchUpdateResult = BatchUpdateResult
/// Deletes rows without objects (NSBatchDeleteRequest).
public typealias NSBatchDeleteRequest = BatchDeleteRequest
/// The result of a batch delete (NSBatchDeleteResult).
public typealias NSBatchDeleteResult = BatchDeleteResult

/// Keeps a fetch's results up to date for a list (NSFetchedResultsController<ResultType>);
/// the type parameter is Apple's spelling and constrains nothing here.
public typealias NSFetchedResultsController<ResultType> = FetchedResultsController
/// What a fetched results controller tells as its results change
/// (NSFetchedResultsControllerDelegate).
public typealias NSFetchedResultsControllerDelegate = FetchedResultsControllerDelegate
/// One section of a fetched results controller (NSFetchedResultsSectionInfo).
public typealias NSFetchedResultsSectionInfo = FetchedResultsSectionInfo
/// How an object changed in a fetched results controller (NSFetchedResultsChangeType).
public typealias NSFetchedResultsChangeType = FetchedResultsChangeType

/// How a save resolves conflicts (NSMergePolicy).
public typealias NSMergePolicy = MergePolicy
/// The merge policies Core Data defines (NSMergePolicyType).
public typealias NSMergePolicyType = MergePolicyType
/// An optimistic-locking conflict (NSMergeConflict).
public typealias NSMergeConflict = MergeConflict
/// A uniqueness-constraint conflict (NSConstraintConflict).
public typealias NSConstraintConflict = ConstraintConflict

/// How to migrate a store from one model to another (NSMappingModel).
public typealias NSMappingModel = MappingModel
/// How one entity migrates (NSEntityMapping).
public typealias NSEntityMapping = EntityMapping
/// How one property migrates (NSPropertyMapping).
public typealias NSPropertyMapping = PropertyMapping
/// What an entity mapping does (NSEntityMappingType).
public typealias NSEntityMappingType = EntityMappingType
/// The code of a custom migration (NSEntityMigrationPolicy).
public typealias NSEntityMigrationPolicy = EntityMigrationPolicy
/// Runs a migration (NSMigrationManager).
public typealias NSMigrationManager = MigrationManager

/// Fetches the history of a store's transactions (NSPersistentHistoryChangeRequest).
public typealias NSPersistentHistoryChangeRequest = PersistentHistoryChangeRequest
/// A point in a store's history (NSPersistentHistoryToken).
public typealias NSPersistentHistoryToken = PersistentHistoryToken
/// A generation of the stores' data that a context reads (NSQueryGenerationToken).
public typealias NSQueryGenerationToken = QueryGenerationToken
/// One saved transaction (NSPersistentHistoryTransaction).
public typealias NSPersistentHistoryTransaction = PersistentHistoryTransaction
/// One object's change in a transaction (NSPersistentHistoryChange).
public typealias NSPersistentHistoryChange = PersistentHistoryChange
/// What kind of change (NSPersistentHistoryChangeType).
public typealias NSPersistentHistoryChangeType = PersistentHistoryChangeType
/// The result of a history request (NSPersistentHistoryResult).
public typealias NSPersistentHistoryResult = PersistentHistoryResult
/// What a history request returns (NSPersistentHistoryResultType).
public typealias NSPersistentHistoryResultType = PersistentHistoryResultType

/// A logical condition (NSPredicate).
public typealias NSPredicate = ObjectGraph.Predicate
/// AND, OR and NOT of predicates (NSCompoundPredicate): a ``Predicate`` made by the
/// initializers Apple's subclass has.
public typealias NSCompoundPredicate = ObjectGraph.Predicate
/// A comparison of two expressions (NSComparisonPredicate): a ``Predicate`` made by Apple's
/// initializer of that subclass.
public typealias NSComparisonPredicate = ObjectGraph.Predicate
/// A value in a predicate (NSExpression).
public typealias NSExpression = ObjectGraph.Expression
/// An order for fetched objects (NSSortDescriptor).
public typealias NSSortDescriptor = ObjectGraph.SortDescriptor
/// Turns values into data and back (ValueTransformer's Core Data uses).
public typealias NSSecureUnarchiveFromDataTransformer = SecureUnarchiveFromDataTransformer

/// A property's type (NSAttributeType).
public typealias NSAttributeType = AttributeType
/// What deleting an object does to a relationship's destination (NSDeleteRule).
public typealias NSDeleteRule = DeleteRule
/// How a context is confined to a queue (NSManagedObjectContextConcurrencyType).
public typealias NSManagedObjectContextConcurrencyType = ManagedObjectContext.ConcurrencyType
/// What a fetch returns (NSFetchRequestResultType).
public typealias NSFetchRequestResultType = AnyFetchRequest.ResultType

/// A typed property of a managed object subclass: `@Managed("title") var title: String?`, the
/// closest spelling of Apple's `@NSManaged`, which needs the Objective-C runtime.
public typealias Managed<Value> = ObjectGraph.Managed<Value>
/// The undo manager a context records its changes with: Foundation's `UndoManager`, which
/// swift-corelibs-foundation does not have on Linux.
public typealias UndoManager = ObjectGraph.UndoManager
