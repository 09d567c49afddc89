import Foundation

/// A recorder of undo operations: Foundation's UndoManager, which swift-corelibs-foundation
/// on Linux does not have.
///
/// It keeps Foundation's API and meaning for what a context and an application use: actions
/// registered with ``registerUndo(withTarget:handler:)`` are collected into groups, ``undo()``
/// runs the last group's actions in reverse order, and what they register meanwhile becomes
/// the group ``redo()`` runs.
///
/// ```swift
/// let undoManager = UndoManager()
/// context.undoManager = undoManager
/// try book.checkedSetValue("Draft", forKey: "title")
/// context.processPendingChanges()        // one event: one undo group
/// context.undo()                         // the title is back
/// ```
///
/// With ``groupsByEvent`` (the default), a registration made while no group is open opens one.
/// Foundation closes that group when the run loop's event ends; there is no run loop here, so
/// it stays open until ``endUndoGrouping()``, ``undo()``, or the end of a context's event
/// (``ManagedObjectContext/processPendingChanges()``) closes it.
///
/// Where Foundation raises an exception (ending a group that is not open, undoing inside a
/// nested group), this manager does nothing: a wrong call is no reason to stop the program.
public final class UndoManager {
    /// One registered action, or a nested group.
    private enum Action {
        case call(target: ObjectIdentifier, run: () -> Void)
        case group(Group)
    }

    /// A group of actions undone together, with the name an Undo menu item shows.
    private final class Group {
        var actions: [Action] = []
        var actionName = ""
        /// Whether the manager opened it for an event (groupsByEvent), not the application.
        var isEventGroup = false

        /// Whether any action is left, in this group or a nested one.
        var isEmpty: Bool {
            actions.allSatisfy { if case .group(let g) = $0 { return g.isEmpty } else { return false } }
        }

        /// Runs the actions, the last registered first.
        func run() {
            for action in actions.reversed() {
                switch action {
                case .call(_, let run): run()
                case .group(let group): group.run()
                }
            }
        }

        /// Drops the actions of one target; true when nothing is left.
        func removeActions(of target: ObjectIdentifier) -> Bool {
            actions.removeAll { action in
                switch action {
                case .call(let t, _): return t == target
                case .group(let group): return group.removeActions(of: target)
                }
            }
            return isEmpty
        }
    }

    private var undoStack: [Group] = []
    private var redoStack: [Group] = []
    /// The groups open now, outermost first.
    private var openGroups: [Group] = []
    private var disabledCount = 0
    /// Contexts that end their event before the manager opens or closes a group or undoes,
    /// as Core Data's contexts observe NSUndoManagerCheckpointNotification.
    private var checkpointObservers: [WeakContext] = []

    /// Whether a registration made while no group is open opens one, closed at the end of
    /// the event (groupsByEvent).
    public var groupsByEvent = true
    /// How many groups the undo stack keeps, the oldest dropped first; 0 means no limit
    /// (levelsOfUndo).
    public var levelsOfUndo = 0 {
        didSet { trim() }
    }
    /// Whether ``undo()`` is running its group's actions (isUndoing).
    public private(set) var isUndoing = false
    /// Whether ``redo()`` is running its group's actions (isRedoing).
    public private(set) var isRedoing = false

    /// A manager with nothing to undo.
    public init() {}

    /// How many groups are open (groupingLevel).
    public var groupingLevel: Int { openGroups.count }
    /// Whether registrations are recorded: true unless ``disableUndoRegistration()`` was called
    /// more often than ``enableUndoRegistration()`` (isUndoRegistrationEnabled).
    public var isUndoRegistrationEnabled: Bool { disabledCount == 0 }

    /// Whether there is a group to undo, counting an open one with actions (canUndo).
    public var canUndo: Bool {
        if let open = openGroups.first, !open.isEmpty { return true }
        return !undoStack.isEmpty
    }

    /// Whether there is a group to redo (canRedo).
    public var canRedo: Bool {
        checkpoint()
        return !redoStack.isEmpty
    }

