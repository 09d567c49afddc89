import Foundation

extension MigrationManager {
    /// The three passes of Core Data's migration manager (create, relationships, validate;
    /// <doc:WritingACustomMigrationPolicy>), each mapping in order, each streamed.
    func runMigration(
        from sourceURL: URL, type sourceType: StoreType, options sourceOptions: [String: Any],
        with mapping: MappingModel, to destinationURL: URL, type destinationType: StoreType,
        options destinationOptions: [String: Any]
    ) throws {
        cancellation = nil
        mappingModel = mapping
        let state = try MigrationState(
            sourceURL: sourceURL, sourceType: sourceType, sourceOptions: sourceOptions, sourceModel: sourceModel,
            destinationURL: destinationURL, destinationType: destinationType,
            destinationOptions: destinationOptions, destinationModel: destinationModel, mapping: mapping, log: sqlLog)
        self.state = state
        migrationProgress = 0
        defer {
            state.close()
            self.state = nil
            currentEntityMapping = nil
            migrationProgress = 1
        }
        let policies = try mapping.entityMappings.map(policy(for:))
        // Progress: every source instance once per pass.
        var counts: [Int] = []
        for m in mapping.entityMappings {
            counts.append(try sourceRequest(for: m).map { try state.sourceContext.count(for: $0) } ?? 0)
        }
        var progress = ProgressCounter(total: counts.reduce(0, +) * 3, handler: progressHandler) { [weak self] in
            self?.migrationProgress = $0
        }

        // Pass 1: create the destination instances and their attributes, and, where the
        // policy leaves relationship creation to the base class and the related instances
        // exist, their relationships (so each row is written once).
        var relatedInFirstPass = [Bool](repeating: false, count: mapping.entityMappings.count)
        for (i, m) in mapping.entityMappings.enumerated() {
            currentEntityMapping = m
            try policies[i].begin(m, with: self)
            try checkCancelled()
            var relates = relatesInFirstPass(mappingIndex: i, policy: policies[i])
            var related = Set<ObjectIdentifier>()
            if let request = try sourceRequest(for: m) {
                try forEachSourceBatch(request, mapping: m, state: state) { sources in
                    let start = state.pendingCount
                    for source in sources {
                        try perform(m) {
                            try policies[i].createDestinationInstances(forSource: source, in: m, manager: self)
                        }
                        try checkCancelled()
                    }
                    if relates {
                        relates = try relateInFirstPass(
                            mappingIndex: i, policy: policies[i], state: state, from: start, seen: &related)
                    }
                    progress.advance(by: sources.count, pass: 1, mapping: m.name)
                    if state.savesEachBatch { try saveDestination(state, pass: 1) }
                }
            } else if let expression = m.sourceExpression {
                // Any other source expression: its value is the collection of source instances.
                let value = try evaluate(
                    expression, source: nil, destination: nil, mapping: m, propertyMapping: nil, policy: policies[i])
                let sources = (KeyPathResolver.collectionElements(value) ?? []).compactMap { $0 as? ManagedObject }
                let start = state.pendingCount
                for source in sources {
                    try perform(m) {
                        try policies[i].createDestinationInstances(forSource: source, in: m, manager: self)
                    }
                    try checkCancelled()
                }
                if relates {
                    relates = try relateInFirstPass(
                        mappingIndex: i, policy: policies[i], state: state, from: start, seen: &related)
                }
            } else {
                relates = false
            }
            relatedInFirstPass[i] = relates
            try policies[i].endInstanceCreation(forMapping: m, manager: self)
            try checkCancelled()
            try saveDestination(state, pass: 1)
            progress.report(pass: 1, mapping: m.name)
        }
        try state.associations.indexDestinations()

        // Pass 2: relationships, for each destination instance of each mapping not related
        // in the first pass.
        for (i, m) in mapping.entityMappings.enumerated() {
            currentEntityMapping = m
            if relatedInFirstPass[i] {
                // Nothing to load or write: the progress counts the instances as done.
                var left = state.associations.countByMapping[i] ?? 0
                while left > 0 {
                    let n = min(left, max(1, batchSize))
                    progress.advance(by: n, pass: 2, mapping: m.name)
                    left -= n
                }
            } else {
                try forEachDestinationBatch(mappingIndex: i, state: state) { destinations in
                    for destination in destinations {
                        try perform(m) {
                            try policies[i].createRelationships(forDestination: destination, in: m, manager: self)
                        }
                        try checkCancelled()
                    }
                    progress.advance(by: destinations.count, pass: 2, mapping: m.name)
                    if state.savesEachBatch { try saveDestination(state, pass: 2) }
                }
            }
            try policies[i].endRelationshipCreation(forMapping: m, manager: self)
            try checkCancelled()
            try saveDestination(state, pass: 2)
            progress.report(pass: 2, mapping: m.name)
        }

        // Pass 3: the model's validation, then the policies' own.
        for (i, m) in mapping.entityMappings.enumerated() {
            currentEntityMapping = m
            if try !validateInSQL(mappingIndex: i, state: state, progress: &progress) {
                try forEachDestinationBatch(mappingIndex: i, state: state) { destinations in
                    try Validation.validate(
                        inserted: [], updated: destinations, deleted: [], context: state.destinationContext)
                    progress.advance(by: destinations.count, pass: 3, mapping: m.name)
                    if state.savesEachBatch { state.destinationContext.reset() }
                }
            }
            try policies[i].performCustomValidation(forMapping: m, manager: self)
            try checkCancelled()
            try policies[i].end(m, manager: self)
            try checkCancelled()
            progress.report(pass: 3, mapping: m.name)
        }
        state.destinationContext.migrationRole?.validatesOnSave = true
        do {
            try state.destinationContext.save()
        } catch let error as CoreDataError {
            throw CoreDataError(.migration, "Failed to save new store: \(error.message)", detailedErrors: [error])
        }
        progress.finish()
    }

