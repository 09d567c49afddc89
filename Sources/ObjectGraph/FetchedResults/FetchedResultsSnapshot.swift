import Foundation

/// A fetched results controller's results as section names and object IDs, in order: what
/// Apple's controller hands a diffable data source as an `NSDiffableDataSourceSnapshot` with
/// `String` section identifiers and `NSManagedObjectID` item identifiers. Linux has no UIKit
/// or AppKit, so no NSDiffableDataSourceSnapshot: this value has its reading half.
public struct FetchedResultsSnapshot: Hashable, Sendable {
    /// The sections' names, in order.
    public private(set) var sectionIdentifiers: [String]
    private var items: [[ManagedObjectID]]
    /// The objects that changed in place since the previous snapshot (updated, not moved): what
    /// a data source reloads.
    public internal(set) var reloadedItemIdentifiers: [ManagedObjectID] = []

    /// A snapshot of sections and their objects' IDs.
    init(sections: [(name: String, items: [ManagedObjectID])]) {
        sectionIdentifiers = sections.map(\.name)
        items = sections.map(\.items)
    }

    /// Every object's ID, section after section.
    public var itemIdentifiers: [ManagedObjectID] { items.flatMap { $0 } }
    /// How many sections there are.
    public var numberOfSections: Int { sectionIdentifiers.count }
    /// How many objects there are in all.
    public var numberOfItems: Int { items.reduce(0) { $0 + $1.count } }

    /// The IDs of one section's objects; empty for a section the snapshot does not have.
    public func itemIdentifiers(inSection identifier: String) -> [ManagedObjectID] {
        indexOfSection(identifier).map { items[$0] } ?? []
    }

    /// How many objects one section holds; 0 for a section the snapshot does not have.
    public func numberOfItems(inSection identifier: String) -> Int { itemIdentifiers(inSection: identifier).count }

    /// The index of a section, or nil.
    public func indexOfSection(_ identifier: String) -> Int? { sectionIdentifiers.firstIndex(of: identifier) }

    /// The position of an object among all the snapshot's objects, or nil.
    public func indexOfItem(_ identifier: ManagedObjectID) -> Int? { itemIdentifiers.firstIndex(of: identifier) }

    /// The name of the section holding an object, or nil.
    public func sectionIdentifier(containingItem identifier: ManagedObjectID) -> String? {
        items.firstIndex { $0.contains(identifier) }.map { sectionIdentifiers[$0] }
    }
}
