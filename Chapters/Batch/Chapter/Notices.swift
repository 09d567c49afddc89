import CoreData

/// Counts the notifications one context posts while a piece of code runs: how the sections show
/// that an ordinary save tells the application and a batch request does not.
final class Notices: @unchecked Sendable {
    // @unchecked Sendable: the counts are changed and read under `lock` only.
    private let lock = NSLock()
    private var saves = 0
    private var changes: [String] = []
    private var observers: [NSObjectProtocol] = []

    /// Starts counting `context`'s did-save and objects-did-change notifications.
    init(of context: NSManagedObjectContext) {
        let center = NotificationCenter.default
        observers.append(
            center.addObserver(forName: NSManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil)
            {
                [weak self] _ in self?.count { $0.saves += 1 }
            })
        observers.append(
            center.addObserver(
                forName: NSManagedObjectContext.didChangeObjectsNotification, object: context, queue: nil
            ) { [weak self] notification in
                let info = notification.userInfo ?? [:]
                let counts = [NSInsertedObjectsKey, NSUpdatedObjectsKey, NSDeletedObjectsKey, NSRefreshedObjectsKey]
                    .compactMap { key -> String? in
                        guard let objects = info[key] as? Set<NSManagedObject>, !objects.isEmpty else { return nil }
                        return "\(key) \(objects.count)"
                    }
                self?.count { $0.changes.append(counts.joined(separator: ", ")) }
            })
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }

    private func count(_ change: (Notices) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change(self)
    }

    /// How many notifications there were, of both kinds.
    var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return saves + changes.count
    }

    /// `did-save 1` and the objects-did-change notifications with what each carried.
    var summary: String {
        lock.lock()
        defer { lock.unlock() }
        let changed = changes.isEmpty ? "none" : changes.map { "(\($0))" }.joined(separator: " ")
        return "did-save notifications: \(saves), objects-did-change: \(changed)"
    }
}
