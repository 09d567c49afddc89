import Foundation
import Synchronization

/// The property index of each typed property of an entity's class, found by the identity of the
/// property's key path instead of by reading its key.
///
/// A ``Managed`` property knows its key only inside the wrapper stored in the object, and
/// reading the wrapper through its key path (`object[keyPath:]`) cost about 840 instructions per
/// read, unspecialized generic metadata included: more than the rest of a typed read. The key
/// path itself is one object per property (the compiler makes key path literals once), so its
/// identity finds the index. An entity has a few typed properties, so the table is a short array
/// scanned under a `Mutex` (a futex, about 20 instructions uncontended; `NSLock` and a
/// dictionary cost 550 per read). A key path entered is retained for good (one small object per
/// typed property of a class, and the compiler keeps key path literals alive anyway), so that
/// its address is never reused by another key path.
final class TypedPropertyIndexes: Sendable {
    private struct Entry {
        let keyPath: ObjectIdentifier
        let index: Int
    }
    private let table = Mutex<[Entry]>([])

    /// The index for a wrapper's key path, or, the first time, what `lookUp` finds (by key),
    /// remembered; nil when the entity has no such property.
    @inline(__always)
    func index(of keyPath: AnyKeyPath, lookUp: () -> Int?) -> Int? {
        let id = ObjectIdentifier(keyPath)
        let known = table.withLock { entries -> Int? in
            for entry in entries where entry.keyPath == id { return entry.index }
            return nil
        }
        if let known { return known }
        guard let index = lookUp() else { return nil }
        let isNew = table.withLock { entries -> Bool in
            guard !entries.contains(where: { $0.keyPath == id }) else { return false }
            entries.append(Entry(keyPath: id, index: index))
            return true
        }
        if isNew { _ = Unmanaged.passRetained(keyPath) }
        return index
    }

    /// Forgets every index: the entity's properties changed.
    func reset() {
        table.withLock { $0 = [] }
    }
}
