import Foundation

extension VersionedModel {
    /// The mapping models that sit beside an `.xcdatamodeld` bundle, as an Xcode project keeps
    /// them and as an app bundle ships their `.cdm`: every `.cdm` in the bundle's folder, and
    /// every `.xcmappingmodel` there whose recorded models are versions of this bundle, compiled
    /// against the bundle's own versions. Another bundle's `.xcmappingmodel` is left alone; a
    /// file of this bundle that cannot be read throws, naming it.
    static func mappingModels(besideBundleAt url: URL, versions bundle: ModelBundle) throws -> [MappingModel] {
        let bundleName = url.deletingPathExtension().lastPathComponent
        var found: [MappingModel] = []
        for file in MappingModel.mappingModelFiles(in: [url.deletingLastPathComponent()]) {
            let mapping = try MappingModelFile(url: file)
            if case .source(let document) = mapping.contents {
                let recorded = [document.sourceModelPath, document.destinationModelPath].map {
                    Self.version(recordedAt: $0)
                }
                guard recorded.allSatisfy({ $0?.bundle == bundleName }) else { continue }
            }
            let models = try mapping.entityMappings { path in
                Self.version(recordedAt: path).flatMap { bundle.model(named: $0.version) }
            }
            found.append(MappingModel(entityMappings: models))
        }
        return found
    }

    /// The bundle and version a recorded model path names (`.../ToDo.xcdatamodeld/ToDo 2.xcdatamodel`
    /// is bundle `ToDo`, version `ToDo 2`); nil for a path that names no version of a bundle.
    private static func version(recordedAt path: String?) -> (bundle: String, version: String)? {
        guard let parts = path?.split(separator: "/").map(String.init), parts.count >= 2,
            parts[parts.count - 2].hasSuffix(".xcdatamodeld"), parts[parts.count - 1].hasSuffix(".xcdatamodel")
        else { return nil }
        return (
            String(parts[parts.count - 2].dropLast(".xcdatamodeld".count)),
            String(parts[parts.count - 1].dropLast(".xcdatamodel".count))
        )
    }
}
