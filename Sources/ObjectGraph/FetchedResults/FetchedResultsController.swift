import Foundation

/// The results of a fetch request, in sections, kept current as its context changes
/// (NSFetchedResultsController).
///
/// ```swift
/// let request = FetchRequest(entityName: "Book")
/// request.sortDescriptors = [SortDescriptor(key: "author"), SortDescriptor(key: "title")]
/// let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
///                                           sectionNameKeyPath: "author", cacheName: nil)
/// controller.delegate = self          // told of inserts, deletes, moves and updates
/// try controller.performFetch()
/// let first = controller.object(at: IndexPath(row: 0, section: 0))
/// ```
///
/// The request needs sort descriptors; with a `sectionNameKeyPath`, the first of them must
/// order the objects by their section (Apple: the key paths "must generate the same relative
/// orderings"). After ``performFetch()``, a controller with a ``delegate`` listens to its
/// context's ``ManagedObjectContext/objectsDidChangeNotification`` and updates its results in
/// memory, evaluating the request's predicate and sort on the changed objects only; it reports
/// each change to the delegate (see ``FetchedResultsControllerDelegate``). Without a delegate it
/// tracks nothing, as Apple's "no tracking" mode. Changes saved in other contexts reach it when
/// they are merged into its context (``ManagedObjectContext/checkedMergeChanges(fromContextDidSave:)``,
/// ``ManagedObjectContext/automaticallyMergesChangesFromParent``).
///
/// Use it where its context is used (the context's queue): it is told of changes there.
///
/// As Apple's, it may be subclassed to name the section index titles
/// (``sectionIndexTitle(forSectionName:)``, ``sectionIndexTitles``).
open class FetchedResultsController: @unchecked Sendable {
    // @unchecked Sendable: like its context, the controller is used on the context's queue
    // only; the notifications that change it are posted by the context, on that queue.

    /// The request whose results the controller holds (fetchRequest).
    public let fetchRequest: FetchRequest<ManagedObject>
    /// The context it fetches in and listens to (managedObjectContext).
    public let managedObjectContext: ManagedObjectContext
    /// The key path whose value names each object's section; nil for one section
    /// (sectionNameKeyPath).
    public let sectionNameKeyPath: String?
    /// Accepted for Core Data's signature, and not used: results are not cached to disk, each
    /// ``performFetch()`` fetches (cacheName).
    public let cacheName: String?
    /// Told of changes to the results; nil turns change tracking off (delegate).
    public weak var delegate: (any FetchedResultsControllerDelegate)?

    /// The objects, section after section; nil before ``performFetch()`` (fetchedObjects).
    public internal(set) var fetchedObjects: [ManagedObject]?
    /// The sections, in order.
    var sectionList: [FetchedResultsSection] = []
    /// The observer of the context's objects-did-change notification.
    var observer: NSObjectProtocol?

