import RatesCore

/// Everything the database holds, read in one consistent snapshot.
public struct StoredRates: Sendable {
    /// The database's epoch: random, created with the database, never reused.
    public var epoch: String
    /// The dataset version: the sequence number of the newest change (0 when empty).
    public var version: Int64
    /// Every stored day, ascending, as served: the merged values and the pegs they derive.
    public var days: [DayTable]

    public init(epoch: String, version: Int64, days: [DayTable]) {
        self.epoch = epoch
        self.version = version
        self.days = days
    }
}
