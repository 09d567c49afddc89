import Foundation

/// Fetching by result type: a request typed with something other than a managed object class
/// (`FetchRequest<NSDictionary>`, `FetchRequest<ManagedObjectID>`, `FetchRequest<NSNumber>`,
/// `FetchRequest<FetchRequestResult>`) returns what its ``AnyFetchRequest/resultType`` says, as
/// Apple's `fetch(_:)` of an `NSFetchRequest<ResultType>` does.
extension ManagedObjectContext {
    /// The results of a request of any result type (executeFetchRequest:error:): objects, object
    /// IDs, one `NSDictionary` per object or group, or the count as one `NSNumber`, each given
    /// as `Result`.
    ///
    /// ```swift
    /// let request = FetchRequest<NSDictionary>(entityName: "Book")
    /// request.resultType = .dictionary
    /// let rows = try context.fetch(request)        // [NSDictionary]
    /// ```
    ///
    /// - Throws: what fetching managed objects throws, and the exception
    ///   NSInvalidArgumentException when a result is not a `Result` (a `FetchRequest<NSDictionary>`
    ///   whose result type is still `.managedObject`, say), naming both types.
    public func fetch<Result>(_ request: FetchRequest<Result>) throws -> [Result] {
        let results: [Any]
        switch try execute(request) {
        case .objects(let objects): results = objects
        case .objectIDs(let ids): results = ids
        case .dictionaries(let rows): results = rows.map { NSDictionary(dictionary: $0) }
        case .count(let n): results = [NSNumber(value: n)]
        }
        return try results.map { result in
            guard let typed = result as? Result else {
                throw CoreDataError(
                    exception: .invalidArgument,
                    "A FetchRequest<\(Result.self)> for \(request.entityName) "
                        + "with result type \(request.resultType) returned a \(type(of: result)), not a \(Result.self): "
                        + "set resultType to match, or type the request to match")
            }
            return typed
        }
    }
}