    private func policy(for mapping: EntityMapping) throws -> EntityMigrationPolicy {
        if let type = mapping.entityMigrationPolicyType { return type.init() }
        if let name = mapping.entityMigrationPolicyClassName, !name.isEmpty, name != "NSEntityMigrationPolicy",
            name != "EntityMigrationPolicy"
        {
            guard let type = EntityMigrationPolicy.registeredClass(named: name) else {
                throw CoreDataError(
                    .entityMigrationPolicy,
                    "The entity mapping \(mapping.name) names the policy class \(name), which is not registered: call EntityMigrationPolicy.register(\(name.split(separator: ".").last ?? "").self, as: \"\(name)\") first, or set entityMigrationPolicyType"
                )
            }
            return type.init()
        }
        if mapping.mappingType == .custom {
            throw CoreDataError(
                .entityMigrationPolicy,
                "The custom entity mapping \(mapping.name) needs a policy: set entityMigrationPolicyType or entityMigrationPolicyClassName"
            )
        }
        return EntityMigrationPolicy()
    }

    /// The fetch request of a mapping's source expression, if it is Xcode's FETCH (or none):
    /// those source instances are streamed. Nil for add and remove mappings.
    private func sourceRequest(for mapping: EntityMapping) throws -> AnyFetchRequest? {
        guard mapping.mappingType != .add, mapping.mappingType != .remove, mapping.destinationEntityName != nil,
            let sourceName = mapping.sourceEntityName
        else { return nil }
        guard let expression = mapping.sourceExpression else {
            return try fetchRequest(forSourceEntityNamed: sourceName, predicateString: "TRUEPREDICATE")
        }
        guard case .function("FETCH", let arguments) = expression, arguments.count == 3 else { return nil }
        let value = try evaluate(
            arguments[0], source: nil, destination: nil, mapping: mapping, propertyMapping: nil, policy: nil)
        guard let request = value as? AnyFetchRequest else {
            throw CoreDataError(
                .migration, "The source expression of \(mapping.name) does not yield a fetch request: \(expression)")
        }
        return request
    }

