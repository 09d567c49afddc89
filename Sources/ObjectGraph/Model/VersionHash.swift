import Foundation

/// Core Data's version hashes, byte for byte (<doc:OpeningStoresThatCoreDataWrote> explains them;
/// the encoding was established against 61 entity hashes in stores Apple's Core Data wrote, and
/// 292 more from compiled models, and Tests/ObjectGraphTests/AppleFixtures checks it).
///
/// Apple documents only the inputs (NSEntityDescription.versionHash,
/// NSPropertyDescription.versionHash, versionHashModifier); the encoding is: SHA-256 over the
/// inputs' UTF-8 bytes with no separators (a nil or empty string adds nothing), integers as
/// fixed-width little-endian values (the native integers of Apple's CPUs), and a sub-hash as its
/// 32 raw bytes. Because the hashes are Core Data's own, a store written here opens in Core
/// Data, and a store Core Data wrote opens here, without migration.
///
/// What changes a hash, as it changes Core Data's: an entity's name, abstractness, parent,
/// uniqueness constraints and version hash modifier, and each stored property's hash; a
/// property's name, optionality and modifier; an attribute's type, external binary storage
/// and preserve-after-deletion; a derived attribute's expression; a relationship's
/// destination, inverse's name, count range and orderedness. What does not: defaults,
/// validation, indexes, delete rules, renaming identifiers, user info, transient properties,
/// fetched properties, configurations and fetch requests. See <doc:OpeningStoresThatCoreDataWrote>.
public enum VersionHash {
    /// The bytes one hash is computed over, in Core Data's encoding.
    struct Input {
        private(set) var bytes: [UInt8] = []

        /// A string's UTF-8 bytes; nothing for nil or an empty string.
        mutating func append(_ string: String?) {
            if let string { bytes += Array(string.utf8) }
        }

        /// One byte.
        mutating func append(u8 value: UInt8) { bytes.append(value) }

        /// Two bytes, little-endian.
        mutating func append(u16 value: UInt16) {
            bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }

        /// Four bytes, little-endian.
        mutating func append(u32 value: UInt32) {
            for shift in stride(from: 0, to: 32, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
            }
        }

        /// A sub-hash, as its raw bytes.
        mutating func append(hash: [UInt8]) { bytes += hash }

        /// The SHA-256 digest of the bytes.
        var digest: [UInt8] { SHA256.digest(bytes) }
    }

