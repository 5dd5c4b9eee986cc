import RatesCore

/// An immutable in-memory copy of every stored rate, replaced whole when the dataset version changes.
///
/// Handlers read it without locks or database access; the ETag of every data response is
/// derived from its epoch and version. Each day is a compact ``RatesCore/DayTable``; finding
/// a day is a binary search over the days in order.
public final class RatesSnapshot: Sendable {
    public let epoch: String
    public let version: Int64
    /// Every stored day, ascending.
    public let days: [DayTable]
    /// Every currency published on any day, with the base.
    public let currencies: Set<CurrencyCode>
    /// The strong entity tag of every data response built from this snapshot.
    public let etag: String
    /// The entity tag of the gzip-compressed form of an answer (`"<epoch>-<version>-gzip"`).
    public let gzipEtag: String
    public let base: CurrencyCode

    public init(epoch: String, version: Int64, days: [DayTable], base: CurrencyCode = .euro) {
        self.epoch = epoch
        self.version = version
        self.days = days
        self.base = base
        self.currencies = days.isEmpty ? [] : DayTable.currencies(in: days).union([base])
        self.etag = "\"\(epoch)-\(version)\""
        self.gzipEtag = "\"\(epoch)-\(version)-gzip\""
    }

    /// A snapshot of `days` given as rate texts per currency.
    public convenience init(epoch: String, version: Int64, dailyRates: [DailyRates], base: CurrencyCode = .euro) {
        self.init(epoch: epoch, version: version, days: dailyRates.map { DayTable(day: $0.day, rates: $0.rates, sources: $0.sources) }, base: base)
    }

    public var isEmpty: Bool { days.isEmpty }
    public var firstDay: Day? { days.first?.day }
    public var latest: DayTable? { days.last }

    /// The newest publication on or before `day`, or `nil` when `day` precedes the first.
    public func publication(onOrBefore day: Day) -> DayTable? {
        let index = upperBound(day)
        return index == 0 ? nil : days[index - 1]
    }

    /// Publications from the newest on or before `start` through `end`.
    public func publications(from start: Day, through end: Day) -> ArraySlice<DayTable> {
        let afterStart = upperBound(start)
        let lower = afterStart > 0 ? afterStart - 1 : 0
        return days[lower..<max(lower, upperBound(end))]
    }

    /// Cross rates of one publication against this snapshot's base.
    public func crossRates(_ publication: DayTable) -> CrossRates {
        CrossRates(providerBase: base, table: publication)
    }

    /// Index of the first day after `day`.
    private func upperBound(_ day: Day) -> Int { days.partitionPoint { $0.day <= day } }
}
