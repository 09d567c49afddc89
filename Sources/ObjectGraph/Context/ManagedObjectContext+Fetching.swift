import Foundation

/// Fetching: a request asked of the parent store, with this context's unsaved changes laid
/// over the answer (executeFetchRequest:error:, countForFetchRequest:error:).
extension ManagedObjectContext {
    /// The managed objects a request describes (executeFetchRequest:error:).
    ///
    /// ```swift
    /// let request = FetchRequest(entityName: "Book")
    /// request.predicate = try Predicate(checkedFormat: "salesRank < %@", 1000)
    /// request.sortDescriptors = [SortDescriptor(key: "title")]
    /// let books = try context.fetch(request)
    /// ```
    ///
    /// With `includesPendingChanges` (the default) unsaved inserts that match are included,
    /// deleted objects are not, and changed objects are judged on their new values. A SQLite
    /// store runs the predicate, sort and limits as one SQL statement. A child context asks its
    /// parent context, so it sees the parent's unsaved changes as well. With several stores,
    /// the sort, `fetchOffset` and `fetchLimit` apply to the merged result.
    ///
    /// - Throws: ``CoreDataError``:
    ///   - the exception NSInternalInconsistencyException
    ///     (``CoreDataError/ExceptionName/internalInconsistency``) when the model has no entity of
    ///     that name (the message lists those it has);
    ///   - the exception NSInvalidArgumentException (``CoreDataError/ExceptionName/invalidArgument``)
    ///     when the request's `resultType` is not `.managedObject` (use ``execute(_:)->FetchResult``,
    ///     ``fetchObjectIDs(_:)`` or ``count(for:)``), or a SQLite store cannot translate the
    ///     predicate or a sort descriptor: a key the entity does not have
    ///     (`keypath pages not found in entity Book`), a transient attribute, a block predicate.
    ///
    ///   Evaluating in memory, a ``PredicateError`` for operands the predicate cannot compare.
    public func fetch(_ request: FetchRequest<ManagedObject>) throws -> [ManagedObject] {
        checkConfinement()
        try checkReturnsObjects(request)
        return try fetchObjects(request)
    }

