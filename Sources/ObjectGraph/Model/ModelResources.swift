import Foundation

/// Where an application's model files are on Linux: the places Apple's Core Data searches in
/// an application bundle, as SwiftPM lays them out.
///
/// Xcode compiles a model into the application's bundle (`Model.momd`); SwiftPM copies an
/// `.xcdatamodeld` as it is into a target's resource bundle, a folder named
/// `<Package>_<Target>.resources` beside the executable (or `Bundle.module` inside the target).
/// So a search looks in the main bundle's resources and in every resource bundle beside the
/// executable.
enum ModelResources {
    /// The folders to search: the main bundle's resources, then each SwiftPM resource bundle
    /// beside the executable, in name order.
    static func searchFolders() -> [URL] {
        var folders: [URL] = []
        if let resources = Bundle.main.resourceURL { folders.append(resources) }
        let beside = Bundle.main.bundleURL
        let names = (try? FileManager.default.contentsOfDirectory(atPath: beside.path)) ?? []
        for name in names.sorted() where name.hasSuffix(".resources") {
            folders.append(beside.appendingPathComponent(name, isDirectory: true))
        }
        return folders
    }

    /// The model file named `name` (`name.xcdatamodeld`, else `name.xcdatamodel`) in the first
    /// folder that has one, or nil.
    static func modelFile(named name: String, in folders: [URL] = searchFolders()) -> URL? {
        for folder in folders {
            for ext in ["xcdatamodeld", "xcdatamodel"] {
                let url = folder.appendingPathComponent("\(name).\(ext)")
                if FileManager.default.fileExists(atPath: url.path) { return url }
            }
        }
        return nil
    }
}

extension PersistentContainer {
    /// A container whose model is the model file of its name among the application's resources
    /// (init(name:)), its store `name.sqlite` in ``defaultDirectoryURL()``.
    ///
    /// A `name.xcdatamodeld` gives every version (with the mapping models beside it), so an older
    /// store migrates; a `name.xcdatamodel` one model. On Linux the search covers the main
    /// bundle's resources and the SwiftPM resource bundles beside the executable, where Apple's
    /// searches the application bundle for `name.momd`. A model that cannot be found or read stops
    /// the program with a message naming the places searched, where Apple's logs an error and
    /// leaves the container without a model; ``init(name:managedObjectModel:)`` and
    /// ``init(name:versionedModel:)`` take the model instead.
    public convenience init(name: String) {
        let folders = ModelResources.searchFolders()
        guard let url = ModelResources.modelFile(named: name, in: folders) else {
            fatalError(
                "NSPersistentContainer(name: \"\(name)\"): no \(name).xcdatamodeld or \(name).xcdatamodel in "
                    + "\(folders.map(\.path).joined(separator: ", ")); add it to the target's resources, or give the "
                    + "model with init(name:managedObjectModel:)")
        }
        do {
            if url.pathExtension == "xcdatamodeld" {
                self.init(name: name, versionedModel: try VersionedModel(contentsOf: url))
            } else {
                self.init(name: name, managedObjectModel: try ManagedObjectModel(contentsOf: url, classes: [:]))
            }
        } catch {
            fatalError("NSPersistentContainer(name: \"\(name)\"): the model at \(url.path) cannot be read: \(error)")
        }
    }
}
