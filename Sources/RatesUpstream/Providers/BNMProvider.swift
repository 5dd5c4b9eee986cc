import RatesCore

/// Bank Negara Malaysia's exchange rates of the Kuala Lumpur interbank market, 09:00 session, in MYR.
///
/// - Source: the BNM Open API (every request sends `Accept: application/vnd.BNM.API.v1+json`):
///   `https://api.bnm.gov.my/public/exchange-rate?session=0900` for the newest day, all 27 currencies; for a range, the API serves history only per
///   currency and month, `…/exchange-rate/{code}/year/{y}/month/{m}?session=0900`, so a range makes one request per currency and month (`subject` =
///   the bank's code). A month without any 09:00 session of the currency (not yet begun, or before the currency was quoted) is answered with
///   `"rate":[]`: no publication.
/// - Quotes: `middle_rate`, MYR per `unit` units (``PublishedQuote/Direction/pivotPerUnits``; 100 for the yen, the won, the baht, the Hong Kong
///   dollar and 11 more), the answer's `meta.quote` being `rm`. Where a day has no middle rate but buying and selling rates, their exact midpoint.
///   The API prints numbers as binary doubles in full (`4.2199999999999998`); they are read back as the bank's four-decimal figures (`4.22`, see
///   ``ProviderJSON/publishedDecimal``).
/// - Day: the rate's `date`.
/// - Schedule: Asia/Kuala_Lumpur, Monday to Friday, the 09:00 session's rates available by about noon.
///
/// The bank writes the special drawing right `SDR`; it is stored as ISO 4217's `XDR`.
public struct BNMProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    var endpoint: String { baseURL + "/exchange-rate" }

    /// The header the API requires on every request.
    static let headers = ["Accept": "application/vnd.BNM.API.v1+json"]

    /// The 27 currencies the bank quotes, as it writes them (its latest answer lists the same).
    static let currencies = [
        "AED", "AUD", "BND", "CAD", "CHF", "CNY", "EGP", "EUR", "GBP", "HKD", "IDR", "INR", "JPY", "KHR", "KRW", "MMK", "NPR", "NZD",
        "PHP", "PKR", "SAR", "SDR", "SGD", "THB", "TWD", "USD", "VND",
    ]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: endpoint + "?session=0900", headers: Self.headers)]) { first, last in
            let months = Day.months(from: first, through: last).map(\.parts)
            return Self.currencies.flatMap { code in
                months.map {
                    ProviderRequest(url: "\(endpoint)/\(code)/year/\($0.year)/month/\($0.month)?session=0900", headers: Self.headers, subject: code)
                }
            }
        }
    }

    /// Reads the latest answer,
    /// `{"data":[{"currency_code":"USD","unit":1,"rate":{"date":…,"buying_rate":…,"selling_rate":…,"middle_rate":…}}, …],"meta":{"quote":"rm",…}}`,
    /// or one currency's month, `{"data":{"currency_code":"INR","unit":100,"rate":[{"date":…,…}, …]},"meta":…}`.
    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let quote = try document.field("meta", of: "the answer").field("quote", of: "\"meta\"")
        guard quote == .string("rm") else {
            throw .layout("\"meta\".\"quote\" is \(UpstreamDataError.quoted(quote.shown)), not \"rm\" (MYR per foreign units)")
        }
        let data = try document.field("data", of: "the answer")
        // The latest answer's `data` lists every currency; a month's is the one currency asked for.
        let entries = data.elements ?? [data]
        if data.elements == nil {
            let code = try data.field("currency_code", of: "\"data\"")
            if let subject = request.subject, code != .string(subject) {
                throw .layout("the answer is for \(UpstreamDataError.quoted(code.shown)), the request for \(subject)")
            }
            if try data.field("rate", of: "\"data\"") == .array([]) { return [] }
        }
        var days: [Day: [PublishedQuote]] = [:]
        for (index, entry) in entries.enumerated() {
            var code = try entry.string("currency_code", of: "currency \(index + 1)")
            if code == "SDR" { code = "XDR" }
            let unit = try entry.integer("unit", of: code)
            let rates = try entry.field("rate", of: code)
            for rate in rates.elements ?? [rates] {
                let day = try Day(parsing: rate.field("date", of: "a rate of \(code)").string("a \(code) rate's \"date\""), .iso)
                let value = try middle(of: rate, code: code, day: day)
                days[day, default: []].append(try .reading(code: code, value: value, unit: unit, direction: .pivotPerUnits, day: day))
            }
        }
        guard !days.isEmpty else { throw .empty }
        return days.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }

    /// The middle rate, or the exact midpoint of the buying and selling rates where the middle is `null`.
    func middle(of rate: ProviderJSON, code: String, day: Day) throws(UpstreamDataError) -> ProviderJSON {
        let middle = try rate.field("middle_rate", of: "\(code) on \(day)")
        guard middle.isNull else { return middle }
        let buying = try rate.field("buying_rate", of: "\(code) on \(day)")
        let selling = try rate.field("selling_rate", of: "\(code) on \(day)")
        guard let buy = buying.publishedDecimal, let sell = selling.publishedDecimal, let midpoint = RateText.midpoint(buy, sell) else {
            return middle  // no figure at all: rejected as an invalid rate
        }
        return .string(midpoint)
    }
}
