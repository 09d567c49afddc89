/// A mistake in what the user asked, told in words that say what to do instead. Nothing has
/// been changed when one is thrown.
public struct ToDoError: Error, CustomStringConvertible, Equatable {
    /// What was wrong, and what to do.
    public let description: String

    /// An error with its message.
    public init(_ description: String) { self.description = description }
}
