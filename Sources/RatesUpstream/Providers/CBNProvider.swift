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
///   history since 2001, and a label of one currency the table does not know costs that currency, not every figure of 25 years. A row whose
///   `centralrate` is `null`, blank or zero gives no figure for that currency that day and is skipped.
/// - Corrections: the bank corrects a figure by adding a row for the same currency and day (`US DOLLAR` on 2024-02-22 as 1488.8960 and again as
///   1440.1210; on 2020-11-18 twice alike), and two spellings of one currency may both be listed on a day. Rows of one currency and day that agree
///   are one figure; where they differ, the row with the higher `id` is the bank's later record and is the one read. Two differing rows without `id`s
///   to tell them apart reject the answer.
/// - Day: `ratedate`.
/// - Schedule: Africa/Lagos, Monday to Friday, the day's rates out by about 16:00; the bank's list goes back to 2001-12-10.
public struct CBNProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The bank's currency names, upper-cased, and their ISO 4217 codes.
    static let codes: [String: String] = [
        "CFA": "XOF", "DANISH KRONA": "DKK", "DANISH KRONER": "DKK", "EURO": "EUR", "JAPANESE YEN": "JPY", "POUND STERLING": "GBP",
        "POUNDS STERLING": "GBP", "RIYAL": "SAR", "SDR": "XDR", "SOUTH AFRICAN RAND": "ZAR", "SWISS FRANC": "CHF", "UAE DIRHAM": "AED",
        "US DOLLAR": "USD", "YEN": "JPY", "YUAN/RENMINBI": "CNY",
    ]
    /// Names listed that are no currency: skipped.
    static let skipped: Set<String> = ["WAUA"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        [ProviderRequest(url: baseURL + "/api/GetAllExchangeRates")]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let rows = try ProviderJSON(answer: body).array("the answer")
        guard !rows.isEmpty else { throw .empty }
        var days: [Day: [CurrencyCode: (id: Int?, quote: PublishedQuote)]] = [:]
        for (index, row) in rows.enumerated() {
            let what = "row \(index + 1)"
            let day = try Day(parsing: row.string("ratedate", of: what), .iso)
            let name = try row.string("currency", of: what).trimmingCharacters(in: .whitespaces).uppercased()
            guard !Self.skipped.contains(name), let code = Self.code(named: name), code != pivot else { continue }
            let value = try row.field("centralrate", of: "\(name) on \(day)")
            if Self.isNoFigure(value) { continue }
            let quote = try PublishedQuote.reading(code: code.rawValue, value: value, direction: .pivotPerUnits, day: day)
            let id = try row["id"]?.integer("\(what)'s \"id\"")
            if let earlier = days[day]?[code] {
                // Rows that differ need ids to tell the bank's later record (the higher id), the one kept.
                guard earlier.quote == quote || (id != nil && earlier.id != nil && id != earlier.id) else { throw .duplicateCurrency(code, day: day) }
                guard let id, earlier.id.map({ id > $0 }) ?? true else { continue }
            }
            days[day, default: [:]][code] = (id, quote)
        }
        // Quotes in code order: a dictionary's order differs from one instance to the next, and a file is read alike under every request.
        return days.map { day, quotes in
            ProviderPublication(day: day, quotes: quotes.values.map(\.quote).sorted { $0.currency < $1.currency })
        }
    }

    /// The code of a currency the bank names `name` (upper-cased): its table's, or `name` itself when that is an ISO 4217 code; `nil` for a name it
    /// does not know.
    static func code(named name: String) -> CurrencyCode? {
        if let code = codes[name] { return CurrencyCode(code) }
        return CurrencyCode(name).flatMap { $0.name == nil ? nil : $0 }
    }

    /// Whether a `centralrate` gives no figure: `null`, blank, or zero (`"0.0000"`).
    static func isNoFigure(_ value: ProviderJSON) -> Bool {
        guard case .string(let text) = value else { return value.isNull }
        let digits = text.trimmingCharacters(in: .whitespaces)
        return digits.allSatisfy { $0 == "0" || $0 == "." } && digits.filter { $0 == "." }.count <= 1
    }
}
