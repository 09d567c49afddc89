import Foundation
import ObjectGraph

// Xcode's model files: an `.xcdatamodel`'s `contents` XML (XcodeModelLoader, through
// `loadModel(at:)`, and ModelCodegen's own reading of the class names), and an
// `.xcdatamodeld`'s `.xccurrentversion` property list (`loadBundle(at:)`).

/// A small model, written as Xcode writes it, for the versions around `.xccurrentversion`.
private let smallModelContents = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        <entity name="Note" representedClassName="Note" syncable="YES" codeGenerationType="class">
            <attribute name="text" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """

extension FuzzedReaders {
    /// The `contents` file of an `.xcdatamodel`.
    static let modelReader = FuzzedReader(
        name: "model",
        summary: "Xcode model XML (an .xcdatamodel's contents): XcodeModelLoader.loadModel(at:), ModelCodegen(modelAt:)"
    ) { data, scratch in
        let folder = scratch.file("Fuzz.xcdatamodel")
        let contents = folder.appendingPathComponent("contents")
        if scratch.prepared.insert("model").inserted {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        scratch.write(data, to: contents)
        let model: ManagedObjectModel
        do {
            model = try XcodeModelLoader().loadModel(at: folder)
        } catch {
            return fileReaderFinding(error, naming: contents, in: scratch)
        }
        // Codegen reads the file a second time, for the class names.
        do { _ = try ModelCodegen(modelAt: folder) } catch {
            return "the model loads but ModelCodegen(modelAt:) throws: \(error)"
        }
        _ = model.entityVersionHashesByName
        // What loads, Xcode's writer writes as a file that loads again, with the same entities.
        let rewritten = scratch.file("Rewritten.xcdatamodel")
        do {
            try FileManager.default.createDirectory(at: rewritten, withIntermediateDirectories: true)
            try Data(model.xcodeModelContents().utf8).write(to: rewritten.appendingPathComponent("contents"))
            let again = try XcodeModelLoader().loadModel(at: rewritten)
            if Set(again.entitiesByName.keys) != Set(model.entitiesByName.keys) {
                return
                    "the rewritten model has other entities: \(again.entitiesByName.keys.sorted()) for \(model.entitiesByName.keys.sorted())"
            }
        } catch {
            return "the model loads, but what xcodeModelContents() writes for it does not: \(error)"
        }
        return nil
    }

    /// The `.xccurrentversion` of an `.xcdatamodeld` bundle of two versions.
    static let currentVersionReader = FuzzedReader(
        name: "currentversion",
        summary: "an .xcdatamodeld's .xccurrentversion property list: XcodeModelLoader.loadBundle(at:)"
    ) { data, scratch in
        let bundle = scratch.file("Fuzz.xcdatamodeld")
        if scratch.prepared.insert("currentversion").inserted {
            for version in ["Fuzz", "Fuzz 2"] {
                let folder = bundle.appendingPathComponent("\(version).xcdatamodel")
                try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                scratch.write(Data(smallModelContents.utf8), to: folder.appendingPathComponent("contents"))
            }
        }
        let file = bundle.appendingPathComponent(".xccurrentversion")
        scratch.write(data, to: file)
        do {
            let loaded = try XcodeModelLoader().loadBundle(at: bundle)
            if !["Fuzz", "Fuzz 2"].contains(loaded.currentVersionName) {
                return
                    "the current version is \(loaded.currentVersionName.debugDescription), which the bundle does not hold"
            }
        } catch {
            return fileReaderFinding(error, naming: file, in: scratch)
        }
        return nil
    }
}
