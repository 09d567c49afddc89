import Foundation

/// A place in the persistent history of one or more stores (NSPersistentHistoryToken): the last
/// transaction an application has seen, to fetch what came after it.
///
/// ```swift
/// let data = try JSONEncoder().encode(token)          // keep it between launches
/// let again = try JSONDecoder().decode(PersistentHistoryToken.self, from: data)
/// ```
///
/// Apple's token is opaque and archived with NSSecureCoding; this one is `Codable`. It holds,
/// for each store by its UUID, the number (`Z_PK` in `ATRANSACTION`) of the last transaction.
public struct PersistentHistoryToken: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The last transaction's number for each store, by the store's UUID.
    public let storeTokens: [String: Int64]

    /// A token that places each store's history after the given transaction numbers.
    public init(storeTokens: [String: Int64]) {
        self.storeTokens = storeTokens
    }

    /// The transaction number for a store, or nil when the token says nothing of it.
    public func transactionNumber(forStore storeIdentifier: String) -> Int64? {
        storeTokens[storeIdentifier]
    }

    /// `{store UUID: number, ...}` in store order.
    public var description: String {
        "{" + storeTokens.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
    }
}
