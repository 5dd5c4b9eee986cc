import RatesCore

/// The Central Bank of Trinidad and Tobago's daily exchange rates of the Trinidad and Tobago dollar (8 currencies), buying and selling.
///
/// - Source: the bank's WordPress API, every day of a span of years: `https://www.central-bank.org.tt/wp-json/rates/v1/forex-rate/2026-2026` answers
///   `{"cbttdailyforexrates":[{"famedate":"2026-01-02","USD_Buying":"6.7017","USD_Selling":"6.7992","CAD_Buying":…,"Euro_Buying":…,…},…]}`, one row
///   per calendar day, with `USD`, `CAD`, `GBP`, `Euro` (EUR), `CHF`, `BBD`, `GYD` and `JMD` columns. A span without rows is one object instead of an
///   array, its figures `null` (its `famedate` the span, `"2027-2027"`): no publication. `…/forex-rate/all` answers the whole history, from 1991
///   (``historyStart``); a row dated before it is left out.
/// - Quote convention: the weighted averages of the authorised dealers' buying and selling rates (GYD and JMD not weighted), Trinidad and Tobago
///   dollars for one unit, only. As for every buy/sell-only source, the figure stored is their exact midpoint (``RatesCore/RateText/midpoint(_:_:)``:
///   `"6.7017"` and `"6.7992"` give `"6.75045"`), ``PublishedQuote/Direction/pivotPerUnits``. Being averages of the day's deals, the buying rate is
///   sometimes above the selling one; the midpoint is taken all the same. A currency with no deals on one side that day has that side `null` (in
///   older years also blank, or zero: `"0.0000"`): it has no midpoint and is skipped for the day; a day with every column so (a weekend, a holiday)
///   is no publication. A column the adapter does not know rejects the answer.
/// - Per EUR: through the ECB's dollar (``bridgesThroughECB``), not the bank's own EUR average: few dealers trade euros there, and that average
///   strays far from the market (9.30865 TTD per EUR on 2026-04-30, when its dollar average and the ECB's dollar gave 7.8817).
/// - Schedule: America/Port_of_Spain, Monday to Friday, the day's rates out by about 16:00; a row's day is its `famedate`.
/// - Ranges: one request for the years the range spans, a fetch keeping the range's days; the newest publication is the last seven days up to today.
public struct CBTTProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// Column prefixes and their ISO 4217 codes, in the answer's order.
    static let columns = [
        ("USD", "USD"), ("CAD", "CAD"), ("GBP", "GBP"), ("Euro", "EUR"), ("CHF", "CHF"), ("BBD", "BBD"), ("GYD", "GYD"), ("JMD", "JMD"),
    ].map { (prefix: $0, currency: CurrencyCode($1)!) }
    static let knownColumns = Set(["famedate"] + columns.flatMap { [$0.prefix + "_Buying", $0.prefix + "_Selling"] })

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 7, today: today()) else { return [] }
        return [ProviderRequest(url: "\(baseURL)/wp-json/rates/v1/forex-rate/\(first.parts.year)-\(last.parts.year)")]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let rows = try ProviderJSON(answer: body).field("cbttdailyforexrates", of: "the answer")
        if case .object(let members) = rows, members.allSatisfy({ $0.key == "famedate" || $0.value.isNull }) { return [] }
        return try rows.array("\"cbttdailyforexrates\"").enumerated().map { index, row throws(UpstreamDataError) -> ProviderPublication? in
            let what = "row \(index + 1)"
            for member in try row.members(what) where !Self.knownColumns.contains(member.key) {
                throw .layout("\(what) has a column the adapter does not know: \(UpstreamDataError.quoted(member.key))")
            }
            let day = try Day(parsing: row.string("famedate", of: what), .iso)
            guard day >= historyStart else { return nil }
            var quotes: [PublishedQuote] = []
            for column in Self.columns {
                let buying = try row.field(column.prefix + "_Buying", of: "\(day)")
                let selling = try row.field(column.prefix + "_Selling", of: "\(day)")
                if buying.isBlankOrZero || selling.isBlankOrZero { continue }
                let middle = try PublishedText.midpoint(buying: buying, selling: selling, currency: column.currency, day: day)
                quotes.append(PublishedQuote(currency: column.currency, value: middle, direction: .pivotPerUnits))
            }
            return quotes.isEmpty ? nil : ProviderPublication(day: day, quotes: quotes)
        }.compactMap { $0 }
    }
}
