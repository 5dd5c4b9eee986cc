import RatesCore

/// The Central Bank of Bosnia and Herzegovina's middle exchange rates of the convertible mark (17 currencies).
///
/// - Source: `https://www.cbbh.ba/CurrencyExchange/GetJsonForPeriod?dateFrom=YYYY-MM-DD&dateTo=YYYY-MM-DD`, every exchange list of the span as a JSON
///   array, and `…/GetJson?date=MM/DD/YYYY%2000:00:00`, the one list in force on a day (a weekend or a holiday gives the list before it, under its
///   own date): `{"CurrencyExchangeItems":[{"Country":"EMU","NumCode":"978","AlphaCode":"EUR","Units":"1","Buy":"1.955830","Middle":"1.955830",
///   "Sell":"1.955830","Star":null},…],"Date":"2026-09-25T00:00:00","Comments":[],"Number":189}`. The period answer writes figures without trailing
///   zeros (`"1.95583"`), the daily one with six decimals; each is stored as its answer writes it. A span without any list is a 404 whose body is
///   `"Problem with export"`: no publication (``NoPublicationStatus``, for that request only), and that body reads as none too.
/// - Quote convention: `Middle` marks for `Units` units of `AlphaCode`, ``PublishedQuote/Direction/pivotPerUnits`` (EUR at the currency board's
///   1.95583; HUF, JPY, RSD per 100). The buying and selling rates and the `Comments` (in 1998, the SDR in dollars and the kuna) are not read. A row
///   without a middle rate (`KWD` in 1998, listed with neither units nor figure) is skipped.
/// - The lists of 1998 are in Deutsche marks: the mark (KM, BAM) was defined at par with the Deutsche mark from the bank's opening in August 1997
///   until the euro, and before its banknotes (June 1998) the lists were kept in DEM, with a `DEM` row at par (`"Units":"100","Middle":"100"`). Such
///   figures are BAM figures, and a list with a `DEM` row is read as marks, the row with them (100 BAM per 100 DEM, the peg), as long as that row is
///   at par: a `DEM` row at any other figure means the list is not in marks, and rejects the answer. They are stored as the convertible mark's
///   figures from the bank's opening on 1997-08-11 (``historyStart``; the first list of 1998 is dated 6 January), the peg to the Deutsche mark making
///   them per euro at 1.95583 as any mark figure before 1999. Those lists also hold units that are not currencies, skipped: `XEU` (the ECU), `XBA`
///   (the ECU's figure under the bond-market unit's code) and `ESB` (a peseta account unit; `ESP` is the peseta itself).
/// - Day: the list's `Date`, the day it holds for.
/// - Schedule: Europe/Sarajevo, lists set Monday to Friday by about 16:00 for the next day (dated Tuesday to Saturday; Saturday's holds through
///   Monday).
/// - Ranges: one period request per 366 days; the newest publication is asked for as the list in force tomorrow (the daily request).
public struct CBBHProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The service's address (`…/CurrencyExchange`).
    var endpoint: String { baseURL + "/CurrencyExchange" }

    /// The most days one period request covers.
    static let maxDays = 366
    /// Units listed in 1998 that are not currencies.
    static let notCurrencies: Set<String> = ["XEU", "XBA", "ESB"]
    static let deutscheMark = "DEM"
    /// The body of the period answer for a span without lists.
    static let noList = ProviderJSON.string("Problem with export")

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let tomorrow = today().adding(days: 1).text(.monthDayYear(separator: "/"))
        return window.requests(latest: [ProviderRequest(url: "\(endpoint)/GetJson?date=\(tomorrow)%2000:00:00")]) { first, last in
            Day.spans(from: first, through: last, maxDays: Self.maxDays).map { span in
                ProviderRequest(url: "\(endpoint)/GetJsonForPeriod?dateFrom=\(span.first.text(.iso))&dateTo=\(span.last.text(.iso))")
            }
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        if document == Self.noList { return [] }
        let lists = (try? document.array("")) ?? [document]
        return try lists.enumerated().map { index, list throws(UpstreamDataError) in try self.list(list, what: "list \(index + 1)") }
    }

    /// One exchange list.
    func list(_ list: ProviderJSON, what: String) throws(UpstreamDataError) -> ProviderPublication {
        let day = try Day(parsing: try list.string("Date", of: what), .midnightTimestamp)
        let items = try list.field("CurrencyExchangeItems", of: "the list of \(day)").array("the items of \(day)")
        let quotes = try items.enumerated().map { position, item throws(UpstreamDataError) -> PublishedQuote? in
            let code = try item.string("AlphaCode", of: "item \(position + 1) of \(day)")
            let units = try item.field("Units", of: "\(code) on \(day)")
            let middle = try item.field("Middle", of: "\(code) on \(day)")
            if Self.notCurrencies.contains(code) || middle.isNoFigure { return nil }
            let unit = try units.integer("\(code)'s \"Units\" on \(day)")
            let quote = try PublishedQuote.reading(code: code, value: middle, unit: unit, direction: .pivotPerUnits, day: day)
            if code == Self.deutscheMark, quote.value != String(unit) {
                throw .layout("the list of \(day) has DEM at \(quote.value) per \(unit), not at par: it is not in marks")
            }
            return quote
        }
        return ProviderPublication(day: day, quotes: quotes.compactMap { $0 })
    }
}

/// The period request answers 404 ("Problem with export") for a span without any list, as the adapter documents; a 404 to the daily request fails the
/// fetch, as any error status does.
extension CBBHProvider: NoPublicationStatus {
    public func meansNoPublication(httpStatus: Int, for request: ProviderRequest) -> Bool {
        httpStatus == 404 && request.url.hasPrefix(endpoint + "/GetJsonForPeriod?")
    }
}
