import Foundation

/// A fetch request stored in a model: what Xcode's model editor calls a Fetch Request
/// (`<fetchRequest>` in a model file), and what a fetched property fetches with.
///
/// Core Data keeps these as NSFetchRequest objects (`fetchRequestTemplatesByName`); here the
/// template keeps the entity, the predicate's format text and Xcode's other settings as
/// written, so a model file reads back unchanged, and ``fetchRequest()`` builds the request.
///
/// ```swift
/// let template = FetchRequestTemplate(name: "Overdue", entityName: "ToDo", predicateFormat: "dueDate < $NOW")
/// ```
public struct FetchRequestTemplate: Hashable, Sendable {
    /// The template's name, unique within its model (or its fetched property's, for one of those).
    public var name: String
    /// The entity it fetches.
    public var entityName: String
    /// The predicate in the format language, as the model file spells it; nil fetches every object.
    public var predicateFormat: String?
    /// Xcode's other settings of the request, by attribute name (`fetchLimit`, `fetchBatchSize`,
    /// `includeSubentities`, `returnObjectsAsFaults`, ...), as written.
    public var settings: [String: String]

    /// Describes a fetch request template.
    public init(name: String, entityName: String, predicateFormat: String? = nil, settings: [String: String] = [:]) {
        self.name = name
        self.entityName = entityName
        self.predicateFormat = predicateFormat
        self.settings = settings
    }

    /// A fetch request for the template's entity, predicate, limit, offset, batch size and
    /// distinctness (fetchRequestFromTemplateWithName: without substitution).
    ///
    /// - Throws: ``PredicateError`` when the predicate format does not parse.
    public func fetchRequest() throws -> FetchRequest<ManagedObject> {
        let request = FetchRequest(entityName: entityName)
        if let predicateFormat, !predicateFormat.isEmpty {
            request.predicate = try Predicate(checkedFormat: predicateFormat)
        }
        if let limit = settings["fetchLimit"].flatMap(Int.init) { request.fetchLimit = limit }
        if let offset = settings["fetchOffset"].flatMap(Int.init) { request.fetchOffset = offset }
        if let batch = settings["fetchBatchSize"].flatMap(Int.init) { request.fetchBatchSize = batch }
        if let distinct = settings["returnDistinctResults"] { request.returnsDistinctResults = distinct == "YES" }
        if let sub = settings["includeSubentities"] { request.includesSubentities = sub != "NO" }
        return request
    }
}
