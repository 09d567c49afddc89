/// Objects in the order they were added, with constant-time membership: the context's
/// inserted, updated and deleted objects, which saves process in a stable order.
struct ObjectList: Sequence {
    private(set) var elements: [ManagedObject] = []
    private var members: Set<ObjectIdentifier> = []

    var isEmpty: Bool { elements.isEmpty }
    var count: Int { elements.count }

    func contains(_ object: ManagedObject) -> Bool { members.contains(ObjectIdentifier(object)) }

    /// Adds an object unless it is already there.
    mutating func append(_ object: ManagedObject) {
        if members.insert(ObjectIdentifier(object)).inserted { elements.append(object) }
    }

    mutating func remove(_ object: ManagedObject) {
        guard members.remove(ObjectIdentifier(object)) != nil else { return }
        elements.removeAll { $0 === object }
    }

    mutating func removeAll() {
        elements = []
        members = []
    }

    func makeIterator() -> IndexingIterator<[ManagedObject]> { elements.makeIterator() }
}
