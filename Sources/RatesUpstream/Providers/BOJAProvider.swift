import RatesCore

/// The Bank of Jamaica's counter rates of the Jamaican dollar (JMD), about 35 currencies.
///
/// - Source: the bank's wpDataTables table 134, `POST https://boj.org.jm/wp-admin/admin-ajax.php?action=get_wdtable&table_id=134`
///   with the form body `draw=1&start=0&length=-1&wdtNonce=…`, where the nonce is the value of
///   `<input id="wdtNonceFrontendServerSide_134">` on the counter-rates page
///   (`https://boj.org.jm/market/foreign-exchange/counter-rates/`, asked for first: ``sessionRequest(for:)``),
///   whose table 134 must have the header row `Date | Currency | DMD & TT | Notes | Coins | DMD, TT & Cash`
///   (`DMD & TT`, `Notes` and `Coins` buying rates, `DMD, TT & Cash` the selling rate). The answer is JSON
///   (``WPDataTablesAnswer``), one row per currency and day in those columns:
///   `["02 Mar 2026","U.S. DOLLAR","155.3493","147.5800","127.5800","157.2639"]`. Currencies are named in
///   words (character references decoded, white space collapsed), read through ``currencyNames``: the 35
///   names the table's own currency filter lists (`T&#038;T DOLLAR` is `T&T DOLLAR`), or a name that is
///   itself an ISO 4217 code; any other name rejects the answer. `VENEZUELAN BOLIVAR` is the bolívar of
///   the row's day: VEB before 2008-01-01, VEF until 2018-08-19, VES since. The answer holds the rows the
///   table shows by default (the current month: 255 rows in the recording, while its `recordsFiltered`
///   says 104868, so the count is not checked). A table without rows (`"data":[]`: the month before its first
///   rates are in) is no publication.
/// - Quote convention: Jamaican dollars for 1 unit of the currency. The figure stored is the exact midpoint
///   (``RatesCore/RateText/midpoint(_:_:)``) of the buying rate for drafts and transfers (`DMD & TT`) and the
///   selling rate (`DMD, TT & Cash`): 155.3493 and 157.2639 give 156.3066 JMD per USD,
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. Notes and coins are not read. A `DMD & TT` or
///   selling figure of `0.0000` is the bank's mark for no figure (as all through the `Coins` column): the
///   currency has no midpoint that day and is skipped. `NORTHERN IRELAND POUND` (sterling notes of Northern
///   Irish banks, no currency of their own; `GREAT BRITAIN POUND` is GBP) is skipped.
/// - Schedule: America/Jamaica, Monday to Friday, usually by 13:00; a row is dated the day it is for.
/// - Ranges: the one request gives what the table shows; a fetch keeps the days it asked for.
public struct BOJAProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    static let header = ["Date", "Currency", "DMD & TT", "Notes", "Coins", "DMD, TT & Cash"]

    /// The bank's names of the currencies and their codes (`nil`: skipped, see the quote convention).
    static let currencyNames: [String: String?] = [
        "U.S. DOLLAR": "USD", "GREAT BRITAIN POUND": "GBP", "CANADA DOLLAR": "CAD", "EURO": "EUR", "JAPANESE YEN": "JPY",
        "SWISS FRANC": "CHF", "AUSTRALIAN DOLLAR": "AUD", "DANISH KRONE": "DKK", "NORWEGIAN KRONE": "NOK", "SWEDISH KRONA": "SEK",
        "HONG KONG DOLLAR": "HKD", "BARBADOS DOLLAR": "BBD", "BELIZE DOLLAR": "BZD", "T&T DOLLAR": "TTD", "BAHAMAS DOLLAR": "BSD",
        "CAYMAN DOLLAR": "KYD", "GUYANA DOLLAR": "GYD", "E. C. DOLLAR": "XCD", "DOMINICAN REP. PESO": "DOP", "GIBRALTAR POUND": "GIP",
        "BERMUDA DOLLAR": "BMD", "BRAZIL REAL": "BRL", "CHINESE YUAN": "CNY", "INDIAN RUPEE": "INR", "MALAYSIA RINGGIT": "MYR",
        "MEXICAN PESO": "MXN", "NEW ZEALAND DOLLAR": "NZD", "SINGAPORE DOLLAR": "SGD", "SOUTH AFRICA RAND": "ZAR", "SOUTH KOREA WON": "KRW",
        "SRI LANKA RUPEE": "LKR", "TAIWAN N.T. DOLLAR": "TWD", "THAILAND BAHT": "THB", "NORTHERN IRELAND POUND": nil,
    ]
    /// The bank's name of the bolívar, whose code depends on the day (``Redenomination``).
    static let bolivarName = "VENEZUELAN BOLIVAR"

    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? {
        ProviderRequest(url: "\(baseURL)/market/foreign-exchange/counter-rates/")
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        [tableRequest(nonce: "")]
    }

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        let page = try HTMLDocument(parsing: session.body)
        guard let table = page.tables.first(where: { $0.tag["data-wpdatatable_id"] == "134" }), table.rows.first?.texts == Self.header else {
            throw .layout("the counter-rates page has no table 134 with the header \(HTMLDocument.shown(Self.header))")
        }
        guard let nonce = page.startTags("input").first(where: { $0["id"] == "wdtNonceFrontendServerSide_134" })?["value"], !nonce.isEmpty,
            nonce.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) })
        else {
            throw .layout("the counter-rates page has no nonce for table 134")
        }
        return [tableRequest(nonce: nonce, cookie: session.cookieHeader)]
    }

    private func tableRequest(nonce: String, cookie: String? = nil) -> ProviderRequest {
        .formPost(
            url: "\(baseURL)/wp-admin/admin-ajax.php?action=get_wdtable&table_id=134", cookie: cookie,
            fields: [("draw", "1"), ("start", "0"), ("length", "-1"), ("wdtNonce", nonce)])
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let rows = try WPDataTablesAnswer.rows(body, columns: 6, countsRows: false)
        // The month's table before its first rates (the first working day of a month, early): no publication.
        if rows.isEmpty { return [] }
        var days: [Day: [PublishedQuote]] = [:]
        for row in rows {
            let words = row[0].split(separator: " ", omittingEmptySubsequences: false)
            guard words.count == 3, words[0].count == 2, words[1].count == 3,
                let day = HTMLText.day(day: words[0], month: words[1], year: words[2])
            else { throw .invalidDay(row[0]) }
            let name = HTMLText.collapsed(HTMLText.decodingReferences(row[1]))
            let entry: String?
            if name == Self.bolivarName {
                entry = Redenomination.code("VES", on: day)
            } else if let known = Self.currencyNames[name] {
                entry = known
            } else if let code = CurrencyCode(name), code.name != nil {
                entry = code.rawValue
            } else {
                throw .layout("the currency \(UpstreamDataError.quoted(name)) on \(day) is not one the adapter knows")
            }
            guard let code = entry else { continue }
            let currency = CurrencyCode(code)!
            if ProviderValidation.isZero(row[2]) || ProviderValidation.isZero(row[5]) { continue }
            guard let value = RateText.midpoint(row[2], row[5]) else {
                throw .invalidRate(currency: currency, day: day, text: RateText.isValid(row[2]) ? row[5] : row[2])
            }
            days[day, default: []].append(PublishedQuote(currency: currency, value: value, unit: 1, direction: .pivotPerUnits))
        }
        guard !days.isEmpty else { throw .empty }
        return days.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }
}
