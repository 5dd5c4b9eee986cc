import RatesCore

/// The Bank of Thailand's daily weighted-average rates of commercial banks in Bangkok, in THB.
///
/// - Source: the BOT API gateway, `https://gateway.api.bot.or.th/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/?start_period=…&end_period=…`, one request
///   for any span, with the API key in the `Authorization` header (``needsAPIKey``). The endpoint always takes a period, so `.latest` asks for the
///   ten days up to today in Bangkok, so a holiday week still holds a publication. The answer: `{"result":{"api":…,"data":{"data_header":…,
///   "data_detail":[{"period":"2026-04-03","currency_id":"USD","currency_name_eng":"USA : DOLLAR (USD) ","buying_sight":…,"buying_transfer":…,
///   "selling":…,"mid_rate":"32.6448000"}, …]}}}`.
/// - Quotes: `mid_rate` (the bank's midpoint of buying transfer and selling), THB per 1 unit (``PublishedQuote/Direction/pivotPerUnits``) except
///   where the currency's English name says otherwise: `JAPAN : YEN (100 YEN) (JPY)` is per 100, `INDONESIA : RUPIAH (1,000 RUPIAH) (IDR)` per 1000.
///   Values are strings padded to seven decimals (`"32.6448000"`), kept as published. Where `mid_rate` is empty but buying transfer and selling are
///   not, their exact midpoint.
/// - Day: `period`.
/// - Schedule: Asia/Bangkok, Monday to Friday, out by about 18:00.
/// - Skipped: a currency whose `mid_rate`, `buying_transfer` and `selling` are all empty (no trade that day).
public struct BOTProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 9, today: today()) else { return [] }
        let url = baseURL + "/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/?start_period=\(first)&end_period=\(last)"
        return [ProviderRequest(url: url, headers: ["Authorization": apiKey, "Accept": "application/json"])]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        var rows: [(day: Day, quote: PublishedQuote)] = []
        for (index, row) in try ProviderJSON(answer: body).field(at: "result", "data", "data_detail").array("\"data_detail\"").enumerated() {
            let what = "row \(index + 1)"
            let day = try Day(parsing: row.string("period", of: what), .iso)
            let currency = try PublishedText.currency(row.string("currency_id", of: what), day: day)
            let name = try row.string("currency_name_eng", of: what)
            var mid = try row.field("mid_rate", of: what)
            if mid.isNoFigure {
                let buying = try row.field("buying_transfer", of: what)
                let selling = try row.field("selling", of: what)
                if buying.isNoFigure && selling.isNoFigure { continue }
                mid = .string(try PublishedText.midpoint(buying: buying, selling: selling, currency: currency, day: day))
            }
            rows.append((day, try .reading(code: currency.rawValue, value: mid, unit: Self.unit(in: name), direction: .pivotPerUnits, day: day)))
        }
        return ProviderPublication.byDay(rows)
    }

    /// The units a name states, `(100 YEN)` → 100, `(1,000 RUPIAH)` → 1000; 1 when it states none.
    static func unit(in name: String) throws(UpstreamDataError) -> Int {
        let stated = name.split(separator: "(").dropFirst().filter { $0.first?.isWholeNumber == true }
        guard stated.count <= 1 else { throw .layout("the currency name \(UpstreamDataError.quoted(name)) states two units") }
        guard let group = stated.first else { return 1 }
        let amount = group.prefix { $0 != " " }
        guard amount.count < group.count, let unit = GroupedDecimal.rateText(amount, decimalMark: ".", groupMark: ",").flatMap({ Int($0) }) else {
            throw .layout("the currency name \(UpstreamDataError.quoted(name)) states no readable unit")
        }
        return unit
    }
}
