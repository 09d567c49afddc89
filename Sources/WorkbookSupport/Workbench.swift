import ObjectGraph

/// What a section's code works with: somewhere to print, stacks on fresh stores, and a fixed
/// clock, so that a section prints the same bytes on every run and every machine.
public final class Workbench {
    /// Whether the SQL of every fetch and migration is printed too (`--sql`).
    public let showsSQL: Bool
    /// Where the SQL goes when it is shown: the log of every store this workbench makes, and
    /// of every store and migration of a section the runner runs.
    let sqlEcho: SQLEcho?
    private let write: (String) -> Void
    private var directories: [URL] = []
    private var storeCount = 0

    /// A workbench that sends each printed line to `write`.
    public init(showsSQL: Bool = false, write: @escaping (String) -> Void) {
        self.showsSQL = showsSQL
        self.write = write
        sqlEcho = showsSQL ? SQLEcho(write: write) : nil
    }

    deinit {
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
    }

    /// Prints a line (or several) to the section's output.
    public func print(_ text: String = "") {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { write(String(line)) }
    }

    /// ``print(_:)`` for code that runs on another queue (a `perform` block, a notification's
    /// observer): each line goes to the section's output whole, one at a time. The order of
    /// lines printed from several queues is the order the code gives them; a section that
    /// prints from a block waits for the block before it prints again.
    public var printFromAnyQueue: @Sendable (String) -> Void {
        let printer = LockedPrinter(write: write)
        return { line in printer.print(line) }
    }

    /// Lets the main queue run the blocks waiting on it, as an application's main thread does
    /// between two events: a `.mainQueueConcurrencyType` context's merges and `perform` blocks.
    /// On the main thread (a chapter's executable, `workbook book`), one turn of its run loop;
    /// on another thread (the tests), it waits until the main queue has run what was enqueued
    /// before.
    public func letTheMainQueueRun() {
        if Thread.isMainThread {
            RunLoop.main.run(until: Date())
        } else {
            DispatchQueue.main.sync {}
        }
    }

    /// The fixed "now" of every chapter: 1 June 2009, 09:00 UTC, the summer Zarra's article
    /// appeared.
    public static let now = Date(timeIntervalSinceReferenceDate: 265_539_600)

    /// A date a number of days and hours from ``now``.
    public static func date(days: Double = 0, hours: Double = 0) -> Date {
        now.addingTimeInterval(days * 86_400 + hours * 3_600)
    }

    /// A coordinator with a new store of the given type in a private temporary directory. The
    /// store's UUID is fixed (the n-th store of the workbench gets the n-th UUID), so object
    /// URIs print the same on every run.
    public func makeCoordinator(model: ManagedObjectModel, type: StoreType = .sqlite) throws
        -> PersistentStoreCoordinator
    {
        storeCount += 1
        let coordinator =
            sqlEcho.map { echo in SQLLog.routing(to: echo.log) { PersistentStoreCoordinator(managedObjectModel: model) }
            }
            ?? PersistentStoreCoordinator(managedObjectModel: model)
        let uuid = String(format: "B00C0000-0000-4000-8000-%012d", storeCount)
        var url: URL?
        if type != .inMemory {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "workbook-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            directories.append(directory)
            url = directory.appendingPathComponent("Store.sqlite")
        }
        try coordinator.addPersistentStore(type: type, at: url, options: [StoreOption.storeUUID: uuid])
        return coordinator
    }

    /// A new, empty folder that stands for the application's data folder (Zarra's
    /// "Application Support", `~/.local/share/<app>` on Linux). It is a private temporary
    /// folder, removed with the workbench; print only the names of files in it.
    public func makeDataFolder() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "workbook-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        directories.append(directory)
        return directory
    }

    /// A context on a new store (see ``makeCoordinator(model:type:)``).
    public func makeContext(model: ManagedObjectModel, type: StoreType = .sqlite) throws -> ManagedObjectContext {
        ManagedObjectContext(coordinator: try makeCoordinator(model: model, type: type))
    }

    /// Formats a date the same way everywhere: `2009-06-01 09:00 UTC`.
    public static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d UTC", c.year!, c.month!, c.day!, c.hour!, c.minute!)
    }

    /// A value as the chapters print it: strings quoted, dates in UTC, objects by their
    /// attributes in model order.
    public static func describe(_ value: Any?) -> String {
        switch value {
        case nil: return "nil"
        case let s as String: return "\"\(s)\""
        case let d as Date: return format(d)
        case let o as ManagedObject: return describe(object: o)
        case let id as ManagedObjectID: return id.description
        case let d as Double: return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case let dictionary as [String: Any]:
            return "{" + dictionary.keys.sorted().map { "\($0): \(describe(dictionary[$0]))" }.joined(separator: ", ")
                + "}"
        default: return String(describing: value!)
        }
    }

    /// `Employee(firstName: "Mary", lastName: "Worsley", salary: 85000)`.
    public static func describe(object: ManagedObject) -> String {
        let values = object.entity.attributes.filter { !$0.isTransient }.map { a in
            "\(a.name): \(describe((try? object.checkedValue(forKey: a.name)) ?? nil))"
        }
        return "\(object.entity.name)(\(values.joined(separator: ", ")))"
    }
}

/// Lines written one at a time from any queue (``Workbench/printFromAnyQueue``).
private final class LockedPrinter: @unchecked Sendable {
    // @unchecked Sendable: `write` is called only while `lock` is held.
    private let lock = NSLock()
    private let write: (String) -> Void

    init(write: @escaping (String) -> Void) { self.write = write }

    func print(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { write(String(line)) }
    }
}
