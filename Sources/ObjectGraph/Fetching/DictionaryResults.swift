import Foundation

/// The result of a fetch, by the request's result type.
public enum FetchResult {
    /// `.managedObject`: the objects.
    case objects([ManagedObject])
    /// `.managedObjectID`: their IDs.
    case objectIDs([ManagedObjectID])
    /// `.dictionary`: one dictionary per object or group.
    case dictionaries([[String: Any]])
    /// `.count`: how many objects match.
    case count(Int)
}

/// Builds dictionary results in memory, for stores that evaluate fetches in Swift: the
/// columns of `propertiesToFetch`, grouped by `propertiesToGroupBy`, aggregates computed per
/// group, `havingPredicate` applied to the groups, then distinct, offset and limit.
enum DictionaryResults {
    /// An aggregate function of an expression description and the key path it reads.
    struct Aggregate {
        let function: String
        let keyPath: String?
        /// The whole expression, `function(keyPath)`.
        let expression: Expression
    }

    /// The aggregate an expression description computes, or an error naming what is not one.
    static func aggregate(of description: ExpressionDescription) throws -> Aggregate {
        guard let expression = description.expression else {
            throw CoreDataError(
                exception: .invalidArgument,
                "The expression description \"\(description.name)\" has no expression; set its expression, such as max:(salesRank)"
            )
        }
        guard case .function(let selector, let arguments) = expression,
            ["count:", "sum:", "min:", "max:", "average:"].contains(selector), arguments.count == 1
        else {
            throw CoreDataError(
                exception: .invalidArgument,
                "Unsupported function expression \(expression) in the expression description \(description.name); use count:, sum:, min:, max: or average: of a key path"
            )
        }
        switch arguments[0] {
        case .keyPath(let path): return Aggregate(function: selector, keyPath: path, expression: expression)
        case .evaluatedObject: return Aggregate(function: selector, keyPath: nil, expression: expression)
        default:
            throw CoreDataError(
                exception: .invalidArgument,
                "Unsupported function expression \(expression): the argument must be a key path")
        }
    }

    /// The key of a property in result dictionaries.
    static func name(of property: AnyFetchRequest.Property) -> String {
        switch property {
        case .attribute(let key): return key
        case .computed(let e): return e.name
        }
    }

    /// Checks the properties against the entity: attributes and to-one relationships only.
    static func validate(_ request: AnyFetchRequest, entity: EntityDescription) throws {
        for property in (request.fetchedProperties ?? []) + (request.groupedProperties ?? []) {
            guard case .attribute(let key) = property else { continue }
            let first = String(key.split(separator: ".").first ?? "")
            if let r = entity.relationship(named: first), r.isToMany {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "Invalid to-many relationship \(key) in setPropertiesToFetch: dictionary results hold attributes, to-one relationships and expressions"
                )
            }
            if entity.attribute(named: first) == nil && entity.relationship(named: first) == nil {
                throw CoreDataError(exception: .invalidArgument, "keypath \(key) not found in entity \(entity.name)")
            }
        }
        if request.havingPredicate != nil && (request.groupedProperties ?? []).isEmpty {
            throw CoreDataError(exception: .invalidArgument, "havingPredicate needs propertiesToGroupBy")
        }
    }

    /// Dictionary results from matching, sorted objects.
    static func build(
        _ request: AnyFetchRequest, entity: EntityDescription, objects: [KeyValueCoding], identify: (Any?) -> Any?
    ) throws -> [[String: Any]] {
        let properties =
            request.fetchedProperties ?? entity.attributes.filter { !$0.isTransient }.map { .named($0.name) }
        let groupBy = request.groupedProperties ?? []
        let hasAggregates = properties.contains {
            if case .computed = $0 { return true }
            return false
        }
        func value(_ object: KeyValueCoding, _ key: String) throws -> Any? {
            identify(try KeyPathResolver.value(of: object, keyPath: key))
        }
        var results: [[String: Any]] = []
        if groupBy.isEmpty && !hasAggregates {
            for object in objects {
                var row: [String: Any] = [:]
                for case .attribute(let key) in properties {
                    if let v = try value(object, key) { row[key] = v }
                }
                results.append(row)
            }
        } else {
            // Groups in order of first appearance, so sorted input gives sorted groups.
            var groups: [[Any?]] = []
            var members: [[KeyValueCoding]] = []
            for object in objects {
                let key = try groupBy.map { property -> Any? in
                    guard case .attribute(let k) = property else {
                        throw CoreDataError(
                            exception: .invalidArgument, "propertiesToGroupBy takes property names, not expressions")
                    }
                    return try value(object, k)
                }
                if let i = groups.firstIndex(where: { zip($0, key).allSatisfy { ValueComparison.equal($0, $1, []) } }) {
                    members[i].append(object)
                } else {
                    groups.append(key)
                    members.append([object])
                }
            }
            if groupBy.isEmpty && groups.isEmpty {
                groups = [[]]
                members = [[]]
            }
            for (key, group) in zip(groups, members) {
                var row: [String: Any] = [:]
                for property in properties {
                    switch property {
                    case .attribute(let k):
                        if let i = groupBy.firstIndex(of: property) {
                            if let v = key[i] { row[k] = v }
                        } else if let first = group.first, let v = try value(first, k) {
                            row[k] = v
                        }
                    case .computed(let description):
                        let aggregate = try aggregate(of: description)
                        let values = try group.compactMap { object -> Any? in
                            guard let path = aggregate.keyPath else { return object }
                            return try value(object, path)
                        }
                        if let v = try compute(aggregate.function, values, type: description.expressionResultType) {
                            row[description.name] = v
                        }
                    }
                }
                results.append(row)
            }
            if let having = request.havingPredicate {
                results = try results.filter { try having.checkedEvaluate(with: $0) }
            }
        }
        if request.returnsDistinctResults {
            var unique: [[String: Any]] = []
            for row in results where !unique.contains(where: { ValueComparison.equal($0, row, []) }) {
                unique.append(row)
            }
            results = unique
        }
        if request.fetchOffset > 0 { results = Array(results.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 { results = Array(results.prefix(request.fetchLimit)) }
        return results
    }

    /// An aggregate over a group's values, as SQL computes it: nil over nothing except count.
    static func compute(_ function: String, _ values: [Any], type: AttributeType) throws -> Any? {
        if function == "count:" { return values.count }
        guard !values.isEmpty else { return nil }
        let result = try BuiltinFunctions.call(function, [values])
        return convert(result, to: type)
    }

    /// A computed value in the expression description's result type.
    static func convert(_ value: Any?, to type: AttributeType) -> Any? {
        guard let value, let n = Number(value) else { return value }
        switch type {
        case .integer16, .integer32, .integer64: return n.exactInt ?? Int(n.doubleValue)
        case .double, .float: return n.doubleValue
        case .decimal: return n.decimalValue
        case .boolean: return n.doubleValue != 0
        case .date: return Date(timeIntervalSinceReferenceDate: n.doubleValue)
        default: return value
        }
    }
}
