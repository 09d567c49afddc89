import Foundation

/// What ``AnyFetchRequest/propertiesToFetch`` and ``AnyFetchRequest/propertiesToGroupBy`` hold,
/// where Apple's arrays are `[Any]`: a property's name, its description, an
/// ``ExpressionDescription``, or a ``AnyFetchRequest/Property``.
///
/// ```swift
/// request.propertiesToFetch = ["author", highest]     // a name and an ExpressionDescription
/// request.propertiesToGroupBy = [.named("author")]
/// ```
public protocol FetchRequestProperty {
    /// The property as a fetch reads it.
    var fetchRequestProperty: AnyFetchRequest.Property { get }
}

extension AnyFetchRequest.Property: FetchRequestProperty {
    /// Itself.
    public var fetchRequestProperty: AnyFetchRequest.Property { self }
}

extension String: FetchRequestProperty {
    /// The attribute or to-one relationship of this name (or key path).
    public var fetchRequestProperty: AnyFetchRequest.Property { .attribute(self) }
}

extension ExpressionDescription: FetchRequestProperty {
    /// The computed column it describes.
    public var fetchRequestProperty: AnyFetchRequest.Property { .computed(self) }
}

extension PropertyDescription: FetchRequestProperty {
    /// The property by its name.
    public var fetchRequestProperty: AnyFetchRequest.Property { .attribute(name) }
}

// `[.named("title"), .expression(highest)]` in an array of the protocol (SE-0299), and where
// a Property is expected.
extension FetchRequestProperty where Self == AnyFetchRequest.Property {
    /// An attribute or to-one relationship by name.
    public static func named(_ name: String) -> AnyFetchRequest.Property { .attribute(name) }
    /// A computed column.
    public static func expression(_ description: ExpressionDescription) -> AnyFetchRequest.Property {
        .computed(description)
    }
}
