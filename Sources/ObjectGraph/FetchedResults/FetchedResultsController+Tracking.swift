import Foundation

/// Following the context: each objects-did-change notification updates the results in memory
/// and tells the delegate what changed, in Apple's order and with Apple's index paths.
extension FetchedResultsController {
    /// Listens to the context's objects-did-change notifications (once).
    func startTracking() {
        guard observer == nil else { return }
        // Filtered on this controller's context: other contexts' changes reach it only merged.
        observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.objectsDidChangeNotification, object: managedObjectContext, queue: nil
        ) { [weak self] notification in
            self?.contextDidChange(notification.userInfo ?? [:])
        }
    }

    /// Applies one event's changes: the objects it names are removed, evaluated again or
    /// added; the rest keep their order.
    func contextDidChange(_ info: [AnyHashable: Any]) {
        // Apple: with no delegate the controller does not track changes.
        guard let delegate, let old = fetchedObjects else { return }
        func objects(_ key: String) -> [ManagedObject] {
            // Sets come in no order; the ID's text gives new objects with equal sort keys a
            // stable one.
            ((info[key] as? Set<ManagedObject>) ?? []).sorted { $0.objectID.uriString < $1.objectID.uriString }
        }
        var newObjects: [ManagedObject]
        var changed = Set<ObjectIdentifier>()
        if info[ManagedObjectContext.invalidatedAllObjectsKey] != nil {
            // reset(): every object is gone; what the store holds now is the new result.
            newObjects = (try? managedObjectContext.fetch(fetchRequest)) ?? []
        } else {
            let removed = Set(
                (objects(ManagedObjectContext.deletedObjectsKey) + objects(ManagedObjectContext.invalidatedObjectsKey))
                    .map(ObjectIdentifier.init))
            let touched =
                objects(ManagedObjectContext.updatedObjectsKey) + objects(ManagedObjectContext.refreshedObjectsKey)
            changed = Set(touched.map(ObjectIdentifier.init))
            let inserted = objects(ManagedObjectContext.insertedObjectsKey)
            let present = Set(old.map(ObjectIdentifier.init))
            // Nothing of the results and nothing that could join them: no work, no calls.
            if removed.isDisjoint(with: present) && changed.isDisjoint(with: present) && inserted.isEmpty
                && !touched.contains(where: matches)
            {
                return
            }
            newObjects = old.filter { object in
                let id = ObjectIdentifier(object)
                return !removed.contains(id) && (!changed.contains(id) || matches(object))
            }
            var added = present
            for object in inserted + touched where !removed.contains(ObjectIdentifier(object)) && matches(object) {
                if added.insert(ObjectIdentifier(object)).inserted { newObjects.append(object) }
            }
            // Unchanged objects keep their relative order: the sort is stable and they come first.
            newObjects = (try? SortDescriptor.sort(newObjects, by: fetchRequest.sortDescriptors)) ?? newObjects
            if fetchRequest.fetchLimit > 0 { newObjects = Array(newObjects.prefix(fetchRequest.fetchLimit)) }
        }
        let oldSections = sectionList
        guard let newSections = try? sections(of: newObjects, requireOrder: false) else { return }
        let changes = FetchedResultsChanges(old: oldSections, new: newSections, changed: changed)
        guard !changes.isEmpty else { return }
        sectionList = newSections
        fetchedObjects = newSections.flatMap(\.members)
        report(changes, to: delegate)
    }

    /// Whether an object belongs in the results: of the request's entity (or a sub-entity,
    /// unless `includesSubentities` is off), in this context, not deleted, and matching the
    /// predicate.
    private func matches(_ object: ManagedObject) -> Bool {
        guard object.managedObjectContext === managedObjectContext, !managedObjectContext.isDeleted(object) else {
            return false
        }
        let entity = object.entity.name
        if entity != fetchRequest.entityName {
            guard fetchRequest.includesSubentities,
                managedObjectContext.coordinator.managedObjectModel.isEntity(entity, kindOf: fetchRequest.entityName)
            else { return false }
        }
        guard let predicate = fetchRequest.predicate else { return true }
        return (try? predicate.checkedEvaluate(with: object)) ?? false
    }

    /// Tells the delegate: section changes before object changes, as Apple's controller does;
    /// a snapshot delegate gets the new snapshot only.
    private func report(_ changes: FetchedResultsChanges, to delegate: any FetchedResultsControllerDelegate) {
        if let snapshotDelegate = delegate as? any FetchedResultsControllerSnapshotDelegate {
            snapshotDelegate.controller(
                self, didChangeContentWith: snapshot(reloading: changes.updated.map(\.object.objectID)))
            return
        }
        delegate.controllerWillChangeContent(self)
        for (index, section) in changes.deletedSections {
            delegate.controller(self, didChange: section, atSectionIndex: index, for: .delete)
        }
        for (index, section) in changes.insertedSections {
            delegate.controller(self, didChange: section, atSectionIndex: index, for: .insert)
        }
        for change in changes.deleted {
            delegate.controller(self, didChange: change.object, at: change.old, for: .delete, newIndexPath: nil)
        }
        for change in changes.inserted {
            delegate.controller(self, didChange: change.object, at: nil, for: .insert, newIndexPath: change.new)
        }
        for change in changes.moved {
            delegate.controller(self, didChange: change.object, at: change.old, for: .move, newIndexPath: change.new)
        }
        for change in changes.updated {
            delegate.controller(self, didChange: change.object, at: change.old, for: .update, newIndexPath: change.new)
        }
        delegate.controllerDidChangeContent(self)
    }
}

