import Foundation
import RatesCore

/// One page of the delta feed: what changed after a sequence number, coalesced per (day, currency).
public struct ChangePage: Sendable, Equatable {
    /// New or changed values: day → currency → rate text.
    public var upserts: [Day: [CurrencyCode: String]] = [:]
    /// Withdrawn values: day → currencies.
    public var deletes: [Day: [CurrencyCode]] = [:]
    /// Where each upserted value came from, when not from the ECB on that very day: day → currency → source.
    public var sources: [Day: [CurrencyCode: RateSource]] = [:]
    /// The sequence number this page brings a client up to.
    public var throughSequence: Int64
    /// Whether more changes follow this page.
    public var more: Bool
}

/// One page of the full state: complete days in ascending order.
public struct StatePage: Sendable, Equatable {
    public var days: [DailyRates]
    /// Whether more days follow the last one in this page.
    public var more: Bool
}

/// One row of the change log: a value set (or withdrawn, `value == nil`) at a sequence number.
public struct ChangeLogEntry: Sendable, Equatable {
    public var sequence: Int64
    public var day: Day
    public var currency: CurrencyCode
    /// The new rate text, or `nil` when the value was withdrawn.
    public var value: String?
    /// Where the value came from, when not from the ECB on that very day (`nil` too when withdrawn).
    public var source: RateSource?

    public init(sequence: Int64, day: Day, currency: CurrencyCode, value: String?, source: RateSource? = nil) {
        self.sequence = sequence
        self.day = day
        self.currency = currency
        self.value = value
        self.source = source
    }
}

extension RateSource {
    /// The source stored in a row's `provider` and `providerDay` columns for a value of `day`, or
    /// `nil` when it is the default: the ECB on that very day (or a row written before providers).
    static func stored(provider: String?, providerDay: String?, of day: Day) -> RateSource? {
        let provider = provider ?? ProviderKey.ecb
        let ownDay = providerDay.flatMap(Day.init) ?? day
        return provider == ProviderKey.ecb && ownDay == day ? nil : RateSource(provider: provider, day: ownDay)
    }
}

extension ChangeLogEntry {
    /// The entry of a change-log row as stored, or `nil` when its day or currency cannot be read.
    init?(sequence: Int64, day dayText: String, currency code: String, value: String?, provider: String?, providerDay: String?) {
        guard let day = Day(dayText), let currency = CurrencyCode(code) else { return nil }
        let source = value == nil ? nil : RateSource.stored(provider: provider, providerDay: providerDay, of: day)
        self.init(sequence: sequence, day: day, currency: currency, value: value, source: source)
    }
}

extension ChangePage {
    /// The page of `entries` (read oldest first, up to `limit + 1` of them to learn whether more
    /// follow), coalesced so each (day, currency) appears once with its newest change.
    init(_ entries: [ChangeLogEntry], limit: Int, through version: Int64) {
        let more = entries.count > limit
        self.init(throughSequence: more ? entries[limit - 1].sequence : version, more: more)
        var latest: [Day: [CurrencyCode: ChangeLogEntry]] = [:]
        for entry in entries.prefix(limit) { latest[entry.day, default: [:]][entry.currency] = entry }
        for (day, values) in latest {
            for (currency, entry) in values {
                guard let value = entry.value else {
                    deletes[day, default: []].append(currency)
                    continue
                }
                upserts[day, default: [:]][currency] = value
                if let source = entry.source { sources[day, default: [:]][currency] = source }
            }
        }
        for day in deletes.keys { deletes[day]?.sort() }
    }
}

extension StatePage {
    /// Adds a stored value to `days` (complete days, read in day order).
    static func append(day dayText: String, currency code: String, value: String, provider: String?, providerDay: String?, to days: inout [DailyRates]) {
        guard let day = Day(dayText), let currency = CurrencyCode(code) else { return }
        if days.last?.day != day { days.append(DailyRates(day: day, rates: [:])) }
        days[days.count - 1].rates[currency] = value
        if let source = RateSource.stored(provider: provider, providerDay: providerDay, of: day) { days[days.count - 1].sources[currency] = source }
    }
}
