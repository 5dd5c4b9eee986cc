import RatesCore

/// An immutable in-memory copy of every stored rate, replaced whole when the dataset version changes.
///
/// Handlers read it without locks or database access; the ETag of every data response is
/// derived from its epoch and version.
public final class RatesSnapshot: Sendable {
    public let epoch: String
    public let version: Int64
    /// Every stored day, ascending.
    public let days: [DailyRates]
    /// Every currency published on any day, with the base.
    public let currencies: Set<CurrencyCode>
    /// The strong entity tag of every data response built from this snapshot.
    public let etag: String
    /// The entity tag of the gzip-compressed form of an answer (`"<epoch>-<version>-gzip"`).
    public let gzipEtag: String
    public let base: CurrencyCode

    public init(epoch: String, version: Int64, days: [DailyRates], base: CurrencyCode = .euro) {
        self.epoch = epoch
        self.version = version
        self.days = days
        self.base = base
        var currencies: Set<CurrencyCode> = days.isEmpty ? [] : [base]
        for day in days { currencies.formUnion(day.rates.keys) }
        self.currencies = currencies
        self.etag = "\"\(epoch)-\(version)\""
        self.gzipEtag = "\"\(epoch)-\(version)-gzip\""
    }

    public var isEmpty: Bool { days.isEmpty }
    public var firstDay: Day? { days.first?.day }
    public var latest: DailyRates? { days.last }

    /// The newest publication on or before `day`, or `nil` when `day` precedes the first.
    public func publication(onOrBefore day: Day) -> DailyRates? {
        let index = upperBound(day)
        return index == 0 ? nil : days[index - 1]
    }

    /// Publications from the newest on or before `start` through `end`.
    public func publications(from start: Day, through end: Day) -> ArraySlice<DailyRates> {
        let afterStart = upperBound(start)
        let lower = afterStart > 0 ? afterStart - 1 : 0
        return days[lower..<max(lower, upperBound(end))]
    }

    /// Index of the first day after `day`.
    private func upperBound(_ day: Day) -> Int {
        var low = 0
        var high = days.count
        while low < high {
            let mid = (low + high) / 2
            if days[mid].day <= day { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
