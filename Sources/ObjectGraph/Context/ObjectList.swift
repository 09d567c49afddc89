/// Objects in the order they were added, with constant-time membership: the context's
/// inserted, updated and deleted objects, which saves process in a stable order.
///
/// Membership is a bit in each object's `listMembership`, one bit per list: the test runs on
/// every change an application makes, and testing a bit costs less than hashing the object.
/// An object belongs to one context, so the bit says which of that context's lists hold it.
struct ObjectList: Sequence {
    /// This list's bit in `ManagedObject.listMembership`.
    private let bit: UInt8
    private(set) var elements: [ManagedObject] = []

    /// The context's three lists' bits: testing one reads the object only, not the list.
    static let insertedBit: UInt8 = 1, updatedBit: UInt8 = 2, deletedBit: UInt8 = 4
    /// The context's three lists.
    static func inserted() -> ObjectList { ObjectList(bit: insertedBit) }
    static func updated() -> ObjectList { ObjectList(bit: updatedBit) }
    static func deleted() -> ObjectList { ObjectList(bit: deletedBit) }
    /// The current event's three lists (ContextEvents).
    static func eventInserted() -> ObjectList { ObjectList(bit: ContextEvents.insertedBit) }
    static func eventUpdated() -> ObjectList { ObjectList(bit: ContextEvents.updatedBit) }
    static func eventDeleted() -> ObjectList { ObjectList(bit: ContextEvents.deletedBit) }

    private init(bit: UInt8) { self.bit = bit }

    var isEmpty: Bool { elements.isEmpty }
    var count: Int { elements.count }

    @inline(__always)
    func contains(_ object: ManagedObject) -> Bool { object.listMembership & bit != 0 }

    /// Adds an object unless it is already there.
    @inline(__always)
    mutating func append(_ object: ManagedObject) {
        guard object.listMembership & bit == 0 else { return }
        object.listMembership |= bit
        elements.append(object)
    }

    mutating func remove(_ object: ManagedObject) {
        guard contains(object) else { return }
        object.listMembership &= ~bit
        elements.removeAll { $0 === object }
    }

    mutating func removeAll() {
        for object in elements { object.listMembership &= ~bit }
        elements = []
    }

    func makeIterator() -> IndexingIterator<[ManagedObject]> { elements.makeIterator() }
}
