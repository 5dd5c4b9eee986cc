import RatesCore

/// Danmarks Nationalbank's rates of the krone (about 30 currencies).
///
/// - Source, latest: `https://www.nationalbanken.dk/api/currencyratesxml?lang=en` (GET), UTF-8 XML: `<exchangerates refcur="DKK">` holding
///   `<dailyrates id="2026-07-13">` with one `<currency code="USD" rate="654.32"/>` per currency.
/// - Source, ranges: Statistics Denmark's table DNVALD, `https://api.statbank.dk/v1/data` (POST, a JSON query for the currencies in ``currencies``,
///   rate type `KBH`, the days from the range's first on), answered as CSV `VALUTA;KURTYP;TID;INDHOLD` with days as `2026M03D31`. The answer runs to
///   the newest day, past the range's end; `..` marks a currency with no rate that day (the lev after Bulgaria joined the euro) and is skipped. An
///   answer of either without a day (the CSV's header alone: a range starting after the newest day) is no publication.
/// - Quote convention: both give kroner per 100 units of the currency (747.50 DKK per 100 EUR), whatever `refamt="1"` in the XML suggests:
///   ``PublishedQuote/Direction/pivotPerUnits``, unit 100.
/// - History: DNVALD's daily rates go back to 1977-01-03 (``historyStart``); a range from before 1999 is answered in full.
/// - Schedule: Danish banking days (Europe/Copenhagen), about 16:00.
public struct DNBProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The latest rates' URL, on the bank's host.
    var latestURL: String { baseURL + "/api/currencyratesxml?lang=en" }
    /// The Statbank data endpoint: on Statistics Denmark's host, or under a replaced base (one host serving both).
    var statbankURL: String { source.base(otherwise: "https://api.statbank.dk") + "/v1/data" }

    /// The currencies a range query asks Statbank for.
    public static let currencies = [
        "EUR", "USD", "GBP", "SEK", "NOK", "CHF", "CAD", "JPY", "AUD", "NZD", "PLN", "CZK", "HUF", "HKD", "SGD", "ZAR", "BGN", "RON",
        "TRY", "KRW", "THB", "MYR", "PHP", "IDR", "CNY", "BRL", "MXN", "INR", "ILS", "ISK",
    ]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: latestURL)]) { first, _ in
            let since = first.text(.statbank)
            let codes = Self.currencies.map { "\"\($0)\"" }.joined(separator: ",")
            let query = """
                {"table":"DNVALD","format":"BULK","lang":"en","valuePresentation":"Code","variables":[{"code":"VALUTA","values":[\(codes)]},\
                {"code":"KURTYP","values":["KBH"]},{"code":"Tid","values":[">=\(since)"]}]}
                """
            return [ProviderRequest(url: statbankURL, method: .post, headers: ["Content-Type": "application/json"], body: query)]
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        try request.method == .post ? parseStatbank(body) : parseLatest(body)
    }

    // MARK: - Latest (XML)

    func parseLatest(_ body: [UInt8]) throws(UpstreamDataError) -> [ProviderPublication] {
        let root = try XMLReader.Element(parsing: body, root: "exchangerates")
        try XMLFields.expectOnly(["dailyrates"], in: root)
        let reference = try XMLFields.attribute(root, "refcur", in: "<exchangerates>")
        guard reference == pivot.rawValue else { throw .layout("refcur is \(UpstreamDataError.quoted(reference)), expected DKK") }
        return try root.children.map { daily throws(UpstreamDataError) in
            try XMLFields.expectOnly(["currency"], in: daily)
            let day = try Day(parsing: XMLFields.attribute(daily, "id", in: "<dailyrates>"), .iso)
            let quotes = try XMLFields.quotes(
                daily.children, code: .attribute("code"), unit: .fixed("100"), rate: .attribute("rate"), day: day, pivot: pivot)
            return ProviderPublication(day: day, quotes: quotes)
        }
    }

    // MARK: - Ranges (Statbank CSV)

    func parseStatbank(_ body: [UInt8]) throws(UpstreamDataError) -> [ProviderPublication] {
        // Codes, days and decimals: ASCII only.
        guard body.allSatisfy({ $0 < 0x80 }) else { throw .layout("the CSV holds a byte that is not ASCII") }
        // Lines end in CR LF (or LF).
        var lines = try DelimitedText.lines(body).map(String.init)
        if lines.last == "" { lines.removeLast() }
        guard let header = lines.first, !header.allSatisfy(\.isWhitespace) else { throw .empty }
        guard header == "VALUTA;KURTYP;TID;INDHOLD" else {
            throw .layout("CSV header \(UpstreamDataError.quoted(header)), expected VALUTA;KURTYP;TID;INDHOLD")
        }
        var quotes: [Day: [PublishedQuote]] = [:]
        for (index, line) in lines.enumerated().dropFirst() {
            let fields = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, fields[1] == "KBH" else {
                throw .layout("CSV line \(index + 1) \(UpstreamDataError.quoted(line)) is not VALUTA;KBH;TID;INDHOLD")
            }
            let day = try Day(parsing: fields[2], .statbank)
            let code = try PublishedText.currency(fields[0], day: day)
            if fields[3] == ".." { continue }  // no rate that day
            let value = try PublishedText.rate(fields[3], currency: code, day: day)
            guard code != pivot else { continue }
            quotes[day, default: []].append(PublishedQuote(currency: code, value: value, unit: 100, direction: .pivotPerUnits))
        }
        return quotes.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }
}