    private func forEachSourceBatch(
        _ request: AnyFetchRequest, mapping: EntityMapping, state: MigrationState,
        body: ([ManagedObject]) throws -> Void
    ) throws {
        var after: Int64 = 0
        while true {
            let rows = try state.sourceStore.backend.fetchRows(
                request, afterPrimaryKey: after, limit: batchSize, model: sourceModel)
            guard let last = rows.last else { return }
            after = last.primaryKey
            try body(state.sourceContext.objects(from: rows, store: state.sourceStore))
            if state.savesEachBatch { state.sourceContext.reset() }
            if rows.count < batchSize { return }
        }
    }

    private func forEachDestinationBatch(
        mappingIndex: Int, state: MigrationState, body: ([ManagedObject]) throws -> Void
    ) throws {
        guard state.mappings[mappingIndex].destinationEntityName != nil else { return }
        var after: Int64 = 0
        let sourceStoreID = state.sourceStore.identifier
        defer {
            state.batchMapping = -1
            state.batchSources = [:]
        }
        while true {
            let pairs = try state.associations.destinationBatch(mapping: mappingIndex, after: after, limit: batchSize)
            guard let last = pairs.last else { return }
            after = last.destination
            state.batchMapping = mappingIndex
            state.batchSources = [:]
            var destinationKeys: [(EntityDescription, Int64)] = []
            var sourceKeys: [(EntityDescription, Int64)] = []
            destinationKeys.reserveCapacity(pairs.count)
            sourceKeys.reserveCapacity(pairs.count)
            for p in pairs {
                guard let d = destinationModel.entitiesByNumber[p.destinationEntity],
                    let s = sourceModel.entitiesByNumber[p.sourceEntity]
                else { continue }
                state.batchSources[p.destination] = ManagedObjectID(
                    entityName: s.name, storeIdentifier: sourceStoreID, primaryKey: p.source)
                destinationKeys.append((d, p.destination))
                sourceKeys.append((s, p.source))
            }
            let destinations = try objects(
                destinationKeys, from: state.destinationStore, into: state.destinationContext)
            let sources = try objects(sourceKeys, from: state.sourceStore, into: state.sourceContext)
            try state.destinationContext.fireFaults(destinations)
            try state.sourceContext.fireFaults(sources)
            try body(destinations)
            if state.savesEachBatch { state.sourceContext.reset() }
            if pairs.count < batchSize { return }
        }
    }

    /// The third pass of a mapping on a SQLite destination with nothing unsaved: SQL finds
    /// the rows that may fail the model's checks, and only those objects are loaded and
    /// validated, with the same errors. False when the checks need every object in memory.
    private func validateInSQL(mappingIndex i: Int, state: MigrationState, progress: inout ProgressCounter) throws
        -> Bool
    {
        guard state.savesEachBatch, !state.destinationContext.hasChanges else { return false }
        let store = state.destinationStore.backend
        let m = state.mappings[i]
        guard m.destinationEntityName != nil else { return true }
        var suspects: [ManagedObjectID] = []
        for number in (state.associations.destinationEntitiesByMapping[i] ?? []).sorted() {
            guard let entity = destinationModel.entitiesByNumber[number] else { continue }
            guard let keys = try store.keysFailingSimpleValidation(of: entity) else { return false }
            guard !keys.isEmpty else { continue }
            // Only the rows this mapping made (the store may hold others).
            let associated = Set(
                try state.associations.pairs(mapping: i, destinations: keys).filter { $0.destinationEntity == number }
                    .map(\.destination))
            suspects += keys.filter(associated.contains).map {
                ManagedObjectID(
                    entityName: entity.name, storeIdentifier: state.destinationStore.identifier, primaryKey: $0)
            }
        }
        suspects.sort { $0.primaryKey < $1.primaryKey }
        for start in stride(from: 0, to: suspects.count, by: batchSize) {
            let objects = suspects[start..<min(start + batchSize, suspects.count)].map(
                state.destinationContext.object(with:))
            try state.destinationContext.fireFaults(objects)
            try Validation.validate(inserted: [], updated: objects, deleted: [], context: state.destinationContext)
            state.destinationContext.reset()
        }
        progress.advance(by: state.associations.countByMapping[i] ?? 0, pass: 3, mapping: m.name)
        return true
    }