    /// Records an action that undoes a change to `target` (registerUndo(withTarget:handler:)).
    /// The manager does not keep the target alive: an action whose target is gone does nothing.
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        guard isUndoRegistrationEnabled else { return }
        if openGroups.isEmpty {
            // Foundation opens the event's group here when groupsByEvent; without it, it raises.
            // Here the action becomes a group of its own then.
            beginGroup(isEventGroup: true)
        }
        if !isUndoing && !isRedoing { redoStack.removeAll() }
        let action = Action.call(target: ObjectIdentifier(target)) { [weak target] in
            if let target { handler(target) }
        }
        openGroups[openGroups.count - 1].actions.append(action)
        if !groupsByEvent, openGroups.count == 1, openGroups[0].isEventGroup { closeGroup() }
    }

    /// Opens a group; groups nest, and only a top-level one becomes an undo step
    /// (beginUndoGrouping).
    public func beginUndoGrouping() {
        if !openGroups.isEmpty { checkpoint() }
        beginGroup(isEventGroup: false)
    }

    /// Closes the innermost open group (endUndoGrouping). Nothing happens when none is open.
    public func endUndoGrouping() {
        guard !openGroups.isEmpty else { return }
        checkpoint()
        closeGroup()
    }

    /// Closes the open groups and undoes the last group (undo): its actions run in reverse
    /// order, and what they register becomes the group ``redo()`` runs. Inside a nested group
    /// it does nothing.
    public func undo() {
        checkpoint()
        if openGroups.count == 1 { closeGroup() }
        guard openGroups.isEmpty, let group = undoStack.popLast() else { return }
        isUndoing = true
        defer { isUndoing = false }
        let redoGroup = collect { group.run() }
        redoGroup.actionName = group.actionName
        if !redoGroup.isEmpty { redoStack.append(redoGroup) }
    }

    /// Redoes the group undone last (redo): what its actions register goes back on the undo
    /// stack.
    public func redo() {
        checkpoint()
        guard openGroups.isEmpty, let group = redoStack.popLast() else { return }
        isRedoing = true
        defer { isRedoing = false }
        let undoGroup = collect { group.run() }
        undoGroup.actionName = group.actionName
        if !undoGroup.isEmpty {
            undoStack.append(undoGroup)
            trim()
        }
    }

    /// Names the group being recorded, or else the last one on the undo stack, for an Undo
    /// menu item (setActionName(_:)).
    public func setActionName(_ actionName: String) {
        if let open = openGroups.last { open.actionName = actionName } else { undoStack.last?.actionName = actionName }
    }

    /// The name of the group ``undo()`` would undo (undoActionName).
    public var undoActionName: String {
        if let open = openGroups.first, !open.isEmpty { return open.actionName }
        return undoStack.last?.actionName ?? ""
    }

    /// The name of the group ``redo()`` would redo (redoActionName).
    public var redoActionName: String { redoStack.last?.actionName ?? "" }

    /// Forgets every action, closes every group, and enables registration
    /// (removeAllActions).
    public func removeAllActions() {
        undoStack = []
        redoStack = []
        openGroups = []
        disabledCount = 0
    }

    /// Forgets every action registered with one target (removeAllActions(withTarget:)).
    public func removeAllActions(withTarget target: AnyObject) {
        let id = ObjectIdentifier(target)
        undoStack.removeAll { $0.removeActions(of: id) }
        redoStack.removeAll { $0.removeActions(of: id) }
        for group in openGroups { _ = group.removeActions(of: id) }
    }

    /// Stops recording registrations until a matching ``enableUndoRegistration()``
    /// (disableUndoRegistration); calls nest.
    public func disableUndoRegistration() { disabledCount += 1 }

    /// Undoes one ``disableUndoRegistration()`` (enableUndoRegistration).
    public func enableUndoRegistration() { if disabledCount > 0 { disabledCount -= 1 } }

    // MARK: For contexts

    /// Closes the group the manager opened for an event, at the event's end.
    func endEventGroup() {
        guard groupsByEvent, openGroups.count == 1, openGroups[0].isEventGroup else { return }
        closeGroup()
    }

    /// Has a context end its event before the manager opens or closes a group or undoes.
    func addCheckpointObserver(_ context: ManagedObjectContext) {
        checkpointObservers.removeAll { $0.context == nil || $0.context === context }
        checkpointObservers.append(WeakContext(context: context))
    }

    /// Stops telling a context of checkpoints.
    func removeCheckpointObserver(_ context: ManagedObjectContext) {
        checkpointObservers.removeAll { $0.context == nil || $0.context === context }
    }

    // MARK: Groups

    private func beginGroup(isEventGroup: Bool) {
        let group = Group()
        group.isEventGroup = isEventGroup
        openGroups.append(group)
    }

    /// Closes the innermost group: into its enclosing group, or onto the undo stack (the redo
    /// stack while undoing). An empty group is dropped.
    private func closeGroup() {
        guard let group = openGroups.popLast() else { return }
        if group.isEmpty { return }
        if let outer = openGroups.last {
            outer.actions.append(.group(group))
        } else if isUndoing {
            redoStack.append(group)
        } else {
            undoStack.append(group)
            trim()
        }
    }

    /// Runs `body` with a group open that collects its registrations, and returns the group.
    private func collect(_ body: () -> Void) -> Group {
        let group = Group()
        openGroups.append(group)
        body()
        // Groups the actions opened and left open are closed into it.
        while openGroups.count > 1 { closeGroup() }
        openGroups.removeAll()
        return group
    }

    private func trim() {
        if levelsOfUndo > 0 && undoStack.count > levelsOfUndo { undoStack.removeFirst(undoStack.count - levelsOfUndo) }
    }

    /// Tells the observing contexts to end their events (NSUndoManagerCheckpointNotification).
    private func checkpoint() {
        for observer in checkpointObservers { observer.context?.processPendingChanges() }
    }

    private struct WeakContext {
        weak var context: ManagedObjectContext?
    }
}
