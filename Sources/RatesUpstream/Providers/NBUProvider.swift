import RatesCore

/// The National Bank of Ukraine's official exchange rates, in UAH.
///
/// - Source: for a range, `https://bank.gov.ua/NBU_Exchange/exchange_site?start=YYYYMMDD&end=YYYYMMDD&sort=exchangedate&order=asc&json` (JSON, one
///   request for any span); for `.latest`, today's rates from `https://bank.gov.ua/NBUStatService/v1/statdirectory/exchange` (XML).
/// - Quotes: ``PublishedQuote/Direction/pivotPerUnits``. The JSON's `rate` is UAH per `units` units (JPY per 10, HUF and KRW per 100, VND and IDR per
///   1000); its `rate_per_unit` is that figure divided, not read. The XML's `rate` is UAH per 1 unit. The precious metals (`XAU`, `XAG`, `XPT`,
///   `XPD`, the JSON's group 3) are the bank's accounting prices in UAH per troy ounce, ISO 4217's unit of the metals: kept as published
///   (``PreciousMetal``).
/// - Day: `exchangedate`, the day the rate is official for (set on the business day before, `calcdate`). Skipped, as not publications: Saturdays and
///   Sundays, whose rows repeat Friday's figures (same `calcdate`, same rates).
/// - Schedule: Europe/Kyiv, Monday to Friday; the next day's rate is set by about 15:30, today's is then final.
public struct NBUProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: "\(baseURL)/NBUStatService/v1/statdirectory/exchange")]) { first, last in
            let span = "start=\(first.text(.compact))&end=\(last.text(.compact))"
            return [ProviderRequest(url: "\(baseURL)/NBU_Exchange/exchange_site?\(span)&sort=exchangedate&order=asc&json")]
        }
    }

    /// Reads the statistics directory's XML for a `statdirectory` request, the JSON rows otherwise.
    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let rows = request.url.contains("/statdirectory/") ? try xmlRows(body) : try jsonRows(body)
        var days: [Day: [PublishedQuote]] = [:]
        for row in rows {
            let day = try Day(parsing: row.day, .dayMonthYear(separator: "."))
            guard day.isoWeekday <= 5 else { continue }
            days[day, default: []].append(try .reading(code: row.code, value: row.rate, unit: row.units, direction: .pivotPerUnits, day: day))
        }
        return days.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }

    /// One published rate before it is checked.
    typealias Row = (day: String, code: String, rate: ProviderJSON, units: Int)

    /// `[{"exchangedate":"01.03.2026","cc":"USD","rate":43.2081,"units":1,"rate_per_unit":43.2081,…}, …]`.
    func jsonRows(_ body: [UInt8]) throws(UpstreamDataError) -> [Row] {
        try ProviderJSON(answer: body).array("the answer").enumerated().map { index, row throws(UpstreamDataError) in
            let what = "row \(index + 1)"
            let day = try row.string("exchangedate", of: what)
            let code = try row.string("cc", of: what)
            return (day, code, try row.field("rate", of: what), try row.integer("units", of: what))
        }
    }

    /// `<exchange><currency><r030>36</r030><txt>…</txt><rate>19.374292</rate><cc>AUD</cc><exchangedate>18.02.2019</exchangedate></currency>…</exchange>`.
    func xmlRows(_ body: [UInt8]) throws(UpstreamDataError) -> [Row] {
        try XMLReader.Element(parsing: body, root: "exchange").children.enumerated().map { index, currency throws(UpstreamDataError) in
            let what = "currency \(index + 1)"
            guard currency.localName == "currency" else { throw .layout("\(what) is <\(currency.localName)>, not <currency>") }
            let day = try XMLFields.text(currency, "exchangedate", in: what)
            return (day, try XMLFields.text(currency, "cc", in: what), .string(try XMLFields.text(currency, "rate", in: what)), 1)
        }
    }
}
