import GRDB
import RatesCore
import Synchronization

/// Reads of the providers' quotes as published, for answers that need more than the merged
/// table: an answer computed from some providers only, the published figure behind a value,
/// and each provider's holdings in `/v1/providers`.
extension RatesStore {
    /// What the store holds of one provider.
    public struct ProviderHoldings: Sendable, Equatable {
        /// Its first and newest stored publication days.
        public var firstDay: Day
        public var latestDay: Day
        /// How many publications are stored.
        public var publicationCount: Int
        /// The currencies of its newest publication, in code order.
        public var latestCurrencies: [CurrencyCode]
    }
}
