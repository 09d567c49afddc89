/// What every fetch request holds, whatever class its objects are: the settings the stores read
/// (NSFetchRequest's properties). Make one as a ``FetchRequest``; functions that take any
/// request (``ManagedObjectContext/count(for:)``, batch requests) take this class.
///
/// ```swift
/// let request = FetchRequest(entityName: "Book")
/// request.predicate = try Predicate(checkedFormat: "salesRank < %@", 1000)
/// request.sortDescriptors = [SortDescriptor(key: "title")]
/// request.fetchLimit = 10
/// let books = try context.fetch(request)
/// ```
///
/// A request is checked when it runs, not when it is built. Running it throws
/// ``CoreDataError`` for what Core Data raises as an exception: NSInternalInconsistencyException
/// (``CoreDataError/ExceptionName/internalInconsistency``) for an entity the model does not
/// have, and NSInvalidArgumentException (``CoreDataError/ExceptionName/invalidArgument``) when a
/// SQLite store cannot translate its predicate or sort descriptors, for example
/// `keypath pages not found in entity Book` for a key the entity lacks.
public class AnyFetchRequest: CustomStringConvertible {
    /// What a fetch returns (NSFetchRequestResultType, with Apple's raw values).
    public enum ResultType: Int, Sendable {
        /// Managed objects (the default).
        case managedObject = 0
        /// Object IDs only.
        case managedObjectID = 1
        /// One dictionary per object (or group) of the properties to fetch.
        case dictionary = 2
        /// The number of matching objects.
        case count = 4
    }

    /// A property to fetch in a dictionary result: an attribute or to-one relationship by
    /// name, or a computed column.
    ///
    /// Made with `.named("title")` and `.expression(highest)` (``FetchRequestProperty``).
    public enum Property: Hashable {
        /// An attribute or to-one relationship of the entity, by name or key path.
        case attribute(String)
        /// An expression such as `max:(salesRank)`.
        case computed(ExpressionDescription)
    }

    /// The entity to fetch.
    public var entityName: String
    /// Which objects; nil for all.
    ///
    /// Apple: "If the predicate is empty (for example, an AND predicate whose array of elements
    /// contains no predicates) the request has its predicate set to nil."
    public var predicate: Predicate? {
        didSet {
            if case .compound(let c)? = predicate, c.compoundPredicateType == .and, c.subpredicates.isEmpty {
                predicate = nil
            }
        }
    }
    /// Their order; empty for the store's order.
    public var sortDescriptors: [SortDescriptor] = []
    /// At most this many results; 0 for no limit.
    public var fetchLimit: Int = 0
    /// Skip this many results first.
    public var fetchOffset: Int = 0
    /// Load object values this many at a time; 0 loads them all at once.
    public var fetchBatchSize: Int = 0
    /// What the fetch returns.
    public var resultType: ResultType = .managedObject
    /// The columns of a dictionary result; nil for every attribute. As Apple's `[Any]`, it takes
    /// names (`"title"`), property descriptions and expression descriptions, mixed; it reads
    /// back as ``Property`` values.
    public var propertiesToFetch: [any FetchRequestProperty]? {
        get { fetchedProperties }
        set { fetchedProperties = newValue?.map(\.fetchRequestProperty) }
    }
    /// Group dictionary results by these properties (names or property descriptions).
    public var propertiesToGroupBy: [any FetchRequestProperty]? {
        get { groupedProperties }
        set { groupedProperties = newValue?.map(\.fetchRequestProperty) }
    }
    /// ``propertiesToFetch``, each as the fetch reads it.
    var fetchedProperties: [Property]?
    /// ``propertiesToGroupBy``, each as the fetch reads it.
    var groupedProperties: [Property]?
    /// Keep only the groups that match (needs `propertiesToGroupBy`).
    public var havingPredicate: Predicate?
    /// Dictionary results without duplicates.
    public var returnsDistinctResults = false
    /// Whether sub-entities' objects are included (true, as in Core Data).
    public var includesSubentities = true
    /// Whether unsaved changes of the context count (true, as in Core Data; dictionary
    /// results never include them).
    public var includesPendingChanges = true
    /// Relationships to load with the objects, one query per relationship.
    public var relationshipKeyPathsForPrefetching: [String] = []
    /// Whether objects already in the context get the store's current values.
    public var shouldRefreshRefetchedObjects = false
    /// Whether the fetch reads the objects' values (true, as in Core Data); false fetches only
    /// their IDs, and the objects come back as faults that read their values from the store
    /// when first used (includesPropertyValues). Atomic stores (XML, binary, in-memory) judge
    /// a request on loaded objects, so theirs come back loaded.
    public var includesPropertyValues = true
    /// Whether objects may come back as faults (true, as in Core Data); false returns every
    /// object with its values loaded, even with a `fetchBatchSize` (returnsObjectsAsFaults).
    ///
    /// Apple returns faults whose values wait in the coordinator's row cache, so that firing
    /// them costs no trip to the store. This module has no separate row cache: the values a
    /// fetch reads go straight into the objects, which therefore come back already loaded
    /// either way; only objects fetched with a batch size (and with `includesPropertyValues`
    /// false) are faults, and `false` here loads those too.
    public var returnsObjectsAsFaults = true

    /// A request for the objects of an entity: made through ``FetchRequest``.
    init(requestForEntityName entityName: String) {
        self.entityName = entityName
    }

    /// A copy with the same settings, of the same class.
    public func copy() -> AnyFetchRequest {
        let r = AnyFetchRequest(requestForEntityName: entityName)
        copySettings(to: r)
        return r
    }