    /// The objects of a batch's keys, in order: each entity's keys read with one key-range
    /// fetch where they are dense (the usual case: a migration writes and reads in key
    /// order), the objects made straight from the rows, so that each is registered once and
    /// not first as a fault (Benchmarks/PROFILES.md, "key-range reads"). Keys left over are
    /// faults, for `fireFaults`.
    private func objects(
        _ keys: [(entity: EntityDescription, key: Int64)], from store: PersistentStore,
        into context: ManagedObjectContext
    ) throws -> [ManagedObject] {
        // Per entity number, then key: entities of other tables may share keys.
        var loaded: [Int: [Int64: ManagedObject]] = [:]
        // SQL stores read a key range in one query (fetchRows(afterPrimaryKey:limit:)).
        if store.backend.readsKeyRanges {
            // Entities in the order they first appear, so the reads come in a fixed order.
            var order: [Int] = []
            var byEntity: [Int: (entity: EntityDescription, keys: [Int64])] = [:]
            for (entity, key) in keys {
                if byEntity[entity.entityNumber] == nil {
                    order.append(entity.entityNumber)
                    byEntity[entity.entityNumber] = (entity, [])
                }
                byEntity[entity.entityNumber]?.keys.append(key)
            }
            for number in order {
                guard let (entity, entityKeys) = byEntity[number], let low = entityKeys.min(),
                    let high = entityKeys.max(),
                    high - low < 2 * Int64(entityKeys.count) + 64
                else { continue }
                let request = FetchRequest(entityName: entity.name)
                request.includesSubentities = false
                let wanted = Set(entityKeys)
                let rows = try store.backend.fetchRows(
                    request, afterPrimaryKey: low - 1, limit: Int(high - low + 1), model: context.model)
                var objects: [Int64: ManagedObject] = [:]
                objects.reserveCapacity(entityKeys.count)
                for object in try context.objects(from: rows.filter { wanted.contains($0.primaryKey) }, store: store) {
                    objects[object.objectID.primaryKey] = object
                }
                loaded[number] = objects
            }
        }
        var result: [ManagedObject] = []
        result.reserveCapacity(keys.count)
        for (entity, key) in keys {
            result.append(
                loaded[entity.entityNumber]?[key]
                    ?? context.object(
                        with: ManagedObjectID(
                            entityName: entity.name, storeIdentifier: store.identifier, primaryKey: key)))
        }
        return result
    }

    private func saveDestination(_ state: MigrationState, pass: Int) throws {
        // The context is reset right after: the save need not re-register the objects.
        state.destinationContext.migrationRole?.resetsAfterEachSave = state.savesEachBatch
        defer { state.destinationContext.migrationRole?.resetsAfterEachSave = false }
        do {
            try state.destinationContext.save()
        } catch let error as CoreDataError {
            let which = pass == 1 ? "first" : "second"
            throw CoreDataError(
                .migration, "Failed to save new store after \(which) pass of migration: \(error.message)",
                detailedErrors: [error])
        }
        try state.flushPending()
        if state.savesEachBatch { state.destinationContext.reset() }
    }

    func checkCancelled() throws {
        if let error = cancellation { throw error }
    }

    /// Runs a policy call; a failing value expression becomes 134170 naming the mapping.
    func perform(_ mapping: EntityMapping, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as PredicateError {
            throw CoreDataError(.entityMigrationPolicy, "The entity mapping \(mapping.name) failed: \(error.message)")
        }
    }

