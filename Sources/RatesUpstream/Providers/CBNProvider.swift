import Foundation
import RatesCore

/// The Central Bank of Nigeria's official exchange rates of the naira (13 currencies).
///
/// - Source: `https://www.cbn.gov.ng/api/GetAllExchangeRates`, every rate the bank lists as one JSON array of rows, newest first, each a currency of
///   a day: `[{"id":61889,"currency":"US DOLLAR","ratedate":"2026-05-21","buyingrate":"1371.3079","centralrate":"1371.8079",
///   "sellingrate":"1372.3079"},…]`. There is no query: the same answer serves the newest publication and any range.
/// - Quote convention: `centralrate`, naira for one unit of the currency, ``PublishedQuote/Direction/pivotPerUnits``; the buying and selling rates
///   are not read. The bank names currencies, not codes: a fixed table gives each name (spaces around it dropped, letters upper-cased) its ISO 4217
///   code, with the spellings the bank has used (`YEN` and `JAPANESE YEN`, `POUND STERLING` and `POUNDS STERLING`, `DANISH KRONA` and
///   `DANISH KRONER`), and a name that is itself an ISO 4217 code is that code. `SDR` is stored as `XDR`; `CFA` as `XOF`, the CFA franc of Nigeria's
///   western neighbours (the central African `XAF` has the same value: both are 655.957 to the euro). `WAUA`, the West African Unit of Account of the
///   West African Monetary Agency, is skipped: it is no currency and has no ISO 4217 code. Any other name is skipped too: the answer is the whole
///   history since 2001, and a label of one currency the table does not know costs that currency, not every figure of 25 years. A `centralrate`
///   `null`, blank or zero is no figure for that currency that day: skipped.
/// - Corrections: a correction is another row of the same currency and day (`US DOLLAR` on 2024-02-22 as 1488.8960 and again as 1440.1210; on
///   2020-11-18 twice alike), and two spellings of one currency may both be listed on a day. Rows of one currency and day that agree are one figure;
///   where they differ, the row with the higher `id`, the bank's later record, is read; two differing rows without `id`s to tell them apart reject
///   the answer.
/// - Schedule: Africa/Lagos, Monday to Friday, the day's rates out by about 16:00, dated `ratedate`; the bank's list goes back to 2001-12-10.
public struct CBNProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    static let codes: [String: String] = [
        "CFA": "XOF", "DANISH KRONA": "DKK", "DANISH KRONER": "DKK", "EURO": "EUR", "JAPANESE YEN": "JPY", "POUND STERLING": "GBP",
        "POUNDS STERLING": "GBP", "RIYAL": "SAR", "SDR": "XDR", "SOUTH AFRICAN RAND": "ZAR", "SWISS FRANC": "CHF", "UAE DIRHAM": "AED",
        "US DOLLAR": "USD", "YEN": "JPY", "YUAN/RENMINBI": "CNY",
    ]

    public func requests(for window: FetchWindow) -> [ProviderRequest] { [ProviderRequest(url: baseURL + "/api/GetAllExchangeRates")] }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        var days: [Day: [CurrencyCode: (id: Int?, quote: PublishedQuote)]] = [:]
        for (index, row) in try ProviderJSON(answer: body).array("the answer").enumerated() {
            let what = "row \(index + 1)"
            let day = try Day(parsing: row.string("ratedate", of: what), .iso)
            let name = try row.string("currency", of: what).trimmingCharacters(in: .whitespaces).uppercased()
            let value = try row.field("centralrate", of: "\(name) on \(day)")
            guard name != "WAUA", let code = Self.code(named: name), code != pivot, !value.isBlankOrZero else { continue }
            let quote = try PublishedQuote.reading(code: code.rawValue, value: value, direction: .pivotPerUnits, day: day)
            let id = try row["id"]?.integer("\(what)'s \"id\"")
            if let earlier = days[day]?[code] {
                guard earlier.quote == quote || (id != nil && earlier.id != nil && id != earlier.id) else { throw .duplicateCurrency(code, day: day) }
                guard let id, earlier.id.map({ id > $0 }) ?? true else { continue }
            }
            days[day, default: [:]][code] = (id, quote)
        }
        // Quotes in code order: a dictionary's order differs from one instance to the next, and a file is read alike under every request.
        return days.map { day, quotes in ProviderPublication(day: day, quotes: quotes.values.map(\.quote).sorted { $0.currency < $1.currency }) }
    }

    /// The code of the currency the bank names `name` (upper-cased): its table's, or `name` when that is an ISO 4217 code; `nil` for another name.
    static func code(named name: String) -> CurrencyCode? {
        guard let code = CurrencyCode(codes[name] ?? name), code.name != nil else { return nil }
        return code
    }
}