    /// Core Data's name order: Foundation's plain `compare:` (case-sensitive, not localized),
    /// which for the ASCII names of real models is byte order (`B` < `_` < `a`). Non-ASCII
    /// names are compared by UTF-16 code units, as NSString stores them (unconfirmed: no real
    /// model with such names was found).
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf16.lexicographicallyPrecedes(b.utf16)
    }

    // MARK: Properties

    /// P, the base of every property's hash: name, flags (1 optional, 2 transient, 4 read-only),
    /// then the property's version hash modifier.
    ///
    /// Unconfirmed: where the modifier goes (no real model found uses one).
    static func propertyBase(
        name: String, isOptional: Bool, isTransient: Bool, isReadOnly: Bool = false,
        versionHashModifier: String?
    ) -> [UInt8] {
        var input = Input()
        input.append(name)
        input.append(u16: (isOptional ? 1 : 0) | (isTransient ? 2 : 0) | (isReadOnly ? 4 : 0))
        input.append(versionHashModifier)
        return input.digest
    }

    /// An attribute's hash (NSAttributeDescription.versionHash): A, or for a derived attribute D,
    /// or for a composite C.
    public static func attribute(_ a: AttributeDescription) -> [UInt8] {
        if let expression = a.derivationExpression { return derived(expression) }
        if a.attributeType == .composite { return composite(a.elements) }
        return storedAttribute(a)
    }

    /// A = H(P || u32(attributeType) || 01 if external binary storage || 01 if history keeps it).
    ///
    /// The flag bytes are appended only when set, so older models keep their hashes. Unconfirmed:
    /// the position of the external-storage byte (known to change the hash; assumed to be
    /// where the preserve-after-deletion byte is, which the CoreDataPlus SampleModel store confirms).
    static func storedAttribute(_ a: AttributeDescription) -> [UInt8] {
        var input = Input()
        input.append(
            hash: propertyBase(
                name: a.name, isOptional: a.isOptional, isTransient: a.isTransient,
                isReadOnly: a.isDerived, versionHashModifier: a.versionHashModifier))
        input.append(u32: UInt32(truncatingIfNeeded: a.attributeType.rawValue))
        if a.allowsExternalBinaryDataStorage { input.append(u8: 1) }
        if a.preservesValueInHistoryOnDeletion { input.append(u8: 1) }
        return input.digest
    }

    /// D, a derived attribute's hash: the expression's format text alone. Core Data computes the
    /// attribute's own A but does not use it, so the name, type and flags do not count
    /// (confirmed by CoreDataPlus's SampleModel2 store: `Book.pagesCount` is H("count:(pages)")).
    ///
    /// Unconfirmed: the text hashed for expressions other than a key path ending in `@count` or
    /// `@sum` (rewritten, as Core Data does, to the function form `count:(path)`), and the
    /// filtering predicate Core Data appends when there is one (no model file can declare one).
    static func derived(_ expression: Expression) -> [UInt8] {
        var input = Input()
        input.append(derivationFormat(expression))
        return input.digest
    }

    /// The format text of a derivation expression as Core Data hashes it: a key path ending
    /// in `.@count` or `.@sum` becomes the function `count:(path)` or `sum:(path)` first.
    static func derivationFormat(_ expression: Expression) -> String {
        let functions = ["@count": "count:", "@sum": "sum:"]
        switch expression {
        case .keyPath(let path):
            if let dot = path.lastIndex(of: "."), let function = functions[String(path[path.index(after: dot)...])] {
                return PredicatePrinter.format(.function(function, [.keyPath(String(path[..<dot]))]))
            }
        case .member(let base, let key):
            if let function = functions[key] { return PredicatePrinter.format(.function(function, [base])) }
        default:
            break
        }
        return PredicatePrinter.format(expression)
    }

    /// C, a composite attribute's hash: its elements' hashes in name order, transient ones
    /// left out; the composite's own A is not used. Unconfirmed: no real store uses composites.
    static func composite(_ elements: [AttributeDescription]) -> [UInt8] {
        var input = Input()
        for element in elements.filter({ !$0.isTransient }).sorted(by: { precedes($0.name, $1.name) }) {
            input.append(hash: attribute(element))
        }
        return input.digest
    }

    /// A relationship's hash (NSRelationshipDescription.versionHash): R = H(P || destination name || inverse name ||
    /// u32(maxCount) || u32(minCount) || 01 00 if ordered).
    ///
    /// maxCount is 1 for a to-one, 0 for an unbounded to-many, else the limit, truncated to 32
    /// bits (CoreDataPlus's SampleModel2 store confirms `.max` hashes as ff ff ff ff). The inverse
    /// name is left out when there is no inverse, and when the relationship is its own inverse
    /// (unconfirmed: no real model has either).
    public static func relationship(_ r: RelationshipDescription) -> [UInt8] {
        var input = Input()
        input.append(
            hash: propertyBase(
                name: r.name, isOptional: r.isOptional, isTransient: r.isTransient,
                versionHashModifier: r.versionHashModifier))
        input.append(r.destinationEntityName)
        // An inverse dropped at load because it does not point back is hashed as written, as
        // Core Data, which keeps it, hashes it.
        if !r.isOwnInverse { input.append(r.inverseName ?? r.unmatchedInverseName) }
        input.append(u32: UInt32(truncatingIfNeeded: r.isToMany ? r.maxCount : 1))
        input.append(u32: UInt32(truncatingIfNeeded: r.minCount))
        if r.isOrdered { input.append(u16: 1) }
        return input.digest
    }

    // MARK: Entities and models

    /// E = H(name || u8(isAbstract) || E(parent) || each stored property's hash in name order
    /// (inherited ones included) || the entity's modifier || its own uniqueness constraints).
    ///
    /// `attributes` and `relationships` are every property of the entity, inherited ones
    /// included, as a model lists them; transient ones are left out, as fetched properties are.
    /// Each uniqueness constraint enters as its names joined with ".", the texts sorted.
    /// Unconfirmed: where the entity's version hash modifier goes.
    static func entity(_ e: EntityDescription, parentHash: Data?) -> Data {
        var input = Input()
        input.append(e.name)
        input.append(u8: e.isAbstract ? 1 : 0)
        if let parentHash { input.append(hash: Array(parentHash)) }
        var hashes: [(name: String, hash: [UInt8])] = []
        for a in e.attributes where !a.isTransient { hashes.append((a.name, attribute(a))) }
        for r in e.relationships where !r.isTransient { hashes.append((r.name, relationship(r))) }
        for property in hashes.sorted(by: { precedes($0.name, $1.name) }) { input.append(hash: property.hash) }
        input.append(e.versionHashModifier)
        for constraint in e.uniquenessConstraints.map({ $0.joined(separator: ".") }).sorted(by: precedes) {
            input.append(constraint)
        }
        return Data(input.digest)
    }

    /// `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over each entity's name and hash, in
    /// name order.
    static func hashesDigest(_ hashes: [String: Data]) -> String {
        var bytes: [UInt8] = []
        for name in hashes.keys.sorted(by: precedes) {
            bytes += Array(name.utf8)
            bytes += Array(hashes[name] ?? Data())
        }
        return Data(SHA512.digest(bytes)).base64EncodedString()
    }

    /// `NSStoreModelVersionChecksumKey` and NSManagedObjectModel.versionChecksum: base64 of
    /// SHA-256 over the entity hashes, in name order.
    static func checksum(_ hashes: [String: Data]) -> String {
        var bytes: [UInt8] = []
        for name in hashes.keys.sorted(by: precedes) { bytes += Array(hashes[name] ?? Data()) }
        return Data(SHA256.digest(bytes)).base64EncodedString()
    }
}

