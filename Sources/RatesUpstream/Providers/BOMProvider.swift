import RatesCore

/// The Bank of Mongolia's official (statutory reference) rates of the tögrög: 35 currencies and the SDR.
///
/// - Source: a POST of `{"startDate":"2026-05-19","endDate":"2026-05-22"}` (JSON, both days included) to
///   `https://www.mongolbank.mn/en/currency-rate-movement/data`, answered with
///   `{"success":true,"data":[{"RATE_DATE":"2026-05-22","USD":"3,576.42","EUR":"4,151.69",…,"SDR":"4,887.93"},…],"langData":{…}}`: one object per
///   day, newest first, one member per currency. `langData` (the page's texts) is not read. A range without a rate (a weekend, a holiday) is answered
///   with `"data":[]`: no publication.
/// - Quote convention: tögrögs per 1 unit of the currency, read as written with the thousands commas dropped (`"3,576.42"` is `3576.42`):
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. Every figure is per one unit, to two decimals, however small (`"IDR":"0.20"`,
///   `"VND":"0.14"`). `SDR` is stored as `XDR`; `XAU` and `XAG` (gold and silver, per troy ounce) are skipped. A member that is empty or `null` (a
///   currency without a rate that day) is left out; any other figure that is not a decimal rejects the answer.
/// - Schedule: Asia/Ulaanbaatar, Monday to Friday, usually out by 10:00 local time, dated the day they apply to.
/// - Ranges: one request for any range; the newest publication is asked for as the last seven days up to today. The history starts on 2001-01-02.
public struct BOMProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The members that are metals, skipped.
    static let metals: Set<String> = ["XAU", "XAG"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 7, today: today()) else { return [] }
        let body = "{\"startDate\":\"\(first.text(.iso))\",\"endDate\":\"\(last.text(.iso))\"}"
        let headers = ["Content-Type": "application/json", "Accept": "application/json"]
        return [ProviderRequest(url: "\(baseURL)/currency-rate-movement/data", method: .post, headers: headers, body: body)]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        guard try document.field("success", of: "the answer") == .bool(true) else { throw .layout("the answer reports no success") }
        // `"data":[]`: no rate set in the range (a weekend, a holiday).
        return try document.field("data", of: "the answer").array("\"data\"").enumerated().map { index, row throws(UpstreamDataError) in
            let what = "day \(index + 1)"
            let day = try Day(parsing: try row.string("RATE_DATE", of: what), .iso)
            var quotes: [PublishedQuote] = []
            for member in try row.members(what) where member.key != "RATE_DATE" {
                let code = member.key == "SDR" ? "XDR" : member.key
                guard let currency = CurrencyCode(code) else { throw .invalidCurrencyCode(member.key, day: day) }
                if Self.metals.contains(code) || member.value.isNoFigure { continue }
                guard case .string(let text) = member.value else {
                    throw .layout("the rate of \(code) on \(day) is \(member.value.kind), not a string")
                }
                let value = try PublishedText.commaGroupedRate(text, currency: currency, day: day)
                quotes.append(PublishedQuote(currency: currency, value: value, direction: .pivotPerUnits))
            }
            return ProviderPublication(day: day, quotes: quotes)
        }
    }
}