/// The difference between two section lists: sections deleted and inserted, objects deleted
/// (at their old index paths), inserted (at their new ones), moved and updated (both).
struct FetchedResultsChanges {
    struct Change {
        let object: ManagedObject
        let old: IndexPath?
        let new: IndexPath?
    }
    var deletedSections: [(Int, FetchedResultsSection)] = []
    var insertedSections: [(Int, FetchedResultsSection)] = []
    var deleted: [Change] = []
    var inserted: [Change] = []
    var moved: [Change] = []
    var updated: [Change] = []

    var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && deleted.isEmpty && inserted.isEmpty && moved.isEmpty
            && updated.isEmpty
    }

    /// `changed`: the objects the event updated or refreshed. An object that stays in the
    /// results is an update if it keeps its section and its place among the objects that did
    /// not change, and a move otherwise.
    init(old: [FetchedResultsSection], new: [FetchedResultsSection], changed: Set<ObjectIdentifier>) {
        let oldNames = Set(old.map(\.name))
        let newNames = Set(new.map(\.name))
        deletedSections = old.enumerated().filter { !newNames.contains($0.element.name) }.map {
            ($0.offset, $0.element)
        }
        insertedSections = new.enumerated().filter { !oldNames.contains($0.element.name) }.map {
            ($0.offset, $0.element)
        }

        // Each object's place: index path, section name, and rank in the whole list.
        struct Place {
            let path: IndexPath
            let section: String
            let rank: Int
        }
        func places(_ sections: [FetchedResultsSection]) -> (order: [ManagedObject], place: [ObjectIdentifier: Place]) {
            var order: [ManagedObject] = []
            var place: [ObjectIdentifier: Place] = [:]
            for (s, section) in sections.enumerated() {
                for (row, object) in section.members.enumerated() {
                    place[ObjectIdentifier(object)] = Place(
                        path: IndexPath(row: row, section: s), section: section.name, rank: order.count)
                    order.append(object)
                }
            }
            return (order, place)
        }
        let (oldOrder, oldPlace) = places(old)
        let (newOrder, newPlace) = places(new)
        deleted = oldOrder.filter { newPlace[ObjectIdentifier($0)] == nil }.map {
            Change(object: $0, old: oldPlace[ObjectIdentifier($0)]?.path, new: nil)
        }
        inserted = newOrder.filter { oldPlace[ObjectIdentifier($0)] == nil }.map {
            Change(object: $0, old: nil, new: newPlace[ObjectIdentifier($0)]?.path)
        }

        // The objects in both lists; those the event did not change are the fixed points.
        let survivors = newOrder.filter { oldPlace[ObjectIdentifier($0)] != nil }
        func isFixed(_ object: ManagedObject) -> Bool { !changed.contains(ObjectIdentifier(object)) }
        // For each survivor: how many fixed survivors precede it, before and after.
        func fixedBefore(_ order: [ManagedObject]) -> [ObjectIdentifier: Int] {
            var result: [ObjectIdentifier: Int] = [:]
            var fixed = 0
            for object in order
            where oldPlace[ObjectIdentifier(object)] != nil && newPlace[ObjectIdentifier(object)] != nil {
                result[ObjectIdentifier(object)] = fixed
                if isFixed(object) { fixed += 1 }
            }
            return result
        }
        let before = fixedBefore(oldOrder)
        let after = fixedBefore(newOrder)
        // Changed survivors between the same two fixed objects in both lists form a group; a
        // group whose members changed their order among themselves moved, all of it.
        var groups: [String: [ManagedObject]] = [:]
        var moving = Set<ObjectIdentifier>()
        for object in survivors {
            let id = ObjectIdentifier(object)
            guard let o = oldPlace[id], let n = newPlace[id] else { continue }
            if o.section != n.section || (!isFixed(object) && before[id] != after[id]) {
                moving.insert(id)
            } else if !isFixed(object) {
                groups["\(n.section)\u{1F}\(after[id] ?? 0)", default: []].append(object)
            }
        }
        for (_, members) in groups where members.count > 1 {
            let oldRanks = members.map { oldPlace[ObjectIdentifier($0)]?.rank ?? 0 }
            if oldRanks != oldRanks.sorted() { for object in members { moving.insert(ObjectIdentifier(object)) } }
        }
        for object in survivors {
            let id = ObjectIdentifier(object)
            guard let o = oldPlace[id], let n = newPlace[id] else { continue }
            if moving.contains(id) {
                moved.append(Change(object: object, old: o.path, new: n.path))
            } else if !isFixed(object) {
                updated.append(Change(object: object, old: o.path, new: n.path))
            }
        }
    }
}
