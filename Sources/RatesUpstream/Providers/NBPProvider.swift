import RatesCore

/// Narodowy Bank Polski's average exchange rates, in PLN.
///
/// - Source: the NBP Web API, `https://api.nbp.pl/api/exchangerates/tables/{A|B}/…?format=json`. Table A (about 32 currencies) is published every
///   working day, table B (about 116 more, from the afghani to the Zimbabwe gold) on Wednesdays; tables of a day never overlap. `.latest` asks for
///   the newest table A and the newest table B; a range asks for both tables in spans of at most 93 days, the API's limit.
/// - Quotes: `mid`, PLN per 1 unit of the currency (``PublishedQuote/Direction/pivotPerUnits``, unit 1): the API states every rate per single unit,
///   with as many digits as it needs (table B's Iranian rial is `0.0000028`); no table carries a unit field or a per-100 name. Table B wrote the new
///   afghani (AFN, from 2003-01-07) as `AFA` until 2003-11-12: an `AFA` rate from 2003-01-07 on is read as `AFN`.
/// - Day: the table's `effectiveDate`.
/// - No data: for a correctly asked span without a table (a weekend or holiday span, table B over days without a Wednesday, gold before its series
///   began on 2013-01-02) the API answers 404 (`Brak danych`): no publication for that request (``NoPublicationStatus``), not a failed fetch.
/// - Schedule: Europe/Warsaw, Monday to Friday, table A out by about 12:15 (table B on Wednesdays at the same time).
/// - Gold: `https://api.nbp.pl/api/cenyzlota/…?format=json` (beside `exchangerates` under the API's root), asked for alongside the tables: the price
///   in PLN of one gram of gold of 1000 fineness per working day, `[{"data":"2026-03-02","cena":595.71}]`, served as `XAU` per troy ounce, the price
///   of one gram times 31.1034768 exactly (``PreciousMetal``). Like table B, it adds to its day's figures.
public struct NBPProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The longest span one request may cover, in days (the API answers 400 beyond it).
    static let maxDaysPerRequest = 93

    /// The tables read: A (daily) and B (weekly).
    static let tables = ["A", "B"]

    /// The first day of the new afghani, which table B still wrote `AFA` for most of 2003.
    static let newAfghani = Day(year: 2003, month: 1, day: 7)!

    /// The subject of the gold price's requests.
    static let gold = "gold"

    /// The gold prices' base: `cenyzlota` beside `exchangerates` (inside a test server's base that does not end so).
    var goldURL: String { (baseURL.hasSuffix("/exchangerates") ? String(baseURL.dropLast("/exchangerates".count)) : baseURL) + "/cenyzlota" }

    /// One request per table and one for the gold price for `.latest`; for a range, as many per 93-day span. Each request's `subject` is its table
    /// letter, or ``gold``.
    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        // What follows a table's or the gold price's path: nothing for the newest, `FIRST/LAST/` per span.
        let periods = window.map(latest: [""]) { first, last in
            Day.spans(from: first, through: last, maxDays: Self.maxDaysPerRequest).map { "\($0.first)/\($0.last)/" }
        } ?? []
        return Self.tables.flatMap { table in periods.map { ProviderRequest(url: "\(baseURL)/tables/\(table)/\($0)?format=json", subject: table) } }
            + periods.map { ProviderRequest(url: "\(goldURL)/\($0)?format=json", subject: Self.gold) }
    }

    /// Reads an array of tables: `[{"table":"A","no":…,"effectiveDate":"2026-03-02","rates":[{"currency":…,"code":"USD","mid":3.6056}]}]`, or, for a
    /// gold request, of gold prices.
    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        if request.url.hasPrefix(goldURL + "/") { return try goldPrices(body) }
        return try ProviderJSON(answer: body).array("the answer").enumerated().map { index, table throws(UpstreamDataError) in
            let what = "table \(index + 1)"
            let letter = try table.string("table", of: what)
            guard Self.tables.contains(letter), request.subject.map({ $0 == letter }) ?? true else {
                throw .layout("\(what) is table \(UpstreamDataError.quoted(letter)), expected \(request.subject ?? "A or B")")
            }
            let day = try Day(parsing: table.string("effectiveDate", of: what), .iso)
            let quotes = try table.field("rates", of: what).array("\(what)'s \"rates\"").map { rate throws(UpstreamDataError) in
                let code = try rate.field("code", of: "a rate of \(what)").string("a rate's \"code\"")
                let mid = try rate.field("mid", of: "rate \(code) of \(what)")
                let named = code == "AFA" && day >= Self.newAfghani ? "AFN" : code
                return try PublishedQuote.reading(code: named, value: mid, direction: .pivotPerUnits, day: day)
            }
            return ProviderPublication(day: day, quotes: quotes)
        }
    }

    /// Reads an array of gold prices, PLN per gram: `[{"data":"2026-03-02","cena":595.71}]`.
    private func goldPrices(_ body: [UInt8]) throws(UpstreamDataError) -> [ProviderPublication] {
        let gold = CurrencyCode("XAU")!
        return try ProviderJSON(answer: body).array("the answer").enumerated().map { index, price throws(UpstreamDataError) in
            let what = "gold price \(index + 1)"
            let day = try Day(parsing: price.string("data", of: what), .iso)
            let perGram = try PublishedQuote.reading(code: gold.rawValue, value: try price.field("cena", of: what), direction: .pivotPerUnits, day: day)
            let perOunce = try PreciousMetal.perTroyOunce(perGram: perGram.value, of: gold, day: day)
            return ProviderPublication(day: day, currency: gold, value: perOunce, direction: .pivotPerUnits)
        }
    }
}

/// The API answers 404 for a span without data (`Brak danych`): no publication for that request.
extension NBPProvider: NoPublicationStatus {}