/// The version hashes ObjectGraph wrote before it computed Core Data's: a digest of a text of
/// its own. Kept only to recognise stores this package wrote then, so they still open (and get
/// Core Data's hashes written into their metadata); never written to a new store.
enum LegacyVersionHash {
    /// The old hash of an attribute.
    static func attribute(_ a: AttributeDescription) -> [UInt8] {
        SHA256.digest(
            Array(
                "attribute|\(a.name)|\(a.isOptional)|\(a.isTransient)|\(a.attributeType.rawValue)|\(a.versionHashModifier ?? "")"
                    .utf8))
    }

    /// The old hash of a relationship (every relationship then had an inverse).
    static func relationship(_ r: RelationshipDescription) -> [UInt8] {
        SHA256.digest(
            Array(
                "relationship|\(r.name)|\(r.isOptional)|\(r.destinationEntityName)|\(r.inverseName ?? "")|\(r.isToMany)|\(r.minCount)|\(r.maxCount)|\(r.versionHashModifier ?? "")"
                    .utf8))
    }

    /// The old hash of an entity, given its parent's old hash (empty for a root).
    static func entity(_ e: EntityDescription, parentHash: [UInt8]) -> [UInt8] {
        var bytes = Array("entity|\(e.name)|\(e.isAbstract)|\(e.versionHashModifier ?? "")|".utf8)
        bytes += parentHash
        let own = e.properties.map { p -> (String, [UInt8]) in
            switch p.kind {
            case .attribute(let a): return (a.name, attribute(a))
            case .relationship(let r): return (r.name, relationship(r))
            case .fetched: return (p.name, [])
            }
        }.sorted { $0.0 < $1.0 }
        for (_, h) in own { bytes += h }
        if !e.uniquenessConstraints.isEmpty {
            bytes += Array(
                "|unique|\(e.uniquenessConstraints.map { $0.joined(separator: ",") }.joined(separator: ";"))".utf8)
        }
        return SHA256.digest(bytes)
    }

    /// Every entity's old hash, by name, parents before children.
    static func entityHashes(_ entities: [String: EntityDescription]) -> [String: Data] {
        var result: [String: [UInt8]] = [:]
        func hash(_ name: String, depth: Int) -> [UInt8] {
            if let done = result[name] { return done }
            guard let e = entities[name] else { return [] }
            // A parent chain is checked acyclic before hashing; the depth only guards that.
            let parent = depth < entities.count ? e.parentEntityName.map { hash($0, depth: depth + 1) } ?? [] : []
            let h = entity(e, parentHash: parent)
            result[name] = h
            return h
        }
        for name in entities.keys { _ = hash(name, depth: 0) }
        return result.mapValues { Data($0) }
    }
}
