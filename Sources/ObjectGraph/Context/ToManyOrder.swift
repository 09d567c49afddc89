import Foundation

/// The order of an ordered to-many relationship of one object (NSOrderedSet's order), kept
/// beside the relationship's set of IDs, which the rest of the context works with.
///
/// The set decides membership; the order only ranks it. Whatever changes the set without
/// knowing about order (rollback, refresh, a merge, IDs made permanent at save) leaves the
/// order to be reconciled when it is read: members the order lacks come last, in key order,
/// and IDs no longer in the set are dropped.
struct ToManyOrder {
    /// The destinations, in order (temporary IDs until their objects are saved).
    var ids: [ManagedObjectID]
    /// Whether the order changed since it was loaded or saved: a save writes it then.
    var changed: Bool
}

extension ManagedObject {
    /// The IDs of the ordered to-many at property index `i`, in order, reconciled with the
    /// relationship's set; `permanent` maps an ID that was temporary to the one it became.
    func orderedIDs(at i: Int, permanent: (ManagedObjectID) -> ManagedObjectID) -> [ManagedObjectID] {
        let members = storage[i].objectIDs ?? []
        var seen: Set<ManagedObjectID> = []
        var result: [ManagedObjectID] = []
        result.reserveCapacity(members.count)
        for id in (toManyOrders[i]?.ids ?? []).lazy.map(permanent)
        where members.contains(id) && seen.insert(id).inserted {
            result.append(id)
        }
        if result.count < members.count {
            result += members.subtracting(seen).sorted { $0.primaryKey < $1.primaryKey }
        }
        return result
    }

    /// Records the order loaded from a store.
    func loadOrder(_ ids: [ManagedObjectID], at i: Int) {
        toManyOrders[i] = ToManyOrder(ids: ids, changed: false)
    }

    /// Sets a new order (an application setting the relationship to an array).
    func setOrder(_ ids: [ManagedObjectID], at i: Int, permanent: (ManagedObjectID) -> ManagedObjectID) {
        let before = orderedIDs(at: i, permanent: permanent)
        toManyOrders[i] = ToManyOrder(ids: ids, changed: (toManyOrders[i]?.changed ?? false) || before != ids)
    }

    /// Keeps the order in step with one destination added (at the end, as Core Data appends
    /// an object added through the inverse) or removed.
    func updateOrder(at i: Int, adding added: ManagedObjectID?, removing removed: ManagedObjectID?) {
        var order = toManyOrders[i] ?? ToManyOrder(ids: [], changed: false)
        if let removed, let k = order.ids.firstIndex(of: removed) {
            order.ids.remove(at: k)
            order.changed = true
        }
        if let added, !order.ids.contains(added) {
            order.ids.append(added)
            order.changed = true
        }
        toManyOrders[i] = order
    }

    /// Marks every order saved.
    func orderSaved() {
        // Every saved object comes here, and most have no ordered to-many: iterating an empty
        // dictionary's keys cost 300 instructions an object.
        guard !toManyOrders.isEmpty else { return }
        for i in toManyOrders.keys { toManyOrders[i]?.changed = false }
    }
}
