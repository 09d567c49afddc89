import Foundation

/// The default implementations of the validation hooks a subclass overrides (their
/// declarations are in ManagedObject.swift, where Swift allows overriding them).
///
/// As in Core Data, `validateForInsert()` and `validateForUpdate()` validate each property in
/// turn through `validateValue(_:forKey:)`, so a subclass that overrides only that method
/// (Core Data's `validate<Key>:error:`) has its key checked at every save; several errors
/// become one 1560 (NSValidationMultipleErrorsError) holding each.
extension ManagedObject {
    /// validateForInsert and validateForUpdate by default: every property through
    /// `validateValue(_:forKey:)`, with its current value.
    func validateProperties() throws {
        // A class that does not override validateValue(_:forKey:) says so (validatesEachKey):
        // the model's checks of every property, in place, are then what the calls would find.
        if !Self.validatesEachKey, let context = managedObjectContext {
            if isFault { try context.fireFault(self) }
            try Validation.throwCombined(
                try Validation.modelErrors(of: self, transient: true) { context.isDeleted($0) })
            return
        }
        let shared = entity.shared
        let names =
            shared.propertyNameList.count == shared.attributeCount + shared.relationships.count
            ? shared.propertyNameList : entity.propertyNames
        var errors: [any Error] = []
        for i in names.indices {
            // A to-many that was never loaded was never changed here, and loading it to check a
            // relationship without a count range would read a set as large as the store.
            if i >= shared.attributeCount && !loadedToMany.contains(i) {
                let r = shared.relationships[i - shared.attributeCount]
                if r.isToMany && !r.hasSaveChecks { continue }
            }
            var value: Any?
            do { value = try self.checkedValue(forKey: names[i]) } catch {
                errors.append(error)
                continue
            }
            Validation.collect(into: &errors) { try validateValue(&value, forKey: names[i]) }
        }
        try Validation.throwCombined(errors)
    }

    /// validateForDelete by default: the Deny delete rule (1600).
    func validateDeleteRules() throws {
        guard let context = managedObjectContext else { return }
        try Validation.throwCombined(try Validation.denyErrors(of: self) { context.isDeleted($0) })
    }

    /// validateValue(_:forKey:) by default: the value coerced to the attribute's type (an `Int`
    /// for a Double attribute becomes a `Double`), then the model's checks of that property:
    /// mandatory, bounds, pattern, a to-many's count range. Relationship values are objects (a
    /// to-many's a `Set<ManagedObject>`, or an array when ordered).
    func validateModelValue(_ value: inout Any?, forKey key: String) throws {
        let i = try index(forKey: key)
        let shared = entity.shared
        if i < shared.attributeCount {
            // A value already of the attribute's type (every stored value) needs no conversion,
            // and an attribute with nothing to check (optional, no bounds, no pattern) no check:
            // neither reads the attribute's description.
            if !AttributeValue.isStoredAsIs(value, type: shared.attributeTypes[i]) {
                value = try AttributeValue.convert(value, for: shared.attributes[i], entity: entity.name)
            }
            if i < shared.isValidatedAttribute.count && !shared.isValidatedAttribute[i]
                && !shared.attributes[i].isTransient
            {
                return
            }
        }
        try Validation.throwCombined(Validation.errors(of: self, property: i, value: value))
    }
}
