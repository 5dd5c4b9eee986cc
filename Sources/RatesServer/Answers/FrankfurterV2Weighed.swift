import RatesCore
import RatesIngest

/// Frankfurter v2's `expand=providers`: for a record, every provider's value of its pair on the
/// record's day as the merge weighed it, each with its own date; `excluded: true` marks a value the
/// consensus check left out.
///
/// v2 blends the values it lists; we serve one (the precedence winner's, listed first), so an entry
/// without `excluded` is a value that agreed with the others, not one that was averaged in. A
/// provider's value is rebased with its own value of the base when it has one that day (its own cross
/// rate, from its own figures), else with the base's served value. A record whose value is a peg's
/// has no providers, as in v2.
struct FrankfurterV2Weighed {
    /// One provider's value of a record's pair.
    struct Entry {
        var provider: String
        var day: Day
        var rate: ExactDecimal
        var excluded: Bool
    }

    /// The recomputed merge of each day the answer's records have (``ProviderQuotes/weighedDays(_:of:)``).
    let days: [Day: MergedDay]

    /// The entries of the record of 1 `base` in `quote` from `publication`, the served value's provider
    /// first, the others by key; `nil` for a peg's value, or the base itself.
    func entries(base: CurrencyCode, quote: CurrencyCode, publication: DayTable) -> [Entry]? {
        guard base != quote, let merged = days[publication.day] else { return nil }
        // EUR is every value's unit: a record of EUR lists the providers of its other currency.
        let listed = quote == .euro ? base : quote
        guard let index = publication.index(of: listed) else { return nil }
        let served = publication.source(at: index).provider
        if served == FixedParity.pegProvider { return nil }

        var values: [String: [CurrencyCode: PerEuroRate]] = [:]
        for rate in merged.weighed where rate.currency == base || rate.currency == quote {
            values[rate.provider, default: [:]][rate.currency] = rate
        }
        let servedBase = base == .euro ? ExactDecimal.one : publication.rate(of: base)
        let entries = values.compactMap { provider, rates -> Entry? in
            guard let listedRate = rates[listed] else { return nil }
            let quoteValue = quote == .euro ? ExactDecimal.one : listedRate.value
            let baseValue = base == .euro ? ExactDecimal.one : rates[base]?.value ?? servedBase
            guard let baseValue else { return nil }
            // Served as a rate of the merged table is: a value held to 18 digits with 8 (``RatesCore/CrossRates/served(_:)``).
            let rate = baseValue == .one ? CrossRates.served(quoteValue).exact : ExactDecimal.quotient(quoteValue, baseValue)
            guard let rate else { return nil }
            let excluded = merged.exclusions.contains { $0.rate.provider == provider && $0.rate.currency == listed }
            return Entry(provider: provider, day: listedRate.day, rate: rate, excluded: excluded)
        }
        return entries.sorted { ($0.provider == served ? 0 : 1, $0.provider) < ($1.provider == served ? 0 : 1, $1.provider) }
    }

    /// `"providers":[{"key","date","rate"(,"excluded":true)}, …]`.
    static func write(_ entries: [Entry], into json: inout JSONWriter) {
        json.field("providers", array: entries) { json, entry in
            json.object { json in
                json.field("key", string: entry.provider)
                json.field("date", string: entry.day.description)
                json.field("rate", number: entry.rate)
                if entry.excluded { json.field("excluded", bool: true) }
            }
        }
    }
}
