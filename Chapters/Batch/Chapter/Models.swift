import CoreData
import WorkbookSupport

/// The chapter's model: earthquakes from a feed, as in Apple's sample "Loading and Displaying a
/// Large Data Feed", each with the feed's code that no two quakes share.
public enum BatchModels {
    // ANCHOR: quake-model
    /// Quakes with a unique feed code, a magnitude that validation keeps at 0 or more, a place, a
    /// time, and whether someone has reviewed them.
    public static func quakes() throws -> NSManagedObjectModel {
        try NSManagedObjectModel {
            NSEntityDescription("Quake", uniquenessConstraints: [["code"]]) {
                NSAttributeDescription("code", .string, optional: false)
                NSAttributeDescription("magnitude", .double, defaultValue: 0.0, minValue: 0)
                NSAttributeDescription("place", .string)
                NSAttributeDescription("time", .date)
                NSAttributeDescription("reviewed", .boolean, defaultValue: false)
            }
        }
    }
    // ANCHOR_END: quake-model
}

/// The feed every section imports, and the stack it goes into.
public enum Feed {
    /// The places the feed's quakes are near, in turn.
    static let places = ["Parkfield, CA", "Anza, CA", "Ridgecrest, CA", "Hilo, HI", "Anchorage, AK"]

    // ANCHOR: feed
    /// The feed's "now": 1 June 2009, 09:00 UTC, the workbook's fixed clock.
    static let now = Date(timeIntervalSinceReferenceDate: 265_539_600)

    /// `count` quakes as the feed gives them, one dictionary of values each: the same every run
    /// (codes nc1001, nc1002, ...; magnitudes from 1.0 to 6.9; an hour apart, back from `now`).
    public static func quakes(count: Int, firstCode: Int = 1001) -> [[String: Any]] {
        (0..<count).map { i in
            let magnitude = Double(10 + (i * 37) % 60) / 10
            let time = now.addingTimeInterval(-3_600 * Double(i))
            return [
                "code": "nc\(firstCode + i)", "magnitude": magnitude, "place": places[i % places.count], "time": time,
            ]
        }
    }
    // ANCHOR_END: feed

    /// A container on the SQLite store `Quakes.sqlite` in `folder`, new or already there; with
    /// persistent history tracking when `history` is true.
    public static func makeContainer(in folder: URL, history: Bool = false) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Quakes", managedObjectModel: try BatchModels.quakes())
        // ANCHOR: container
        let description = NSPersistentStoreDescription(url: folder.appendingPathComponent("Quakes.sqlite"))
        if history {
            description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        }
        container.persistentStoreDescriptions = [description]
        // ANCHOR_END: container
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    /// Saves `quakes` the ordinary way, one managed object each, on a background context whose
    /// transaction author is `author`; returns their IDs in order.
    @discardableResult
    public static func save(_ quakes: [[String: Any]], into container: NSPersistentContainer, author: String? = nil)
        throws -> [NSManagedObjectID]
    {
        let context = container.newBackgroundContext()
        context.transactionAuthor = author
        return try context.performAndWait {
            let inserted = quakes.map { values in
                let quake = NSEntityDescription.insertNewObject(forEntityName: "Quake", into: context)
                for (key, value) in values { quake.setValue(value, forKey: key) }
                return quake
            }
            try context.save()
            return inserted.map(\.objectID)
        }
    }

    /// The number of quakes in the store, counted by a new context.
    public static func count(in container: NSPersistentContainer, _ format: String? = nil) throws -> Int {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Quake")
            if let format { request.predicate = NSPredicate(format: format) }
            return try reader.count(for: request)
        }
    }

    // ANCHOR: describe
    /// `nc1002 M4.7 Anza, CA`, with `reviewed` when it is.
    public static func describe(_ quake: NSManagedObject) -> String {
        let code = quake.value(forKey: "code") as? String ?? "nil"
        let magnitude = quake.value(forKey: "magnitude") as? Double ?? 0
        let place = quake.value(forKey: "place") as? String ?? "nil"
        let reviewed = quake.value(forKey: "reviewed") as? Bool ?? false
        return "\(code) M\(String(format: "%.1f", magnitude)) \(place)\(reviewed ? ", reviewed" : "")"
    }

    /// An object ID as `Quake/p3`: the end of its URI, without the store's UUID, which is new
    /// for every store.
    public static func describe(_ id: NSManagedObjectID) -> String {
        id.uriRepresentation().pathComponents.suffix(2).joined(separator: "/")
    }
    // ANCHOR_END: describe

    /// Quakes described one after another: `nc1004 M6.1 Ridgecrest, CA; nc1007 M5.2 ...`.
    public static func list(_ quakes: [NSManagedObject]) -> String {
        quakes.map { describe($0) }.joined(separator: "; ")
    }
}