    /// Copies every setting but the entity name into another request.
    func copySettings(to r: AnyFetchRequest) {
        r.predicate = predicate
        r.sortDescriptors = sortDescriptors
        r.fetchLimit = fetchLimit
        r.fetchOffset = fetchOffset
        r.fetchBatchSize = fetchBatchSize
        r.resultType = resultType
        r.fetchedProperties = fetchedProperties
        r.groupedProperties = groupedProperties
        r.havingPredicate = havingPredicate
        r.returnsDistinctResults = returnsDistinctResults
        r.includesSubentities = includesSubentities
        r.includesPendingChanges = includesPendingChanges
        r.relationshipKeyPathsForPrefetching = relationshipKeyPathsForPrefetching
        r.shouldRefreshRefetchedObjects = shouldRefreshRefetchedObjects
        r.includesPropertyValues = includesPropertyValues
        r.returnsObjectsAsFaults = returnsObjectsAsFaults
    }

    /// Apple's description: the entity, predicate, sort descriptors and limits.
    public var description: String {
        var s =
            "<FetchRequest> (entity: \(entityName); predicate: (\(predicate?.predicateFormat ?? "null")); sortDescriptors: (\(sortDescriptors.map(\.description).joined(separator: ", ")))"
        if fetchLimit > 0 { s += "; limit: \(fetchLimit)" }
        if fetchOffset > 0 { s += "; offset: \(fetchOffset)" }
        return s + "; type: \(resultType))"
    }
}

/// A description of objects to fetch: NSFetchRequest<ResultType>, typed by the class of the
/// objects it returns.
///
/// ```swift
/// let request = FetchRequest(entityName: "Book")          // FetchRequest<ManagedObject>
/// request.predicate = try Predicate(checkedFormat: "salesRank < %@", 1000)
/// request.sortDescriptors = [SortDescriptor(key: "title")]
/// request.fetchLimit = 10
/// let books = try context.fetch(request)                  // [ManagedObject]
///
/// let typed = Book.fetchRequest()                         // FetchRequest<Book>
/// let sameBooks: [Book] = try context.fetch(typed)
/// ```
///
/// A request is checked when it runs, not when it is built. Running it throws
/// ``CoreDataError`` for what Core Data raises as an exception: NSInternalInconsistencyException
/// (``CoreDataError/ExceptionName/internalInconsistency``) for an entity the model does not
/// have, and NSInvalidArgumentException (``CoreDataError/ExceptionName/invalidArgument``) when a
/// SQLite store cannot translate its predicate or sort descriptors, for example
/// `keypath pages not found in entity Book` for a key the entity lacks, or when a typed request's
/// entity makes objects of another class than `Result`.
///
/// `Result` is any type, as Apple's `ResultType` is any NSFetchRequestResult: a managed object
/// class, or for a request whose ``AnyFetchRequest/resultType`` says so `ManagedObjectID`,
/// `NSDictionary` or `NSNumber`, or ``FetchRequestResult`` itself for a request that may return
/// any of them (`FetchRequest<FetchRequestResult>`, Apple's `NSFetchRequest<NSFetchRequestResult>`).
public final class FetchRequest<Result>: AnyFetchRequest {
    override init(requestForEntityName entityName: String) {
        super.init(requestForEntityName: entityName)
    }

    /// A copy with the same settings.
    public override func copy() -> FetchRequest<Result> {
        let r = FetchRequest<Result>(requestForEntityName: entityName)
        copySettings(to: r)
        return r
    }
}

extension FetchRequest {
    /// A request for the objects of an entity, as `Result` objects (initWithEntityName:):
    /// `FetchRequest<Book>(entityName: "Book")`.
    public convenience init(entityName: String) {
        self.init(requestForEntityName: entityName)
    }
}

extension FetchRequest where Result == ManagedObject {
    /// A request for the objects of an entity, as managed objects: `FetchRequest(entityName:)`
    /// without a type is a `FetchRequest<ManagedObject>`; the type given decides otherwise.
    public convenience init(entityName: String) {
        self.init(requestForEntityName: entityName)
    }
}

/// A computed column of a dictionary fetch: NSExpressionDescription.
///
/// ```swift
/// let highest = ExpressionDescription()
/// highest.name = "highest"
/// highest.expression = try Expression(checkedFormat: "max:(salesRank)")
/// highest.expressionResultType = .integer64
/// request.propertiesToFetch = [.expression(highest)]
/// ```
///
/// A class, as Apple's is: a request holds the description itself, so a change made before the
/// fetch is the one the fetch computes. Two descriptions are equal when their name, expression
/// and result type are.
public final class ExpressionDescription: Hashable, CustomStringConvertible {
    /// The key of the column in each result dictionary.
    public var name: String
    /// What to compute, such as `max:(salesRank)`; a fetch with none fails, naming the column.
    public var expression: Expression?
    /// The type of the result.
    public var expressionResultType: AttributeType

    /// An empty description, to be given its name, expression and result type (init()).
    public init() {
        name = ""
        expression = nil
        expressionResultType = .undefined
    }

    /// Describes a computed column in one step.
    public convenience init(name: String, expression: Expression, resultType: AttributeType) {
        self.init()
        self.name = name
        self.expression = expression
        self.expressionResultType = resultType
    }

    /// Whether two descriptions name, compute and type the same column.
    public static func == (lhs: ExpressionDescription, rhs: ExpressionDescription) -> Bool {
        lhs.name == rhs.name && lhs.expression == rhs.expression
            && lhs.expressionResultType == rhs.expressionResultType
    }

    /// Hashes the name, expression and result type.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(expression)
        hasher.combine(expressionResultType)
    }

    /// `name = expression (type)`, for messages.
    public var description: String {
        "\(name) = \(expression.map { "\($0)" } ?? "no expression") (\(expressionResultType))"
    }
}
