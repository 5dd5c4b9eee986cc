import RatesCore

/// The National Bank of Rwanda's (Banque Nationale du Rwanda) reference rates of the franc: 16 currencies.
///
/// Keyed `BNRRW`: `BNR` is the National Bank of Romania's.
///
/// - Source: `https://fxrates.bnr.rw/currency_history/?currency_name=USD&end_date=2026-05-22&start_date=2026-05-19`, one request per currency
///   (``ProviderRequest/subject`` is its code; both days included), answered with a JSON array of
///   `{"currency_name":"USD","buying_rate":"1458.065","average_rate":"1463.065","selling_rate":"1468.065","post_date":"19-May-26"}` in no particular
///   order. Every record names its currency, which must be the one asked for. A range without a posting (a weekend, a holiday) is answered with `[]`:
///   no publication.
/// - Quote convention: `average_rate`, the bank's published average (middle) rate, francs per 1 unit of the currency, read as written (`"9.209145"`;
///   thousands commas, which older figures carry, dropped: `"1,253.60"` is `1253.60`): ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. The
///   buying and selling rates are not read.
/// - Schedule: Africa/Kigali, Monday to Friday, usually out by 16:00 local time; `post_date` (a two-digit year, read as 20YY) is the day the rates
///   apply to.
/// - Ranges: one request per currency for any range; the newest publication is asked for as the last seven days up to today. The history starts on
///   2012-01-02.
public struct BNRRWProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The currencies the bank quotes, in request order.
    public static let currencies = ["USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "CNY", "INR", "ZAR", "AED", "SAR", "KES", "UGX", "TZS", "BIF"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(each: Self.currencies, latestDays: 7, today: today()) { code, first, last in
            ProviderRequest(
                url: "\(baseURL)?currency_name=\(code)&end_date=\(last.text(.iso))&start_date=\(first.text(.iso))",
                headers: ["Accept": "application/json"])
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        // `[]`: no posting in the range (a weekend, a holiday, the Christmas–New Year week).
        try ProviderJSON(answer: body).array("the answer").enumerated().map { index, record throws(UpstreamDataError) in
            let what = "record \(index + 1)"
            let day = try Self.postDay(try record.string("post_date", of: what))
            let code = try record.string("currency_name", of: what)
            guard let currency = CurrencyCode(code) else { throw .invalidCurrencyCode(code, day: day) }
            if let subject = request.subject, subject != code {
                throw .layout("the answer for \(subject) holds a rate of \(code) on \(day)")
            }
            let text = try record.field("average_rate", of: "\(code) on \(day)").string("its average rate")
            let value = try PublishedText.commaGroupedRate(text, currency: currency, day: day)
            return ProviderPublication(day: day, currency: currency, value: value, direction: .pivotPerUnits)
        }
    }

    /// The day of `19-May-26` (the year in this century).
    static func postDay(_ text: String) throws(UpstreamDataError) -> Day {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].utf8.count == 2, parts[2].utf8.allSatisfy(\.isASCIIDigit) else { throw .invalidDay(text) }
        guard let day = Day("\(parts[0])-\(parts[1])-20\(parts[2])", .dayMonthNameYear(separator: "-")) else { throw .invalidDay(text) }
        return day
    }
}