    /// A controller for a request in a context; nothing is fetched until ``performFetch()``
    /// (init(fetchRequest:managedObjectContext:sectionNameKeyPath:cacheName:)).
    public init(
        fetchRequest: FetchRequest<ManagedObject>, managedObjectContext: ManagedObjectContext,
        sectionNameKeyPath: String?, cacheName: String?
    ) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = managedObjectContext
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
    }

    /// A controller for a typed request (`Book.fetchRequest()`, Apple's
    /// `NSFetchedResultsController<Book>(fetchRequest:…)`): the controller follows a request
    /// for managed objects with the same settings; its objects are of their entity's class.
    public convenience init<Result>(
        fetchRequest: FetchRequest<Result>, managedObjectContext: ManagedObjectContext,
        sectionNameKeyPath: String?, cacheName: String?
    ) {
        let objects = FetchRequest<ManagedObject>(entityName: fetchRequest.entityName)
        fetchRequest.copySettings(to: objects)
        self.init(
            fetchRequest: objects, managedObjectContext: managedObjectContext,
            sectionNameKeyPath: sectionNameKeyPath, cacheName: cacheName)
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    /// Does nothing: there is no cache (deleteCache(withName:)).
    public static func deleteCache(withName name: String?) {}

    /// Fetches the results and starts following the context's changes (performFetch()).
    ///
    /// - Throws: ``CoreDataError``: the exception NSInvalidArgumentException for a request
    ///   without sort descriptors or of another result type than managed objects, or whose
    ///   objects are not in section order; any error of the fetch.
    public func performFetch() throws {
        guard !fetchRequest.sortDescriptors.isEmpty else {
            throw CoreDataError(
                exception: .invalidArgument,
                "A FetchedResultsController requires a fetch request with sort descriptors; the request for \(fetchRequest.entityName) has none"
            )
        }
        guard fetchRequest.resultType == .managedObject else {
            throw CoreDataError(
                exception: .invalidArgument,
                "A FetchedResultsController fetches managed objects; the request for \(fetchRequest.entityName) asks for another result type"
            )
        }
        let objects = try managedObjectContext.fetch(fetchRequest)
        sectionList = try sections(of: objects, requireOrder: true)
        fetchedObjects = sectionList.flatMap(\.members)
        startTracking()
        if let snapshotDelegate = delegate as? any FetchedResultsControllerSnapshotDelegate {
            snapshotDelegate.controller(self, didChangeContentWith: snapshot())
        }
    }

    /// The sections; nil before ``performFetch()`` (sections).
    public var sections: [any FetchedResultsSectionInfo]? { fetchedObjects == nil ? nil : sectionList }

    /// The object at an index path of a section and a row (object(at:)); an index path outside
    /// the results stops the program, as Apple's raises NSRangeException.
    public func object(at indexPath: IndexPath) -> ManagedObject {
        do { return try checkedObject(at: indexPath) } catch { ManagedObject.raise(error) }
    }

    /// The object at an index path of a section and a row.
    ///
    /// - Throws: ``CoreDataError`` (NSRangeException, as Apple raises) for an index path
    ///   outside the results, naming it and the sections' sizes.
    public func checkedObject(at indexPath: IndexPath) throws -> ManagedObject {
        guard indexPath.count == 2, sectionList.indices.contains(indexPath.section),
            sectionList[indexPath.section].members.indices.contains(indexPath.row)
        else {
            let sizes = sectionList.map { String($0.members.count) }.joined(separator: ", ")
            throw CoreDataError(
                exception: CoreDataError.ExceptionName(rawValue: "NSRangeException"),
                "No object at index path \(Array(indexPath)) of the results for \(fetchRequest.entityName): \(sectionList.count) section\(sectionList.count == 1 ? "" : "s") of [\(sizes)] objects"
            )
        }
        return sectionList[indexPath.section].members[indexPath.row]
    }

    /// The index path of an object in the results, or nil (indexPath(forObject:)).
    public func indexPath(forObject object: ManagedObject) -> IndexPath? {
        for (s, section) in sectionList.enumerated() {
            if let row = section.members.firstIndex(where: { $0 === object }) { return IndexPath(row: row, section: s) }
        }
        return nil
    }

    /// The index title of a section name: its first letter, capitalized; nil for an empty name
    /// (sectionIndexTitle(forSectionName:)).
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }

    /// The sections' index titles, each once, in section order (sectionIndexTitles).
    open var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return sectionList.compactMap(\.indexTitle).filter { seen.insert($0).inserted }
    }

    /// The section a section index title stands for: the first with that title; for a title
    /// no section has, the section at `sectionIndex`, kept within the sections
    /// (section(forSectionIndexTitle:at:)).
    public func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        if let match = sectionList.firstIndex(where: { $0.indexTitle == title }) { return match }
        return sectionList.isEmpty ? 0 : min(max(0, sectionIndex), sectionList.count - 1)
    }

    // MARK: Sections

    /// The section name of an object: its value at ``sectionNameKeyPath`` as text ("" for nil,
    /// and for every object without a key path).
    func sectionName(of object: ManagedObject) throws -> String {
        guard let keyPath = sectionNameKeyPath else { return "" }
        guard let value = unwrapOptional(try object.checkedValue(forKeyPath: keyPath)) else { return "" }
        return (value as? String) ?? String(describing: value)
    }

    /// Sorted objects grouped into sections by name. With `requireOrder`, objects out of
    /// section order are an error, as Apple's performFetch reports; otherwise (following
    /// changes) a name seen before gathers its objects into its first section.
    func sections(of objects: [ManagedObject], requireOrder: Bool) throws -> [FetchedResultsSection] {
        var names: [String] = []
        var members: [[ManagedObject]] = []
        var indexByName: [String: Int] = [:]
        for (n, object) in objects.enumerated() {
            let name = try sectionName(of: object)
            if let i = indexByName[name] {
                if requireOrder && i != names.count - 1 {
                    throw CoreDataError(
                        exception: .invalidArgument,
                        "The fetched object at index \(n) (\(object.objectID.uriString)) has an out of order section name \"\(name)\": the objects must be sorted by section name, so the first sort descriptor of the request for \(fetchRequest.entityName) must order by \(sectionNameKeyPath ?? "")"
                    )
                }
                members[i].append(object)
            } else {
                indexByName[name] = names.count
                names.append(name)
                members.append([object])
            }
        }
        return zip(names, members).map { name, objects in
            FetchedResultsSection(name: name, indexTitle: indexTitle(forSectionName: name), members: objects)
        }
    }

    /// A section's index title: the delegate's, else the default.
    private func indexTitle(forSectionName name: String) -> String? {
        delegate?.controller(self, sectionIndexTitleForSectionName: name) ?? sectionIndexTitle(forSectionName: name)
    }

    /// The results as section names and object IDs.
    func snapshot(reloading reloaded: [ManagedObjectID] = []) -> FetchedResultsSnapshot {
        var snapshot = FetchedResultsSnapshot(sections: sectionList.map { ($0.name, $0.members.map(\.objectID)) })
        snapshot.reloadedItemIdentifiers = reloaded
        return snapshot
    }
}
