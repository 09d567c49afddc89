/// What happened to an object or a section of a fetched results controller's results
/// (NSFetchedResultsChangeType, with Apple's raw values).
public enum FetchedResultsChangeType: UInt, Sendable, CustomStringConvertible {
    /// The object or section is new in the results: it has a new index path or index only.
    case insert = 1
    /// The object or section left the results: it has an old index path or index only.
    case delete = 2
    /// The object changed and moved: it has its old index path and its new one.
    case move = 3
    /// The object changed and kept its place among the others.
    case update = 4

    /// `insert`, `delete`, `move` or `update`.
    public var description: String {
        switch self {
        case .insert: "insert"
        case .delete: "delete"
        case .move: "move"
        case .update: "update"
        }
    }
}
