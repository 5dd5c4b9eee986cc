import RatesCore

/// The checks every upstream payload passes before anything from it is stored.
///
/// The parsers (``ECBXML``, ``ECBCSV``) apply the same rate rule while they read, so a
/// parsed batch can only fail ``validate(_:notAfter:)`` on its days' range; callers still
/// validate every batch, whichever way it was made.
public enum RatesValidation {
    /// The first day the ECB published euro reference rates.
    public static let firstDay = Day(year: 1999, month: 1, day: 4)!

    /// Checks a parsed batch before anything is stored.
    ///
    /// The batch must hold at least one day; each day must have at least one rate and lie
    /// within `1999-01-04...notAfter`; no day may appear twice; every rate text must pass
    /// ``RatesCore/RateText/isValid(_:)``. The first problem found, in day order, is thrown.
    ///
    /// - Parameter notAfter: The newest day allowed; callers pass tomorrow, to allow for time zones.
    /// - Throws: `UpstreamDataError.empty`, `.dayOutOfRange`, `.duplicateDay`, `.emptyDay` or `.invalidRate`.
    public static func validate(_ batch: RatesBatch, notAfter: Day) throws(UpstreamDataError) {
        guard !batch.days.isEmpty else { throw .empty }
        var previous: Day?
        for daily in batch.days {
            let day = daily.day
            guard day >= firstDay, day <= notAfter else { throw .dayOutOfRange(day) }
            // `RatesBatch` sorts its days, so a repeated day sits next to its twin.
            if day == previous { throw .duplicateDay(day) }
            previous = day
            guard !daily.rates.isEmpty else { throw .emptyDay(day) }
            // Report the alphabetically first bad currency, so the error does not depend on hashing.
            var invalid: (currency: CurrencyCode, text: String)?
            for (currency, text) in daily.rates where !RateText.isValid(text) {
                if invalid.map({ currency < $0.currency }) ?? true { invalid = (currency, text) }
            }
            if let invalid { throw .invalidRate(currency: invalid.currency, day: day, text: invalid.text) }
        }
    }

    /// The most a currency's rate may move, as a factor either way, from its previous
    /// publication before a payload is rejected as implausible.
    ///
    /// The largest move in the ECB's history since 1999 is 2.32x (ISK, from 2008-12-09 to its
    /// next publication on 2018-02-01); the largest from one day to the next is 1.68x (TRL on
    /// 2001-02-22). 5x leaves twice that margin and still rejects a decimal point shifted by
    /// one place (10x), the likeliest corruption of a rate that passes every other check.
    public static let maxRateMove: Double = 5

    /// Checks a payload against what is already stored, before it is stored.
    ///
    /// The payload's newest day must not be older than `storedLatest`'s: an upstream that went
    /// back in time (a stale cache) is not a correction. Corrections to older days are fine as
    /// long as the payload also reaches the newest stored day. And every rate must lie within
    /// ``maxRateMove`` of the same currency's previous rate: the latest earlier one, in the
    /// payload or stored. Stored rates are compared only with their own day and later ones, so a
    /// payload reaching back years (the full history, after a long outage) is not held against
    /// today's rates.
    ///
    /// - Parameter storedLatest: The newest stored day with its rates; `nil` for an empty store.
    /// - Throws: `UpstreamDataError.olderThanStored` or `.implausibleRate`.
    public static func checkContinuity(_ batch: RatesBatch, after storedLatest: DailyRates?) throws(UpstreamDataError) {
        if let storedLatest, let newest = batch.days.last?.day, newest < storedLatest.day {
            throw .olderThanStored(newest: newest, stored: storedLatest.day)
        }
        var previous: [CurrencyCode: (text: String, value: Double, day: Day)] = [:]
        var stored = storedLatest
        for daily in batch.days {
            // The stored rates become the previous ones once the payload reaches their day (so a
            // correction of that day is checked too), unless the payload gave the currency later.
            if let latest = stored, latest.day <= daily.day {
                for (currency, text) in latest.rates {
                    guard let value = Double(text), previous[currency].map({ $0.day < latest.day }) ?? true else { continue }
                    previous[currency] = (text, value, latest.day)
                }
                stored = nil
            }
            // The alphabetically first implausible currency, so the error does not depend on hashing.
            var implausible: UpstreamDataError?
            var first: CurrencyCode?
            for (currency, text) in daily.rates {
                guard let value = Double(text) else { continue }
                if let before = previous[currency], max(value / before.value, before.value / value) > maxRateMove,
                   first.map({ currency < $0 }) ?? true
                {
                    first = currency
                    implausible = .implausibleRate(currency: currency, day: daily.day, text: text, previous: before.text, previousDay: before.day)
                }
                previous[currency] = (text, value, daily.day)
            }
            if let implausible { throw implausible }
        }
    }
}