    /// Evaluates a value or source expression with the migration variables.
    func evaluate(
        _ expression: Expression, source: ManagedObject?, destination: ManagedObject?, mapping: EntityMapping,
        propertyMapping: PropertyMapping?, policy: EntityMigrationPolicy?
    ) throws -> Any? {
        var variables: [String: Any] = ["manager": self, "entityMapping": mapping]
        variables["source"] = source ?? NSNull()
        variables["destination"] = destination ?? NSNull()
        if let propertyMapping { variables["propertyMapping"] = propertyMapping.name }
        if let policy { variables["entityPolicy"] = policy }
        return try expression.expressionValue(with: source, substitutionVariables: variables)
    }

    /// Whether a to-many relationship gets its value from its to-one inverse's mapping: the
    /// link is stored on the to-one side, so setting both would only load large sets. Only
    /// the manager's own lookups are skipped; any other expression is evaluated.
    func isFilledFromInverse(
        _ relationship: RelationshipDescription, of entity: EntityDescription, expression: Expression
    ) -> Bool {
        guard relationship.isToMany, case .customFunction(.variable("manager"), let selector, _) = expression,
            selector == "destinationInstancesForEntityMappingNamed:sourceInstances:"
                || selector == "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
            let target = destinationModel.entitiesByName[relationship.destinationEntityName],
            let inverse = destinationModel.inverseRelationship(of: relationship), !inverse.isToMany,
            let mappings = mappingModel?.entityMappings
        else { return false }
        return mappings.contains { m in
            guard let name = m.destinationEntityName, destinationModel.isEntity(name, kindOf: target.name) else {
                return false
            }
            return m.relationshipMappings.contains { $0.name == inverse.name && $0.valueExpression != nil }
        }
    }

    /// A relationship mapping's value as the relationship takes it: one object or an array of them.
    static func relationshipValue(_ value: Any?, toMany: Bool) -> Any? {
        var objects: [ManagedObject] = []
        // The manager's lookups answer an array: tried first, since each failed cast costs
        // (Benchmarks/PROFILES.md, "relationship value casts").
        if let array = value as? [ManagedObject] {
            objects = array
        } else if let one = value as? ManagedObject {
            objects = [one]
        } else if let set = value as? Set<ManagedObject> {
            objects = Array(set)
        } else if let array = value as? [Any] {
            objects = array.compactMap { $0 as? ManagedObject }
        }
        // An array, not a set: an ordered relationship keeps the source's order.
        return toMany ? objects : objects.first
    }
}

/// Counts processed objects and reports progress at most every 1/1000.
struct ProgressCounter {
    let total: Int
    let handler: MigrationProgressHandler?
    let setFraction: (Float) -> Void
    private var done = 0
    private var lastReported: Float = -1

    init(total: Int, handler: MigrationProgressHandler?, setFraction: @escaping (Float) -> Void) {
        self.total = total
        self.handler = handler
        self.setFraction = setFraction
    }

    mutating func advance(by n: Int, pass: Int, mapping: String) {
        done += n
        let fraction = total == 0 ? 0 : min(1, Float(done) / Float(total))
        setFraction(fraction)
        if fraction - lastReported >= 0.001 { report(pass: pass, mapping: mapping) }
    }

    mutating func report(pass: Int, mapping: String?) {
        let fraction = total == 0 ? Float(pass) / 3 : min(1, Float(done) / Float(total))
        lastReported = fraction
        handler?(
            MigrationProgress(
                fractionCompleted: fraction, pass: pass, entityMappingName: mapping, completedUnits: done,
                totalUnits: total))
    }

    mutating func finish() {
        done = total
        setFraction(1)
        lastReported = 1
        handler?(
            MigrationProgress(
                fractionCompleted: 1, pass: 3, entityMappingName: nil, completedUnits: total, totalUnits: total))
    }
}
