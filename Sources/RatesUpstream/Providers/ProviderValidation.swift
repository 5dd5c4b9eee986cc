import RatesCore

/// The checks every source's publications pass before anything from them is stored, whichever
/// adapter read them: ``validate(_:notAfter:notBefore:)`` on each answer as it is parsed and on the whole
/// of a fetch or import, and ``checkContinuity(_:after:maxMove:)`` on a fetch against what is
/// stored, for sources that declare a ``RatesProvider/maxRateMove``.
public enum ProviderValidation {
    /// The first day the ECB published euro reference rates: the first day any publication may hold.
    public static let firstDay = Day(year: 1999, month: 1, day: 4)!

    /// Checks parsed publications: at least one; days within `notBefore` (``firstDay`` unless the
    /// source's history starts earlier: ``RatesProvider/historyStart``)...`notAfter`
    /// (pass `nil` to skip the upper bound), none twice; each with at least one quote, no
    /// currency twice, every value ``RatesCore/RateText/isValid(_:)`` and every unit a power of ten.
    ///
    /// - Returns: The publications in ascending day order.
    /// - Throws: `UpstreamDataError.empty`, `.dayOutOfRange`, `.duplicateDay`, `.emptyDay`,
    ///   `.duplicateCurrency` or `.invalidRate`: the first problem found, in day and currency order.
    public static func validate(
        _ publications: [ProviderPublication], notAfter: Day? = nil, notBefore: Day = firstDay
    ) throws(UpstreamDataError) -> [ProviderPublication] {
        guard !publications.isEmpty else { throw .empty }
        let sorted = publications.sorted { $0.day < $1.day }
        var previous: Day?
        for publication in sorted {
            let day = publication.day
            guard day >= notBefore, notAfter.map({ day <= $0 }) ?? true else { throw .dayOutOfRange(day) }
            if day == previous { throw .duplicateDay(day) }
            previous = day
            guard !publication.quotes.isEmpty else { throw .emptyDay(day) }
            var seen = Set<CurrencyCode>()
            for quote in publication.quotes.sorted(by: { $0.currency < $1.currency }) {
                guard seen.insert(quote.currency).inserted else { throw .duplicateCurrency(quote.currency, day: day) }
                guard RateText.isValid(quote.value), isPowerOfTen(quote.unit) else {
                    throw .invalidRate(currency: quote.currency, day: day, text: quote.value)
                }
            }
        }
        return sorted
    }

    /// The most a currency's rate of the ECB may move, as a factor either way, from its previous
    /// figure before a fetch is rejected as implausible (``RatesProvider/maxRateMove``).
    ///
    /// The largest move in the ECB's history since 1999 is 2.32x (ISK, from 2008-12-09 to its
    /// next publication on 2018-02-01); the largest from one day to the next is 1.68x (TRL on
    /// 2001-02-22). 5x leaves twice that margin and still rejects a decimal point shifted by
    /// one place (10x), the likeliest corruption of a figure that passes every other check.
    public static let maxRateMove: Double = 5

    /// Checks a fetch's publications (ascending, as ``validate(_:notAfter:notBefore:)`` returns them)
    /// against the source's newest stored publication, before they are stored.
    ///
    /// Their newest day must not be older than the stored one: an upstream that went back in time
    /// (a stale cache) is not a correction. Corrections to older days are fine as long as the
    /// fetch also reaches the newest stored day. And every figure must lie within `maxMove`
    /// of the same currency's previous figure (per unit, whichever way round it is quoted): the
    /// latest earlier one, in the fetch or stored. Stored figures are compared only with their own
    /// day and later ones, so a fetch reaching back years (a whole history after a long outage)
    /// is not held against today's.
    ///
    /// - Parameter stored: The source's newest stored publication; `nil` when none is.
    /// - Throws: `UpstreamDataError.olderThanStored` or `.implausibleRate` (the alphabetically first currency of the first day).
    public static func checkContinuity(
        _ publications: [ProviderPublication], after stored: ProviderPublication?, maxMove: Double = maxRateMove
    ) throws(UpstreamDataError) {
        if let stored, let newest = publications.last?.day, newest < stored.day {
            throw .olderThanStored(newest: newest, stored: stored.day)
        }
        var previous: [CurrencyCode: (text: String, value: Double, day: Day)] = [:]
        var pending = stored
        for publication in publications {
            // The stored figures become the previous ones once the fetch reaches their day (so a
            // correction of that day is checked too), unless the fetch gave the currency later.
            if let latest = pending, latest.day <= publication.day {
                for quote in latest.quotes {
                    guard let value = perUnit(quote), previous[quote.currency].map({ $0.day < latest.day }) ?? true else { continue }
                    previous[quote.currency] = (quote.value, value, latest.day)
                }
                pending = nil
            }
            var implausible: UpstreamDataError?
            var first: CurrencyCode?
            for quote in publication.quotes {
                guard let value = perUnit(quote) else { continue }
                if let before = previous[quote.currency], max(value / before.value, before.value / value) > maxMove,
                   first.map({ quote.currency < $0 }) ?? true
                {
                    first = quote.currency
                    implausible = .implausibleRate(
                        currency: quote.currency, day: publication.day, text: quote.value, previous: before.text, previousDay: before.day)
                }
                previous[quote.currency] = (quote.value, value, publication.day)
            }
            if let implausible { throw implausible }
        }
    }

    /// A figure as units of the currency per one unit of the pivot, for comparing figures alone
    /// (never stored or served); `nil` for a zero.
    static func perUnit(_ quote: PublishedQuote) -> Double? {
        guard let value = Double(quote.value), value > 0 else { return nil }
        switch quote.direction {
        case .unitsPerPivot: return value / Double(quote.unit)
        case .pivotPerUnits: return Double(quote.unit) / value
        }
    }

    /// Whether `text` is a zero written as a decimal (`0`, `0.0000`): the mark some sources use for no figure.
    static func isZero(_ text: some StringProtocol) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count <= 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 == "0" } }
    }

    /// Whether `unit` is 1, 10, 100, … (up to 10^9).
    static func isPowerOfTen(_ unit: Int) -> Bool {
        var value = unit
        while value > 1 && value % 10 == 0 { value /= 10 }
        return value == 1 && unit <= 1_000_000_000
    }

    /// Decimal text as a provider wrote it (`"53,8359"`, `" 1 234.5 "`) normalised to a
    /// ``RatesCore/RateText`` (`"53.8359"`, `"1234.5"`): the decimal comma becomes a point, spaces
    /// (also no-break spaces) around and between digit groups are dropped. Nothing else changes:
    /// the result is checked with ``RatesCore/RateText/isValid(_:)`` and `nil` when it fails.
    public static func rateText(_ published: some StringProtocol) -> String? {
        var text = ""
        for scalar in published.unicodeScalars {
            switch scalar {
            case " ", "\u{00A0}", "\u{202F}", "\t", "\n", "\r": continue
            case ",": text.append(".")
            default: text.unicodeScalars.append(scalar)
            }
        }
        return RateText.isValid(text) ? text : nil
    }
}
