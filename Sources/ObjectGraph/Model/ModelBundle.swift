import Foundation

/// The versions of a model and which one is current: what an Xcode `.xcdatamodeld` bundle
/// holds (one `.xcdatamodel` per version and a `.xccurrentversion` naming the current one).
///
/// Version names are the folder names without `.xcdatamodel` ("ToDo", "ToDo 2"). Versions are
/// kept in numeric name order, so "ToDo 10" comes after "ToDo 2".
///
/// ```swift
/// let bundle = try ModelBundle(contentsOf: URL(fileURLWithPath: "ToDo.xcdatamodeld"))
/// bundle.versionNames          // ["ToDo", "ToDo 2"]
/// bundle.currentVersionName    // "ToDo 2"
/// ```
public struct ModelBundle: Sendable {
    /// One named version of the model.
    public struct Version: Sendable {
        /// The version's name, without `.xcdatamodel`.
        public let name: String
        /// The model of that version.
        public let model: ManagedObjectModel
    }

    /// Every version, in numeric name order.
    public let versions: [Version]
    /// The name of the current version: the model new stores are created with.
    public let currentVersionName: String

    /// Makes a bundle from named models; the current name must be one of them.
    public init(versions: [(name: String, model: ManagedObjectModel)], currentVersionName: String) throws {
        var seen: Set<String> = []
        for version in versions {
            guard !version.name.isEmpty, !version.name.contains("/") else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "Model version name \"\(version.name)\" cannot be a folder name; use letters, digits and spaces")
            }
            guard seen.insert(version.name).inserted else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "The model bundle has two versions named \(version.name); give each a name of its own")
            }
        }
        guard seen.contains(currentVersionName) else {
            throw CoreDataError(
                exception: .invalidArgument,
                "The current version \(currentVersionName) is not one of the bundle's versions (\(versions.map(\.name).joined(separator: ", ")))"
            )
        }
        self.versions = versions.map { Version(name: $0.name, model: $0.model) }
            .sorted { $0.name.compare($1.name, options: .numeric) == .orderedAscending }
        self.currentVersionName = currentVersionName
    }

    /// The versions' names, in numeric order.
    public var versionNames: [String] { versions.map(\.name) }

    /// The model of the current version.
    public var currentModel: ManagedObjectModel {
        versions.first { $0.name == currentVersionName }!.model
    }

    /// The model of the version with this name, if there is one.
    public func model(named name: String) -> ManagedObjectModel? {
        versions.first { $0.name == name }?.model
    }
}
