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

/// A Core Data stack as a diagram: the coordinator with its stores, and each context with its
/// concurrency type, joined to its parent store (its parent context, or the coordinator). It is
/// drawn from the live objects, so the book's picture is the stack the chapter's code made.
/// Mermaid has no diagram of objects, so this is an `erDiagram` whose boxes are the stack's
/// objects, which GitHub and the workbook's renderer both draw.
public enum StackDiagram {
    /// The diagram's Mermaid source. Each context is named by its `name` (give each one; a
    /// context without a name is called `context1`, `context2`, ... in the order given).
    ///
    /// The coordinator comes second, after the first context: the book draws boxes three to a
    /// row in their order, so the coordinator sits between the first two contexts, each line to
    /// it level and short, and the rest (a child context) on the row below.
    public static func mermaid(coordinator: PersistentStoreCoordinator, contexts: [ManagedObjectContext]) -> String {
        var lines = ["erDiagram"]
        func name(_ context: ManagedObjectContext) -> String {
            let index = contexts.firstIndex { $0 === context }.map { $0 + 1 } ?? 0
            return (context.name ?? "context\(index)").filter { $0.isLetter || $0.isNumber }
        }
        for (index, context) in contexts.enumerated() {
            lines.append("    \(name(context)) {")
            lines.append("        \(context.concurrencyType) concurrencyType")
            lines.append("    }")
            guard index == 0 else { continue }
            lines.append("    PersistentStoreCoordinator {")
            for store in coordinator.persistentStores {
                let file = store.url.map { " \"\($0.lastPathComponent)\"" } ?? ""
                lines.append("        \(store.type.rawValue) store\(file)")
            }
            lines.append("    }")
        }
        if contexts.isEmpty { lines.append("    PersistentStoreCoordinator {\n    }") }
        for context in contexts {
            if let parent = context.parent {
                lines.append("    \(name(context)) ||--|| \(name(parent)) : \"parent\"")
            } else {
                lines.append("    \(name(context)) ||--|| PersistentStoreCoordinator : \"persistentStoreCoordinator\"")
            }
        }
        return lines.joined(separator: "\n")
    }
}
