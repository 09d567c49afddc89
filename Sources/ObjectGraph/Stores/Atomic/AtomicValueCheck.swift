import Foundation

/// Values a file-backed atomic store cannot write so that they read back equal, refused at
/// save with a validation error (1550) naming the object and the key, instead of a file that
/// would not open again.
///
/// Refused: a Decimal NaN (neither the XML text nor the binary store's decimal string has a
/// form `Decimal(string:)` reads back). Kept: a Double NaN, infinities, -0.0 and subnormals,
/// which both files carry exactly (Core Data's SQLite store, unlike these, stores a NaN
/// Double as NULL, because SQLite turns a bound NaN into NULL).
enum AtomicValueCheck {
    /// Throws 1550 for the first value of an inserted or changed row the store cannot hold.
    static func refuseUnrepresentable(
        _ changes: StoreChanges, storeType: StoreType, storeIdentifier: String, model: ManagedObjectModel
    ) throws {
        for row in changes.inserted + changes.updated.map(\.row) {
            guard let entity = model.entitiesByName[row.entityName] else { continue }
            for (i, attribute) in entity.attributes.enumerated() where !attribute.isTransient && i < row.values.count {
                guard let problem = problem(row.values[i].any) else { continue }
                let uri = ManagedObjectID(
                    entityName: row.entityName, storeIdentifier: storeIdentifier, primaryKey: row.primaryKey
                ).uriString
                throw CoreDataError(
                    .validation,
                    "\(attribute.name) of \(uri) is \(problem), which a \(storeType.rawValue) store cannot save; nothing was written",
                    objectURI: uri, key: attribute.name)
            }
        }
    }

    /// Why a value cannot be stored, or nil.
    static func problem(_ value: Any?) -> String? {
        if let decimal = value as? Decimal, decimal.isNaN { return "a Decimal NaN" }
        return nil
    }
}
