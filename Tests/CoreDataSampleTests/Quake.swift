// swift-format-ignore-file
// (Apple's sample code, kept as Apple writes it: LEDGER.md counts its lines.)
// The managed object class and model of Apple's Earthquakes sample, which the articles' samples
// here share.
// Article: "Loading and displaying a large data feed"
// https://developer.apple.com/documentation/swiftui/loading_and_displaying_a_large_data_feed
//
// Apple's sample declares `Quake` as an NSManagedObject subclass with @NSManaged properties, and a
// `QuakeProperties` Decodable struct for one feature of the USGS GeoJSON feed, whose
// `dictionaryValue` feeds a batch insert.
import CoreData

class Quake: NSManagedObject {
    @Managed("magnitude") var magnitude: Float  // LINUX: @NSManaged needs the Objective-C runtime (links but has no accessors): @Managed names the key
    @Managed("place") var place: String  // LINUX: @NSManaged needs the Objective-C runtime: @Managed names the key
    @Managed("time") var time: Date  // LINUX: @NSManaged needs the Objective-C runtime: @Managed names the key
    @Managed("code") var code: String  // LINUX: @NSManaged needs the Objective-C runtime: @Managed names the key
}

// What Xcode generates for a class with Codegen "Manual/None" (Quake+CoreDataProperties.swift).
extension Quake {
    @nonobjc public class func fetchRequest() -> NSFetchRequest<Quake> {
        return NSFetchRequest<Quake>(entityName: "Quake")
    }
}

/// One earthquake of the feed, as Apple's sample decodes it.
struct QuakeProperties: Decodable, Sendable {
    let mag: Float
    let place: String
    let time: Double
    let code: String

    /// The dictionary a batch insert takes: attribute names to values.
    var dictionaryValue: [String: Any] {
        [
            "magnitude": mag,
            "place": place,
            "time": Date(timeIntervalSince1970: TimeInterval(time) / 1000),
            "code": code,
        ]
    }
}

/// The feed's shape: `{"features": [{"properties": {...}}]}`.
struct GeoJSON: Decodable {
    struct Feature: Decodable {
        let properties: QuakeProperties
    }
    let features: [Feature]

    var quakePropertiesList: [QuakeProperties] { features.map(\.properties) }
}

/// The models the samples use, each loaded once, as Core Data wants one model per class.
enum SampleModel {
    static let earthquakes: NSManagedObjectModel = {
        guard let url = Bundle.module.url(forResource: "Earthquakes", withExtension: "xcdatamodeld"),  // LINUX: no momc on Linux: SwiftPM copies the .xcdatamodeld source, which the loader reads
              let model = try? NSManagedObjectModel(contentsOf: url, classes: ["Quake": Quake.self]) else {  // LINUX: no NSClassFromString for representedClassName: the classes are given by name
            fatalError("Failed to load the Earthquakes model")
        }
        return model
    }()
}

/// A few quakes in the feed's format, for the samples that import.
let sampleFeed = Data("""
{"features": [
  {"properties": {"mag": 4.5, "place": "12km N of Parkfield, CA", "time": 1700000000000, "code": "nc1"}},
  {"properties": {"mag": 1.2, "place": "5km S of Anza, CA", "time": 1700000100000, "code": "ci2"}},
  {"properties": {"mag": 2.8, "place": "30km E of Willow, Alaska", "time": 1700000200000, "code": "ak3"}}
]}
""".utf8)
