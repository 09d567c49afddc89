import Foundation

/// A section of a fetched results controller's results (NSFetchedResultsSectionInfo).
public protocol FetchedResultsSectionInfo {
    /// The section's name: the objects' value at the controller's `sectionNameKeyPath`.
    var name: String { get }
    /// The section's title in a section index: by default its name's first letter, capitalized.
    var indexTitle: String? { get }
    /// How many objects the section holds.
    var numberOfObjects: Int { get }
    /// The section's objects, in the fetch request's order.
    var objects: [ManagedObject]? { get }
}

/// One section of results: its name, index title and objects.
struct FetchedResultsSection: FetchedResultsSectionInfo {
    let name: String
    let indexTitle: String?
    let members: [ManagedObject]
    var numberOfObjects: Int { members.count }
    var objects: [ManagedObject]? { members }
}
