import Foundation

/// Index paths of a section and a row, as UIKit and AppKit add them to Foundation's `IndexPath`
/// (`IndexPath(row:section:)`, `section`, `row`, `item`); Linux's Foundation has none of them,
/// and a fetched results controller speaks in them.
extension IndexPath {
    /// An index path of a row (an item) in a section: `[section, row]`.
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    /// An index path of an item in a section: `[section, item]`.
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    /// The section: the first index (0 for an empty index path).
    public var section: Int { isEmpty ? 0 : self[startIndex] }
    /// The row in the section: the second index (0 when there is none).
    public var row: Int { count > 1 ? self[index(after: startIndex)] : 0 }
    /// The item in the section, the same as ``row``.
    public var item: Int { row }
}
