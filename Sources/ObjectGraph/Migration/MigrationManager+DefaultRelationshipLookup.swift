import Foundation

extension MigrationManager {
    /// The objects a relationship mapping of Xcode's default form names,
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "M", $source.key)`,
    /// found as the evaluator finds them (the same key-value read of the source, the same
    /// lookup) but without building the evaluation's variables and arguments for each
    /// object; nil for an expression of any other form, which is evaluated.
    ///
    /// The second pass runs this once per destination instance: evaluated, it cost far more
    /// (Benchmarks/PROFILES.md, "default relationship lookup").
    func defaultRelationshipLookup(_ expression: Expression, source: ManagedObject?) throws -> [ManagedObject]? {
        guard let source,
            case .customFunction(
                .variable("manager"), "destinationInstancesForEntityMappingNamed:sourceInstances:", let arguments) =
                expression,
            arguments.count == 2, case .constant(.string(let name)) = arguments[0],
            case .member(.variable("source"), let key) = arguments[1], !key.utf8.contains(UInt8(ascii: "$"))
        else { return nil }
        // What KeyPathResolver answers for a managed object and a plain key, without its casts
        // (first to a dictionary: 9,700 instructions per row).
        let value: Any?
        if key.utf8.first != UInt8(ascii: "@") && !key.utf8.contains(UInt8(ascii: ".")) {
            value = try source.checkedValue(forKey: key)
        } else {
            value = try KeyPathResolver.value(of: source, keyPath: key)
        }
        // A to-one's object, the common case, without the optional and NSNull tests.
        let sources = (value as? ManagedObject).map { [$0] } ?? Self.sourceObjects(value)
        return try destinationInstances(forEntityMappingName: name, sourceInstances: sources)
    }

    /// The source instances a lookup's argument names, as `performFunction` reads them: none
    /// for nil or NSNull, one object, a set in primary-key order, or an array's objects.
    static func sourceObjects(_ argument: Any?) -> [ManagedObject] {
        guard let value = unwrapOptional(argument), !(value is NSNull) else { return [] }
        if let one = value as? ManagedObject { return [one] }
        if let set = value as? Set<ManagedObject> {
            return set.sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
        }
        if let array = value as? [Any] { return array.compactMap { $0 as? ManagedObject } }
        return []
    }
}
