/// Version hashes: a digest of what makes stored data compatible (reference/migration.md 1.2).
///
/// Apple's exact serialization is undocumented; these hashes use the documented inputs, so
/// they change when Apple's would: a property's name, optionality, transience, type (for
/// attributes) or destination, to-many-ness and count range (for relationships), and its
/// version hash modifier; an entity's name, abstractness, parent's hash, every property's hash
/// and its modifier, and its uniqueness constraints. Defaults, validation, indexes, delete rules, renaming identifiers and
/// user info do not change a hash.
public enum VersionHash {
    /// The hash of an attribute.
    public static func attribute(_ a: AttributeDescription) -> [UInt8] {
        SHA256.digest(Array("attribute|\(a.name)|\(a.isOptional)|\(a.isTransient)|\(a.attributeType.rawValue)|\(a.versionHashModifier ?? "")".utf8))
    }

    /// The hash of a relationship.
    public static func relationship(_ r: RelationshipDescription) -> [UInt8] {
        SHA256.digest(Array("relationship|\(r.name)|\(r.isOptional)|\(r.destinationEntityName)|\(r.inverseName)|\(r.isToMany)|\(r.minCount)|\(r.maxCount)|\(r.versionHashModifier ?? "")".utf8))
    }

    /// The hash of an entity, given its parent's hash (empty for a root).
    static func entity(_ e: EntityDescription, parentHash: [UInt8]) -> [UInt8] {
        var bytes = Array("entity|\(e.name)|\(e.isAbstract)|\(e.versionHashModifier ?? "")|".utf8)
        bytes += parentHash
        let own = e.properties.map { p -> (String, [UInt8]) in
            switch p {
            case .attribute(let a): return (a.name, attribute(a))
            case .relationship(let r): return (r.name, relationship(r))
            }
        }.sorted { $0.0 < $1.0 }
        for (_, h) in own { bytes += h }
        // Uniqueness constraints enter the entity hash (Apple, NSEntityDescription.h); models
        // without any hash as they always did.
        if !e.uniquenessConstraints.isEmpty {
            bytes += Array("|unique|\(e.uniquenessConstraints.map { $0.joined(separator: ",") }.joined(separator: ";"))".utf8)
        }
        return SHA256.digest(bytes)
    }
}
