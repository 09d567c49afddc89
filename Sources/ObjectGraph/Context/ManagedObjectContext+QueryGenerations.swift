import Foundation

/// Where a context is in its query generations: not pinned, waiting to pin at its next read,
/// or pinned to a generation.
enum QueryGenerationState {
    case unpinned
    case pinsAtNextRead
    case pinned(QueryGeneration)
}

/// Query generations: a context that reads the stores as they were at one moment (Apple's
/// "Accessing data when the store changes"; the rules are those of NSManagedObjectContext.h).
extension ManagedObjectContext {
    /// The generation of the stores' data this context reads, or nil when it is not pinned
    /// and reads them as they are now (queryGenerationToken). A child context returns nil:
    /// it reads through its parent.
    ///
    /// A context set to ``QueryGenerationToken/current`` pins at its next read; asking for its
    /// token is such a read, so that the token names a generation another context can share.
    /// Pinning can fail where the store cannot be read; the token is then nil, and the
    /// context's next fetch throws the store's error.
    public var queryGenerationToken: QueryGenerationToken? {
        guard parent == nil else { return nil }
        return (try? pinnedGeneration()).flatMap { $0.map(QueryGenerationToken.init(generation:)) }
    }

    /// Sets the generation this context reads (setQueryGenerationFrom(_:)): nil to read the
    /// stores as they are now, ``QueryGenerationToken/current`` to pin at the generation
    /// current at its next read, or another context's ``queryGenerationToken`` to read what
    /// that context reads.
    ///
    /// ```swift
    /// try viewContext.setQueryGenerationFrom(.current)
    /// let titles = try viewContext.fetch(request)       // pins here
    /// try background.save()                              // viewContext does not see it
    /// try viewContext.setQueryGenerationFrom(.current)   // until it moves on
    /// ```
    ///
    /// Only SQLite stores in WAL journal mode (the default) keep generations, as on Apple's
    /// platforms; a pinned context reads atomic, in-memory and PostgreSQL stores as they are
    /// now. Generations are for fetched data only: a pinned context's save checks conflicts
    /// against the stores as they are, then moves the context to the generation after it.
    /// ``reset()`` and ``mergeChanges(fromContextDidSave:)`` move it to the current
    /// generation too; batch update and delete requests do not.
    ///
    /// - Throws: ``CoreDataError`` for the exception NSInvalidArgumentException when the
    ///   context is a child (Apple: "It is a programmer error to try to set the
    ///   queryGenerationToken on a child context"), when the token is another coordinator's,
    ///   or when a SQLite store of the coordinator is not in WAL journal mode.
    public func setQueryGenerationFrom(_ generation: QueryGenerationToken?) throws {
        checkConfinement()
        guard let generation else {
            queryGenerationState.withLock { $0 = .unpinned }
            return
        }
        guard parent == nil else {
            throw CoreDataError(
                exception: .invalidArgument,
                "The query generation of \(displayName) cannot be set: it is a child context; it reads through its parent, whose query generation it uses. Set the generation on the parent (Apple: \"It is a programmer error to try to set the queryGenerationToken on a child context\")"
            )
        }
        if let pinned = generation.generation {
            guard pinned.coordinator == ObjectIdentifier(coordinator) else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "The query generation token \(generation) belongs to another persistent store coordinator's stores: \(displayName) can read only a generation of its own coordinator"
                )
            }
            queryGenerationState.withLock { $0 = .pinned(pinned) }
            return
        }
        for store in coordinator.persistentStores {
            if let refusal = store.backend.queryGenerationRefusal {
                throw CoreDataError(exception: .invalidArgument, refusal)
            }
        }
        queryGenerationState.withLock { $0 = .pinsAtNextRead }
    }

    /// The generation this context reads, pinning it first if it waits to; nil when unpinned.
    func pinnedGeneration() throws -> QueryGeneration? {
        try queryGenerationState.withLock { state in
            switch state {
            case .unpinned: return nil
            case .pinned(let generation): return generation
            case .pinsAtNextRead:
                let generation = try QueryGeneration(of: coordinator)
                state = .pinned(generation)
                return generation
            }
        }
    }

    /// Moves a pinned context to the current generation at its next read: after a save,
    /// reset or merge. An unpinned context stays unpinned.
    func advanceQueryGeneration() {
        queryGenerationState.withLock { state in
            if case .pinned = state { state = .pinsAtNextRead }
        }
    }

    /// Runs a read of the stores in the generation the context's root is pinned to, if any:
    /// the coordinator calls it around each read a context asks of it. Reads a save makes
    /// use the stores as they are now.
    func readingStores<Result>(_ read: () throws -> Result) throws -> Result {
        var root = self
        while let parent = root.parent { root = parent }
        guard !QueryGenerationScope.isSuspended, let generation = try root.pinnedGeneration() else {
            return try read()
        }
        return try QueryGenerationScope.$generation.withValue(generation, operation: read)
    }
}
