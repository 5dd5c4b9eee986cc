import RatesCore

/// The checks every provider's parsed answer passes, whichever adapter made it.
public enum ProviderValidation {
    /// Checks parsed publications: at least one; days within `RatesValidation.firstDay...notAfter`
    /// (pass `nil` to skip the upper bound), none twice; each with at least one quote, no
    /// currency twice, every value ``RatesCore/RateText/isValid(_:)`` and every unit a power of ten.
    ///
    /// - Returns: The publications in ascending day order.
    public static func validate(_ publications: [ProviderPublication], notAfter: Day? = nil) throws(UpstreamDataError) -> [ProviderPublication] {
        guard !publications.isEmpty else { throw .empty }
        let sorted = publications.sorted { $0.day < $1.day }
        var previous: Day?
        for publication in sorted {
            let day = publication.day
            guard day >= RatesValidation.firstDay, notAfter.map({ day <= $0 }) ?? true else { throw .dayOutOfRange(day) }
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
