import CoreData
import ObjectGraph
import WorkbookSupport

/// Version 2 of the model, as Xcode keeps it: an `.xcdatamodeld` holding both versions.
enum ModelVersions {
    /// A default value as Xcode's model editor shows it.
    static func defaultText(_ value: ConstantValue?) -> String {
        switch value {
        case .bool(let b)?: return b ? "YES" : "NO"
        case .string(let s)?: return "\"\(s)\""
        case .int(let i)?: return "\(i)"
        case nil: return "none"
        case let other?: return "\(other)"
        }
    }

    static func run(_ bench: Workbench) throws {
        // ANCHOR: load-bundle
        let versions = try VersionedModel(contentsOf: ToDoModels.bundleURL)
        // ANCHOR_END: load-bundle
        bench.print(
            "\(versions.name).xcdatamodeld holds \(versions.versionNames.map { "\"\($0)\"" }.joined(separator: " and ")); the current version is \"\(versions.currentVersionName)\"."
        )
        let old = versions.model(named: "ToDo")!
        let new = versions.currentModel
        for entity in new.entities.sorted(by: { $0.name < $1.name }) {
            let before = old.entitiesByName[entity.name]!
            let added = entity.propertyNames.filter { !before.propertyNames.contains($0) }
            bench.print("")
            bench.print("\(entity.name):")
            bench.print("  version hash in ToDo:   \(Data(before.versionHash).base64EncodedString())")
            bench.print("  version hash in ToDo 2: \(Data(entity.versionHash).base64EncodedString())")
            if added.isEmpty {
                bench.print("  unchanged: the same hash, so stores need nothing done to this entity")
            } else {
                for name in added {
                    let attribute = entity.attribute(named: name)!
                    bench.print(
                        "  added \(name): \(attribute.attributeType.xcodeName), \(attribute.isOptional ? "optional" : "required, default \(defaultText(attribute.defaultConstant))")"
                    )
                }
            }
        }
    }
}
