import Foundation
import RatesCore

/// The Central Bank of Nigeria's official exchange rates of the naira (13 currencies).
///
/// - Source: `https://www.cbn.gov.ng/api/GetAllExchangeRates`, every rate the bank lists as one JSON
///   array of rows, newest first, each a currency of a day:
///   `[{"id":61889,"currency":"US DOLLAR","ratedate":"2026-05-21","buyingrate":"1371.3079","centralrate":"1371.8079","sellingrate":"1372.3079"},…]`.
///   There is no query: the same answer serves the newest publication and any range.
/// - Quote convention: `centralrate`, naira for one unit of the currency,
///   ``PublishedQuote/Direction/pivotPerUnits``; the buying and selling rates are not read. The bank
///   names currencies, not codes: a fixed table gives each name (spaces around it dropped, letters
///   upper-cased) its ISO 4217 code, with the spellings the bank has used (`YEN` and `JAPANESE YEN`,
///   `POUND STERLING` and `POUNDS STERLING`, `DANISH KRONA` and `DANISH KRONER`). `SDR` is stored as `XDR`;
///   `CFA` as `XOF`, the CFA franc of Nigeria's western neighbours (the central African `XAF` has the same
///   value: both are 655.957 to the euro). `WAUA`, the West African Unit of Account of the West African
///   Monetary Agency, is skipped: it is no currency and has no ISO 4217 code. Any other name rejects the answer.
///   A row whose `centralrate` is empty or `null` gives no figure for that currency that day and is skipped.
/// - Day: `ratedate`.
/// - Schedule: Africa/Lagos, Monday to Friday, the day's rates out by about 16:00; the bank's list goes back
///   to 2001-12-10.
public struct CBNProvider: RatesProvider {
    public let key = "CBN"
    public let name = "Central Bank of Nigeria"
    public let country: String? = "NG"
    public let pivot = CurrencyCode("NGN")!
    public let rateType = "official exchange rate"
    /// Monday to Friday, by 16:00 Lagos time.
    public let schedule = PublicationSchedule(timeZone: "Africa/Lagos", expectedMinute: 16 * 60)

    /// The site's host, without a trailing slash.
    public let baseURL: String

    /// - Parameter baseURL: The host (`https://www.cbn.gov.ng` when `nil`), for a test server or a mirror.
    public init(baseURL: String? = nil) {
        self.baseURL = baseURL ?? "https://www.cbn.gov.ng"
    }

    /// The bank's currency names, upper-cased, and their ISO 4217 codes.
    static let codes: [String: String] = [
        "CFA": "XOF",
        "DANISH KRONA": "DKK",
        "DANISH KRONER": "DKK",
        "EURO": "EUR",
        "JAPANESE YEN": "JPY",
        "POUND STERLING": "GBP",
        "POUNDS STERLING": "GBP",
        "RIYAL": "SAR",
        "SDR": "XDR",
        "SOUTH AFRICAN RAND": "ZAR",
        "SWISS FRANC": "CHF",
        "UAE DIRHAM": "AED",
        "US DOLLAR": "USD",
        "YEN": "JPY",
        "YUAN/RENMINBI": "CNY",
    ]
    /// Names listed that are no currency: skipped.
    static let skipped: Set<String> = ["WAUA"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        [ProviderRequest(url: baseURL + "/api/GetAllExchangeRates")]
    }

    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let rows = try ProviderJSON(parsing: body, provider: key).array("the answer", provider: key)
        var days: [Day: [PublishedQuote]] = [:]
        for (index, row) in rows.enumerated() {
            let what = "row \(index + 1)"
            let dayText = try row.field("ratedate", of: what, provider: key).string("\(what)'s \"ratedate\"", provider: key)
            let day = try Day(parsing: dayText, .iso)
            let name = try row.field("currency", of: what, provider: key).string("\(what)'s \"currency\"", provider: key)
                .trimmingCharacters(in: .whitespaces).uppercased()
            if Self.skipped.contains(name) { continue }
            guard let code = Self.codes[name] else {
                throw .unexpectedLayout(provider: key, "\(what) names a currency the adapter does not know: \(UpstreamDataError.quoted(name))")
            }
            let value = try row.field("centralrate", of: "\(name) on \(day)", provider: key)
            if value.isNull || value == .string("") { continue }
            days[day, default: []].append(try .reading(code: code, value: value, direction: .pivotPerUnits, day: day))
        }
        guard !rows.isEmpty else { throw .empty }
        return try ProviderValidation.validate(days.map { ProviderPublication(day: $0.key, quotes: $0.value) })
    }
}
