import Foundation

/// Checks objects against their model before a save, with Core Data's error codes.
///
/// An object of a ManagedObject subclass is asked through its hooks (validateForInsert,
/// validateForUpdate, validateForDelete, and through them validateValue(_:forKey:)), which a
/// subclass may override; a plain ManagedObject, which overrides nothing, is checked here
/// directly, reading its values in place (the same checks, without a call per property).
enum Validation {
    static func validate(
        inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject], context: ManagedObjectContext
    ) throws {
        var errors: [any Error] = []
        let deletedSet = Set(deleted.map(ObjectIdentifier.init))
        // The checks below read values in place, so every object must have its values: load
        // the faults among them (a migration validates objects it has not read) in one batch.
        let faults = updated.filter(\.isFault)
        if !faults.isEmpty { try context.fireFaults(faults) }
        // The closures are literals at the calls, so that the checks are specialized for them.
        for object in inserted {
            if type(of: object) == ManagedObject.self {
                let found = try modelErrors(of: object) { deletedSet.contains(ObjectIdentifier($0)) }
                if !found.isEmpty { errors += found }
            } else {
                collect(into: &errors) { try object.validateForInsert() }
            }
        }
        for object in updated {
            if type(of: object) == ManagedObject.self {
                let found = try modelErrors(of: object) { deletedSet.contains(ObjectIdentifier($0)) }
                if !found.isEmpty { errors += found }
            } else {
                collect(into: &errors) { try object.validateForUpdate() }
            }
        }
        for object in deleted {
            if type(of: object) == ManagedObject.self {
                errors += try denyErrors(of: object) { deletedSet.contains(ObjectIdentifier($0)) }
            } else {
                collect(into: &errors) { try object.validateForDelete() }
            }
        }
        try throwCombined(errors)
    }

    /// Runs one hook, keeping what it throws; a 1560 error counts as the errors it holds, so that
    /// a save's 1560 lists each error once, whichever hook found it.
    static func collect(into errors: inout [any Error], _ body: () throws -> Void) {
        do {
            try body()
        } catch let error as CoreDataError where error.code == .multipleErrors && !error.detailedErrors.isEmpty {
            errors += error.detailedErrors as [any Error]
        } catch {
            errors.append(error)
        }
    }

    /// Throws nothing for no error, the error itself for one, and 1560
    /// (NSValidationMultipleErrorsError) holding each for several. An error of the
    /// application's own type is kept as is when alone, and described in a 1550 among others.
    static func throwCombined(_ errors: [any Error]) throws {
        if errors.isEmpty { return }
        if errors.count == 1 { throw errors[0] }
        let detailed = errors.map { ($0 as? CoreDataError) ?? CoreDataError(.validation, String(describing: $0)) }
        throw CoreDataError(
            .multipleErrors,
            "Multiple validation errors occurred:\n" + detailed.map { "  - \($0.description)" }.joined(separator: "\n"),
            detailedErrors: detailed)
    }

    /// A validation error about one property of an object, naming the entity, key and object.
    static func failure(_ object: ManagedObject, _ code: CoreDataError.Code, _ key: String, _ message: String)
        -> CoreDataError
    {
        // The URI only for an error: building it for every object was most of a save.
        let uri = object.objectID.uriString
        return CoreDataError(code, "\(object.entity.name).\(key) of \(uri): \(message)", objectURI: uri, key: key)
    }

    /// Deny: an object may not be deleted while a Deny relationship still holds objects that
    /// are not deleted too (error 1600).
    static func denyErrors(of object: ManagedObject, isDeleted: (ManagedObject) -> Bool) throws -> [CoreDataError] {
        var errors: [CoreDataError] = []
        for r in object.entity.relationships where r.deleteRule == .deny {
            let value = try object.checkedValue(forKey: r.name)
            let related = members(value)
            if related.contains(where: { !isDeleted($0) }) {
                errors.append(
                    CoreDataError(
                        .relationshipDeniedDelete,
                        "\(object.objectID.uriString) can't be deleted: its relationship \(r.name) uses the Deny rule and still holds \(related.count) object\(related.count == 1 ? "" : "s")",
                        objectURI: object.objectID.uriString, key: r.name))
            }
        }
        return errors
    }

    /// The objects a relationship value holds: a to-one's object, a to-many's set or array.
    static func members(_ value: Any?) -> [ManagedObject] {
        (value as? Set<ManagedObject>).map(Array.init) ?? (value as? [ManagedObject]) ?? (value as? ManagedObject).map {
            [$0]
        } ?? []
    }

    /// The model's checks of one property's value: what validateValue(_:forKey:) runs by default.
    static func errors(of object: ManagedObject, property i: Int, value: Any?) -> [CoreDataError] {
        var errors: [CoreDataError] = []
        func fail(_ code: CoreDataError.Code, _ key: String, _ message: String) {
            errors.append(failure(object, code, key, message))
        }
        let shared = object.entity.shared
        if i < shared.attributeCount {
            check(value, attribute: shared.attributes[i], fail: fail)
        } else {
            let context = object.managedObjectContext
            check(
                value, relationship: shared.relationships[i - shared.attributeCount],
                isDeleted: { context?.isDeleted($0) ?? false }, fail: fail)
        }
        return errors
    }

    /// The model's checks of every property of an object whose values are loaded, reading them
    /// in place, in property order; `isDeleted` says which related objects don't count. With
    /// `transient`, transient attributes are checked too: then the errors are exactly what
    /// validateValue(_:forKey:) finds for each property by default.
    static func modelErrors(of object: ManagedObject, transient: Bool = false, isDeleted: (ManagedObject) -> Bool)
        throws -> [CoreDataError]
    {
        var errors: [CoreDataError] = []
        func fail(_ code: CoreDataError.Code, _ key: String, _ message: String) {
            errors.append(failure(object, code, key, message))
        }
        // Only the attributes with something to check (mandatory, bounded or with a pattern),
        // by index, read in place: copying each description cost more than checking it.
        let shared = object.entity.shared
        let isBounded = shared.isBoundedAttribute
        for i in transient ? shared.keyValidatedAttributes : shared.validatedAttributes {
            // Stored values are never wrapped optionals (setting a value unwraps it), so a
            // mandatory attribute without bounds needs only the nil test, without copying the
            // value or reading the description.
            if !isBounded[i] && !object.storage[i].isNull { continue }
            check(object.storage[i].any, attribute: shared.attributes[i], fail: fail)
        }
        for r in object.entity.relationships {
            // A relationship with nothing to check is not loaded (a to-many's set can be as
            // large as the store).
            if !r.hasSaveChecks { continue }
            check(
                try object.checkedValue(forKey: r.name), relationship: r, isDeleted: isDeleted, fail: fail)
        }
        return errors
    }

    /// An attribute's value against the attribute: mandatory, bounds, pattern.
    private static func check(
        _ stored: Any?, attribute a: AttributeDescription, fail: (CoreDataError.Code, String, String) -> Void
    ) {
        guard let value = unwrapOptional(stored) else {
            if !a.isOptional { fail(.missingMandatoryProperty, a.name, "is a required value") }
            return
        }
        // Nothing else to check without bounds or a pattern (the common case).
        if a.maxValue == nil && a.minValue == nil && a.regularExpression == nil { return }
        if a.attributeType.isNumeric, let n = Number(value) {
            if let max = a.maxValue, n.doubleValue > max {
                fail(
                    .numberTooLarge, a.name,
                    "\(ManagedObject.describe(value)) is larger than the maximum \(PredicatePrinter.formatDouble(max))")
            }
            if let min = a.minValue, n.doubleValue < min {
                fail(
                    .numberTooSmall, a.name,
                    "\(ManagedObject.describe(value)) is smaller than the minimum \(PredicatePrinter.formatDouble(min))"
                )
            }
        }
        if let s = value as? String {
            let length = s.count
            if let max = a.maxValue, Double(length) > max {
                fail(
                    .stringTooLong, a.name,
                    "\(PredicatePrinter.quote(s)) is longer than \(PredicatePrinter.formatDouble(max)) characters")
            }
            if let min = a.minValue, Double(length) < min {
                fail(
                    .stringTooShort, a.name,
                    "\(PredicatePrinter.quote(s)) is shorter than \(PredicatePrinter.formatDouble(min)) characters")
            }
            if let pattern = a.regularExpression, !((try? StringComparison.matches(s, pattern, [])) ?? false) {
                fail(
                    .stringPatternMatching, a.name,
                    "\(PredicatePrinter.quote(s)) does not match the pattern \(PredicatePrinter.quote(pattern))")
            }
        }
        if let d = value as? Date {
            let t = d.timeIntervalSinceReferenceDate
            if let max = a.maxValue, t > max { fail(.dateTooLate, a.name, "\(d) is later than the maximum") }
            if let min = a.minValue, t < min { fail(.dateTooSoon, a.name, "\(d) is earlier than the minimum") }
        }
    }

    /// A relationship's value against the relationship: a to-one's presence, a to-many's count
    /// range. Objects deleted in the same save don't count.
    ///
    /// A to-many's value is a set (an empty one when it holds nothing), never nil, so it is
    /// never a missing mandatory property (1570 is "a non-optional property with a nil value"):
    /// a non-optional to-many is bounded by its count range alone, and one with minimum 0 may
    /// be empty. An optional one that is empty counts as absent, and its range is not applied.
    private static func check(
        _ value: Any?, relationship r: RelationshipDescription, isDeleted: (ManagedObject) -> Bool,
        fail: (CoreDataError.Code, String, String) -> Void
    ) {
        if r.isToMany {
            // An ordered to-many is an array of distinct objects.
            let count = members(unwrapOptional(value)).filter { !isDeleted($0) }.count
            if r.minCount > 0 && count < r.minCount && !(count == 0 && r.isOptional) {
                fail(
                    .relationshipLacksMinimumCount, r.name,
                    "has \(count) object\(count == 1 ? "" : "s"), fewer than the minimum \(r.minCount)")
            }
            if r.maxCount > 0 && count > r.maxCount {
                fail(
                    .relationshipExceedsMaximumCount, r.name,
                    "has \(count) objects, more than the maximum \(r.maxCount)")
            }
        } else if !r.isOptional {
            if let target = unwrapOptional(value) as? ManagedObject, !isDeleted(target) { return }
            fail(.missingMandatoryProperty, r.name, "is a required relationship")
        }
    }
}

extension RelationshipDescription {
    /// Whether a save has anything to check in this relationship: a non-optional to-one's
    /// presence, or a to-many's count range. A to-many without a range accepts any set, the
    /// empty one included, whether it is optional or not.
    var hasSaveChecks: Bool { isToMany ? (minCount > 0 || maxCount > 0) : !isOptional }
}
