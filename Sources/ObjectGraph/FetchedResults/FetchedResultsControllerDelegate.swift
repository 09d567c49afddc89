import Foundation

/// What a fetched results controller tells as its results change
/// (NSFetchedResultsControllerDelegate). Every method has a default that does nothing, as
/// Apple's are optional: implement those you need.
///
/// For one change of the context (one objects-did-change notification), the controller calls
/// ``controllerWillChangeContent(_:)``, then each section change, then each object change
/// ("the fetched results controller reports changes to its section before changes to the
/// fetch result objects"), then ``controllerDidChangeContent(_:)``; it calls nothing when the
/// change did not touch its results. Deleted objects and sections carry their index in the
/// results before the change, inserted ones their index after it, moved objects both, and
/// updated objects their index before and after (the same place among the other objects).
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// Changes are about to be reported (controllerWillChangeContent:).
    func controllerWillChangeContent(_ controller: FetchedResultsController)
    /// An object was inserted, deleted, moved or updated
    /// (controller:didChangeObject:atIndexPath:forChangeType:newIndexPath:);
    /// `anObject` is the managed object, typed `Any` as in Apple's protocol.
    func controller(
        _ controller: FetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?)
    /// A section was inserted or deleted (controller:didChangeSection:atIndex:forChangeType:).
    func controller(
        _ controller: FetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType)
    /// All changes of one event have been reported (controllerDidChangeContent:).
    func controllerDidChangeContent(_ controller: FetchedResultsController)
    /// A section's index title; nil uses the controller's default, the name's first letter capitalized
    /// (controller:sectionIndexTitleForSectionName:).
    func controller(_ controller: FetchedResultsController, sectionIndexTitleForSectionName sectionName: String)
        -> String?
}

extension FetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: FetchedResultsController) {}
    /// Does nothing.
    public func controller(
        _ controller: FetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {}
    /// Does nothing.
    public func controller(
        _ controller: FetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
    ) {}
    /// Does nothing.
    public func controllerDidChangeContent(_ controller: FetchedResultsController) {}
    /// nil: the controller's default title.
    public func controller(_ controller: FetchedResultsController, sectionIndexTitleForSectionName sectionName: String)
        -> String?
    { nil }
}

/// A delegate told of changes as a whole new snapshot of the results (the diffable form of
/// NSFetchedResultsControllerDelegate, controller(_:didChangeContentWith:)).
///
/// As Apple's: "If this method is implemented, no other delegate methods are invoked" (apart
/// from the section index title). Swift cannot ask whether a protocol's method was
/// implemented, so adopting this protocol is what says so.
public protocol FetchedResultsControllerSnapshotDelegate: FetchedResultsControllerDelegate {
    /// The results after a change, as a snapshot of section names and object IDs
    /// (controller:didChangeContentWithSnapshot:).
    func controller(_ controller: FetchedResultsController, didChangeContentWith snapshot: FetchedResultsSnapshot)
}