    /// The objects a typed request describes, as its class (executeFetchRequest:error: with an
    /// NSFetchRequest<Book>): `try context.fetch(Book.fetchRequest())` is a `[Book]`.
    ///
    /// The objects a context makes are of their entity's class (``EntityDescription/managedObjectClass``),
    /// so a request made by `Book.fetchRequest()` always returns `Book` objects.
    ///
    /// - Throws: ``CoreDataError`` as the untyped `fetch(_:)` does, and the
    ///   exception NSInvalidArgumentException (``CoreDataError/ExceptionName/invalidArgument``)
    ///   when an object the request matches is not a `Result`: a request typed with another class
    ///   than its entity's (`FetchRequest<Book>(entityName: "Author")`), or an entity whose class
    ///   the model does not declare.
    public func fetch<Result: ManagedObject>(_ request: FetchRequest<Result>) throws -> [Result] {
        checkConfinement()
        try checkReturnsObjects(request)
        let objects = try fetchObjects(request)
        var typed: [Result] = []
        typed.reserveCapacity(objects.count)
        for object in objects {
            guard let t = object as? Result else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "A FetchRequest<\(Result.self)> for \(request.entityName) matched \(object.objectID.uriString), an object of the class \(type(of: object)), not \(Result.self): declare the entity's class in the model (EntityDescription(\"\(object.entity.name)\", class: \(Result.self).self), or XcodeModelLoader(classes:)), or fetch with FetchRequest(entityName:)",
                    objectURI: object.objectID.uriString)
            }
            typed.append(t)
        }
        return typed
    }

    /// fetch(_:) returns objects: a request for IDs, dictionaries or a count is refused.
    private func checkReturnsObjects(_ request: AnyFetchRequest) throws {
        guard request.resultType == .managedObject else {
            throw CoreDataError(
                exception: .invalidArgument,
                "fetch(_:) returns managed objects, but the request's resultType is \(request.resultType); use fetchObjectIDs(_:) or count(for:)"
            )
        }
    }

    /// The object IDs a request describes (NSManagedObjectIDResultType).
    public func fetchObjectIDs(_ request: AnyFetchRequest) throws -> [ManagedObjectID] {
        checkConfinement()
        if request.includesPendingChanges && hasChanges { return try fetchObjects(request).map(\.objectID) }
        _ = try model.entity(named: request.entityName)
        return try parentStore.objectIDs(for: request, in: self)
    }

    /// One dictionary per object or group (NSDictionaryResultType): the request's
    /// `propertiesToFetch` (every attribute by default) and expression descriptions, grouped by
    /// `propertiesToGroupBy`.
    ///
    /// Nil values are left out of the dictionaries. As Apple documents, dictionary results reflect
    /// the store and ignore the context's unsaved changes (a child context's, and its parents').
    public func fetchDictionaries(_ request: AnyFetchRequest) throws -> [[String: Any]] {
        checkConfinement()
        _ = try model.entity(named: request.entityName)
        return try parentStore.dictionaries(for: request, in: self)
    }

    /// Runs a request and returns what its `resultType` asks for.
    public func execute(_ request: AnyFetchRequest) throws -> FetchResult {
        checkConfinement()
        switch request.resultType {
        case .managedObject: return .objects(try fetchObjects(request))
        case .managedObjectID: return .objectIDs(try fetchObjectIDs(request))
        case .dictionary: return .dictionaries(try fetchDictionaries(request))
        case .count: return .count(try count(for: request))
        }
    }

    /// The number of objects a request would fetch (countForFetchRequest:error:).
    ///
    /// ```swift
    /// let request = FetchRequest(entityName: "Book")
    /// request.predicate = try Predicate(checkedFormat: "author == %@", "Zarra")
    /// let n = try context.count(for: request)
    /// ```
    ///
    /// A SQLite store counts in SQL without loading objects, unless the context has unsaved
    /// changes the count must include. The limit and offset of the request apply. The count is
    /// always the number of objects ``fetch(_:)->[ManagedObject]`` returns for the request: an atomic store,
    /// which evaluates predicates on objects, counts those objects too.
    ///
    /// - Throws: ``CoreDataError`` as ``fetch(_:)->[ManagedObject]`` does: NSInternalInconsistencyException
    ///   (``CoreDataError/ExceptionName/internalInconsistency``) for an entity the model lacks,
    ///   NSInvalidArgumentException (``CoreDataError/ExceptionName/invalidArgument``) for a
    ///   predicate the store cannot translate.
    public func count(for request: AnyFetchRequest) throws -> Int {
        checkConfinement()
        if request.includesPendingChanges && hasChanges {
            let copy = request.copy()
            copy.resultType = .managedObject
            return try fetchObjects(copy).count
        }
        _ = try model.entity(named: request.entityName)
        return try parentStore.count(for: request, in: self)
    }

    /// The objects of a request: the parent store's answer, with this context's unsaved
    /// changes laid over it when the request includes them.
    func fetchObjects(_ request: AnyFetchRequest) throws -> [ManagedObject] {
        let entity = try model.entity(named: request.entityName)
        guard request.includesPendingChanges && hasChanges else {
            let results = try storeObjects(for: request)
            try prefetch(request.relationshipKeyPathsForPrefetching, of: results)
            return results
        }
        // The parent store's answer, then this context's changes over it: objects changed or
        // deleted here leave it (changed ones are judged again on their new values), inserted
        // ones that match join it, and the window is applied to the merged result. Only the
        // head of the parent's answer can reach the window: as many objects as the window
        // ends at, and one more for each object changed or deleted here, which may drop out.
        let parentRequest = request.copy()
        parentRequest.fetchOffset = 0
        if request.fetchLimit > 0 {
            parentRequest.fetchLimit = request.fetchOffset + request.fetchLimit + updatedList.count + deletedList.count
        }
        let results = try storeObjects(for: parentRequest)
        let accepted = Set(
            (request.includesSubentities ? model.entityAndSubentities(of: entity.name) : [entity]).map(\.name))
        var merged = results.filter {
            !deletedList.contains($0) && !updatedList.contains($0) && !insertedList.contains($0)
        }
        for object in updatedList.elements + insertedList.elements
        where accepted.contains(object.entity.name) && !deletedList.contains(object) {
            if try request.predicate?.checkedEvaluate(with: object) ?? true { merged.append(object) }
        }
        if !request.sortDescriptors.isEmpty {
            merged = try SortDescriptor.sort(merged, by: request.sortDescriptors)
        } else {
            // Keep the parent's order for objects it returned, then new ones in insertion order.
            let position = Dictionary(
                results.enumerated().map { (ObjectIdentifier($1), $0) }, uniquingKeysWith: { a, _ in a })
            merged = merged.enumerated().sorted { a, b in
                (position[ObjectIdentifier(a.element)] ?? Int.max, a.offset) < (
                    position[ObjectIdentifier(b.element)] ?? Int.max, b.offset
                )
            }.map(\.element)
        }
        if request.fetchOffset > 0 { merged = Array(merged.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 { merged = Array(merged.prefix(request.fetchLimit)) }
        try prefetch(request.relationshipKeyPathsForPrefetching, of: merged)
        return merged
    }

    /// The parent store's objects for a request: faults made from IDs alone when the request
    /// does not include property values, every object loaded when it must not return faults.
    private func storeObjects(for request: AnyFetchRequest) throws -> [ManagedObject] {
        if !request.includesPropertyValues {
            let objects = try parentStore.objectIDs(for: request, in: self).map { registeredObject(for: $0) }
            if !request.returnsObjectsAsFaults { try fireFaults(objects.filter(\.isFault)) }
            return objects
        }
        let objects = try parentStore.objects(for: request, in: self)
        if !request.returnsObjectsAsFaults { try fireFaults(objects.filter(\.isFault)) }
        return objects
    }

    /// Loads the relationships named by key paths for many objects at once: one request to the
    /// parent store per relationship and level, instead of one per object.
    private func prefetch(_ keyPaths: [String], of objects: [ManagedObject]) throws {
        for keyPath in keyPaths {
            var level = objects
            for name in keyPath.split(separator: ".").map(String.init) {
                var next: [ManagedObject] = []
                for (entityName, group) in Dictionary(
                    grouping: level.filter { !insertedList.contains($0) }, by: { $0.entity.name }
                ).sorted(by: { $0.key < $1.key }) {
                    guard let entity = model.entitiesByName[entityName], let i = entity.propertyIndex[name],
                        let r = entity.relationship(named: name)
                    else {
                        throw CoreDataError(
                            exception: .invalidArgument,
                            "relationshipKeyPathsForPrefetching names \(keyPath), but \(entityName) has no relationship \(name)"
                        )
                    }
                    if r.isToMany && r.isOrdered {
                        // Ordered ones in their order, one query each.
                        for object in group {
                            try fireFault(object)
                            _ = try relatedIDs(of: object, at: i)
                        }
                        next += group.flatMap { ($0.storage[i].objectIDs ?? []).map { registeredObject(for: $0) } }
                    } else if r.isToMany {
                        let unloaded = group.filter { !$0.loadedToMany.contains(i) }
                        let related = try parentStore.relatedIDs(
                            of: unloaded.map(\.objectID), relationship: r, in: self)
                        try fireFaults(unloaded)
                        for object in unloaded {
                            object.storage[i] = .objectIDs(related[object.objectID] ?? [])
                            object.loadedToMany.insert(i)
                        }
                        next += group.flatMap { ($0.storage[i].objectIDs ?? []).map { registeredObject(for: $0) } }
                    } else {
                        try fireFaults(group)
                        next += group.compactMap { ($0.storage[i].objectID).map { registeredObject(for: $0) } }
                    }
                }
                try fireFaults(next)
                level = next
            }
        }
    }
}
