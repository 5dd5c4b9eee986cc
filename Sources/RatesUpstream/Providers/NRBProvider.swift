import RatesCore

/// Nepal Rastra Bank's exchange rates of the rupee (22 currencies), buying and selling.
///
/// - Source: the bank's forex API, `https://www.nrb.org.np/api/forex/v1/rates?from=YYYY-MM-DD&to=YYYY-MM-DD&per_page=100&page=1`, one entry per day
///   of the span (weekends and holidays included), each with the day's rates:
///   `{"status":{"code":200},…,"data":{"payload":[{"date":"2026-04-01","published_on":"2026-04-01 00:00:13","rates":[{"currency":{"iso3":"INR","name":"Indian Rupee","unit":100},"buy":"160.00","sell":"160.15"},…]},…]},"pagination":{"page":1,"pages":1,…}}`.
///   The API pages its answer at 100 days at most; a request covers no more, and an answer that says it has more pages is rejected (it would not be
///   the whole span).
/// - Quote convention: buying and selling only. As for every buy/sell-only source, the figure stored is their exact midpoint
///   (``RatesCore/RateText/midpoint(_:_:)``: `"151.44"` and `"152.04"` give `"151.74"`), rupees for `unit` units of the currency (100 INR, 10 JPY,
///   100 KRW): ``PublishedQuote/Direction/pivotPerUnits``.
/// - Day: each entry's `date`; the bank publishes every day's rates just after midnight, set the day before.
/// - Schedule: Asia/Kathmandu, every day, usually read by 11:45; the API's rates go back to 2010-01-01.
/// - Ranges: one request per 100 days; the newest publication is asked for as the last seven days up to today.
public struct NRBProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The API's address (`…/api/forex/v1/rates`).
    var endpoint: String { baseURL + "/api/forex/v1/rates" }

    /// The most days one request covers: one page of the API.
    static let maxDays = 100

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.spans(latestDays: 7, today: today(), maxDays: Self.maxDays).map { span in
            ProviderRequest(url: "\(endpoint)?from=\(span.first.text(.iso))&to=\(span.last.text(.iso))&per_page=\(Self.maxDays)&page=1")
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let status = try document.field(at: "status", "code")
        guard status == .number("200") else { throw .layout("\"status\".\"code\" is \(status.shown), not 200") }
        let pages = try document.field(at: "pagination", "pages").integer("\"pagination\".\"pages\"")
        guard pages <= 1 else { throw .layout("the answer is one of \(pages) pages, not the whole span") }
        return try document.field(at: "data", "payload").array("\"data\".\"payload\"").enumerated().map { index, entry throws(UpstreamDataError) in
            let day = try Day(parsing: try entry.string("date", of: "day \(index + 1)"), .iso)
            let rates = try entry.field("rates", of: "\(day)").array("the rates of \(day)")
            let quotes = try rates.enumerated().map { position, rate throws(UpstreamDataError) in
                let currency = try rate.field("currency", of: "rate \(position + 1) of \(day)")
                let code = try currency.field("iso3", of: "a currency of \(day)").string("a currency's \"iso3\" on \(day)")
                guard let currencyCode = CurrencyCode(code) else { throw .invalidCurrencyCode(code, day: day) }
                let unit = try currency.field("unit", of: "\(code) on \(day)").integer("\(code)'s \"unit\" on \(day)")
                let buying = try rate.field("buy", of: "\(code) on \(day)")
                let selling = try rate.field("sell", of: "\(code) on \(day)")
                let middle = try PublishedText.midpoint(buying: buying, selling: selling, currency: currencyCode, day: day)
                return PublishedQuote(currency: currencyCode, value: middle, unit: unit, direction: .pivotPerUnits)
            }
            return ProviderPublication(day: day, quotes: quotes)
        }
    }
}
