import ObjectGraph

/// An entity-relationship diagram of a model as a Mermaid `erDiagram`, which GitHub renders
/// and the workbook's HTML renderer draws.
public enum ERDiagram {
    /// The diagram's Mermaid source: each entity with its attributes, each relationship pair
    /// once, with crow's-foot ends for to-many, and inheritance as `inherits` links.
    public static func mermaid(_ model: ManagedObjectModel) -> String {
        var lines = ["erDiagram"]
        for entity in model.entities {
            let own = entity.properties.compactMap { p -> AttributeDescription? in
                if let a = p as? AttributeDescription { return a }
                return nil
            }
            lines.append("    \(entity.name) {")
            if entity.isAbstract { lines.append("        abstract entity \"no instances of its own\"") }
            for a in own {
                let type = a.attributeType.xcodeName.replacingOccurrences(of: " ", with: "")
                let note = [a.isOptional ? nil : "required", a.isTransient ? "transient" : nil].compactMap { $0 }
                    .joined(separator: ", ")
                lines.append("        \(type) \(a.name)" + (note.isEmpty ? "" : " \"\(note)\""))
            }
            lines.append("    }")
        }
        var drawn: Set<String> = []
        for entity in model.entities {
            for case let r as RelationshipDescription in entity.properties {
                let inverseName = r.inverseName ?? ""
                let key = [entity.name + "." + r.name, r.destinationEntityName + "." + inverseName].sorted().joined(
                    separator: "|")
                guard drawn.insert(key).inserted else { continue }
                let right = r.isToMany ? "o{" : "o|"
                guard let inverse = model.inverseRelationship(of: r) else {
                    // A relationship without an inverse: drawn from its side only.
                    lines.append("    \(entity.name) ||--\(right) \(r.destinationEntityName) : \"\(r.name)\"")
                    continue
                }
                let left = inverse.isToMany ? "}o" : "|o"
                lines.append(
                    "    \(entity.name) \(left)--\(right) \(r.destinationEntityName) : \"\(r.name) / \(inverseName)\"")
            }
            if let parent = entity.parentEntityName {
                lines.append("    \(parent) ||--|| \(entity.name) : \"inherits\"")
            }
        }
        return lines.joined(separator: "\n")
    }
}
