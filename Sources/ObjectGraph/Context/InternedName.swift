import Foundation
import Synchronization

/// A name kept once for the life of the process (an entity name, a store's UUID), so that two
/// are equal exactly when they are the same instance: ``ManagedObjectID`` compares and copies
/// these as pointers instead of comparing and retaining strings.
///
/// The table only grows: it holds the entity names of the models and the UUIDs of the stores
/// a process opens (or reads from object URIs), a few bytes each.
struct InternedName: Hashable, @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: the instance a name points to is immutable and never freed (the
    // table keeps it), so the unmanaged reference may be read from any thread.

    /// The interned text; one instance per distinct string.
    final class Storage {
        let string: String
        init(_ string: String) { self.string = string }
    }

    /// Unmanaged: copying an ID costs no reference counting; the table keeps every instance alive.
    private let storage: Unmanaged<Storage>

    /// Every name interned so far, by its text.
    private static let table = Lock<[String: Unmanaged<Storage>]>([:])

    /// Which of the recently interned names to look at first (see ``init(_:recent:)``).
    enum Recent {
        case entity, store, other
    }

    /// The name interned last of each kind, as an opaque `Storage` pointer (0 for none): IDs
    /// are made in runs of one entity and one store, and comparing with the last costs an
    /// atomic load and a string comparison of identical storage, where the table costs a lock
    /// and a hash. Any thread may overwrite it; every value it ever holds is a live instance.
    private static let lastEntity = Atomic<UInt>(0)
    private static let lastStore = Atomic<UInt>(0)

    /// The interned name for `string`: the last of its kind when it is the same text, else
    /// one dictionary lookup under a lock.
    init(_ string: String, recent: Recent = .other) {
        let last: UInt
        switch recent {
        case .entity: last = Self.lastEntity.load(ordering: .acquiring)
        case .store: last = Self.lastStore.load(ordering: .acquiring)
        case .other: last = 0
        }
        if last != 0, let pointer = UnsafeRawPointer(bitPattern: last) {
            let candidate = Unmanaged<Storage>.fromOpaque(pointer)
            if candidate._withUnsafeGuaranteedRef({ $0.string == string }) {
                storage = candidate
                return
            }
        }
        storage = Self.lookUp(string)
        let bits = UInt(bitPattern: storage.toOpaque())
        switch recent {
        case .entity: Self.lastEntity.store(bits, ordering: .releasing)
        case .store: Self.lastStore.store(bits, ordering: .releasing)
        case .other: break
        }
    }

    /// The table's instance for `string`, made on first use.
    private static func lookUp(_ string: String) -> Unmanaged<Storage> {
        table.withLock { table in
            if let existing = table[string] { return existing }
            let made = Unmanaged.passRetained(Storage(string))
            table[string] = made
            return made
        }
    }

    /// The empty name (a temporary ID's store).
    static let empty = InternedName("")

    /// The text.
    var string: String { storage._withUnsafeGuaranteedRef { $0.string } }

    var description: String { string }

    static func == (lhs: InternedName, rhs: InternedName) -> Bool { lhs.storage.toOpaque() == rhs.storage.toOpaque() }

    func hash(into hasher: inout Hasher) { hasher.combine(storage.toOpaque()) }
}
