import Foundation

extension PersistentStoreCoordinator {
    /// The token of the newest transaction in the persistent history of the given stores, or of
    /// all this coordinator's stores when `stores` is nil
    /// (currentPersistentHistoryToken(fromStores:)); nil when none has any history.
    public func currentPersistentHistoryToken(fromStores stores: [PersistentStore]? = nil) throws
        -> PersistentHistoryToken?
    {
        var tokens: [String: Int64] = [:]
        for store in stores ?? persistentStores {
            guard let history = store.backend as? PersistentHistoryStore, let last = try history.lastTransactionNumber()
            else { continue }
            tokens[store.identifier] = last
        }
        return tokens.isEmpty ? nil : PersistentHistoryToken(storeTokens: tokens)
    }
}
