import RatesCore
import RatesIngest

/// What Frankfurter v2's `/v2/currencies` and `/v2/currency/{code}` say of one currency: its
/// first and last day with a rate in the merged dataset and the providers those rates came from.
///
/// For the dataset's base (EUR), every provider: each merged value is expressed per EUR through
/// its provider's own quote.
struct FrankfurterV2CurrencySummary {
    var firstDay: Day
    var lastDay: Day
    var providers: Set<String>

    /// The summary of every currency of `snapshot`, from one walk over its days.
    static func summaries(of snapshot: RatesSnapshot) -> [CurrencyCode: FrankfurterV2CurrencySummary] {
        var summaries: [CurrencyCode: FrankfurterV2CurrencySummary] = [:]
        var everyProvider: Set<String> = []
        for publication in snapshot.days {
            let day = publication.day
            for index in 0..<publication.count {
                let code = publication.codes[index]
                let provider = publication.source(at: index).provider
                summaries[code, default: FrankfurterV2CurrencySummary(firstDay: day, lastDay: day, providers: [])].providers.insert(provider)
                summaries[code]?.lastDay = day
                everyProvider.insert(provider)
            }
        }
        if let first = snapshot.firstDay, let last = snapshot.latest?.day {
            summaries[snapshot.base] = FrankfurterV2CurrencySummary(firstDay: first, lastDay: last, providers: everyProvider)
        }
        return summaries
    }

    /// The currency's members, as v2 writes them (`symbol`: ``RatesCore/CurrencyCode/symbol``, `null` for none).
    func write(_ code: CurrencyCode, into json: inout JSONWriter) {
        json.field("iso_code", string: code.rawValue)
        json.field("iso_numeric", optionalString: code.isoNumericCode)
        json.field("name", string: code.name ?? code.rawValue)
        json.field("symbol", optionalString: code.symbol)
        json.field("start_date", string: firstDay.description)
        json.field("end_date", string: lastDay.description)
        json.field("providers", strings: providers.sorted())
    }
}
