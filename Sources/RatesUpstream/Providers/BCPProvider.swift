import RatesCore

/// The Banco Central del Paraguay's interbank reference rates of the guaraní (PYG), 24 currencies.
///
/// - Source: `https://www.bcp.gov.py/webapps/web/cotizacion/monedas-historica?anho=2024&moneda=USD`, an HTML page in UTF-8 for one currency and one
///   year (``ProviderRequest/subject`` is the code): a table whose title cell reads `PLANILLA DE COTIZACIONES DEL AÑO 2024 DE MONEDA DOLAR AMERICANO`
///   (the year and the currency's Spanish name, read through the fixed table ``currencyNames``: the page's currency picker does not list every
///   currency it answers for), then a grid whose header row is `# | ENE | FEB | … | DIC` and whose rows are the days 1 to 31, one cell per month: the
///   figure, or `ND` where there is none (a weekend, a holiday, a day still to come, the 30th of February).
/// - Quote convention: guaraníes for 1 unit of the currency, Spanish notation (a point between thousands, decimal comma: `7.271,63` is 7271.63 PYG
///   per USD), read with the same digits: ``RatesCore/PublishedQuote/Direction/pivotPerUnits``, unit 1. Gold (`ORO`, asked for as `XAU`, PYG per troy
///   ounce) is not a currency: the adapter does not ask for it, and reads a gold page as no publication. The special drawing right the picker offers
///   is never published (every cell `ND`) and is not asked for.
/// - Schedule: America/Asuncion, Monday to Friday, usually by 16:00 (the rate is the day's weighted average of interbank spot deals); a figure is
///   dated the day it is for.
/// - Ranges: one request per currency and calendar year of the range; the newest publication is asked for as the years of the last seven days (one
///   year but in the first week of January).
public struct BCPProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The currencies asked for, in request order.
    public static let currencies = [
        "USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "CNY", "BRL", "ARS", "CLP", "MXN", "UYU", "COP", "BOB", "NZD", "ZAR", "SEK",
        "DKK", "NOK", "AED", "PEN", "SGD", "TWD",
    ]

    /// The names the pages' titles give the currencies, and their codes (`nil`: gold, not a currency).
    static let currencyNames: [String: String?] = [
        "DOLAR AMERICANO": "USD", "EURO": "EUR", "LIBRA ESTERLINA": "GBP", "YEN JAPONES": "JPY", "FRANCO SUIZO": "CHF",
        "DOLAR CANADIENSE": "CAD", "DOLAR AUSTRALIANO": "AUD", "YUAN CHINO": "CNY", "REAL BRASILERO": "BRL", "PESO ARGENTINO": "ARS",
        "PESO CHILENO": "CLP", "PESO MEXICANO": "MXN", "PESO URUGUAYO": "UYU", "PESO COLOMBIANO": "COP", "BOLIVIAN BOLIVIANO": "BOB",
        "DOLAR NEOZELANDES": "NZD", "RAND SUDAFRICANO": "ZAR", "CORONA SUECA": "SEK", "CORONA DANESA": "DKK", "CORONA NORUEGA": "NOK",
        "UAE DIRHAM": "AED", "PERUVIAN NUEVO SOL": "PEN", "SINGAPORE DOLLAR": "SGD", "NEW TAIWAN DOLLAR": "TWD", "ORO": nil,
    ]

    /// The grid's header row.
    static let gridHeader = ["#", "ENE", "FEB", "MAR", "ABR", "MAY", "JUN", "JUL", "AGO", "SEP", "OCT", "NOV", "DIC"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 7, today: today()) else { return [] }
        return (first.parts.year...last.parts.year).flatMap { year in
            Self.currencies.map { code in
                ProviderRequest(url: "\(baseURL)/webapps/web/cotizacion/monedas-historica?anho=\(year)&moneda=\(code)", subject: code)
            }
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let page = try HTMLDocument(parsing: body)
        let (year, code) = try title(of: page)
        if let subject = request.subject, subject != code ?? "XAU" {
            throw .layout("the page is for \(code ?? "gold"), the request for \(subject)")
        }
        let (_, rows) = try page.table(withHeader: Self.gridHeader)
        guard let code, let currency = CurrencyCode(code) else { return [] }
        guard rows.count == 31 else { throw .layout("the \(year) grid of \(code) has \(rows.count) days, not 31") }
        var publications: [ProviderPublication] = []
        for (index, row) in rows.enumerated() {
            let cells = row.texts
            guard cells.count == 13, cells[0] == String(index + 1) else {
                throw .layout("row \(index + 1) of the \(year) grid of \(code) is \(HTMLDocument.shown(cells))")
            }
            for month in 1...12 where cells[month] != "ND" {
                guard let day = Day(year: year, month: month, day: index + 1) else { throw .invalidDay("\(year)-\(month)-\(index + 1)") }
                let value = try GroupedDecimal.rate(cells[month], of: currency, day: day, decimalMark: ",", groupMark: ".")
                publications.append(ProviderPublication(day: day, currency: currency, value: value, direction: .pivotPerUnits))
            }
        }
        return publications
    }

    /// The year and the currency (`nil` for gold) of the page's title cell.
    private func title(of page: HTMLDocument) throws(UpstreamDataError) -> (year: Int, code: String?) {
        let prefix = "PLANILLA DE COTIZACIONES DEL AÑO "
        let titles = page.tables.flatMap { $0.rows.flatMap(\.texts) }.filter { $0.hasPrefix(prefix) }
        guard titles.count == 1, let title = titles.first else { throw .layout("\(titles.count) titles \"\(prefix)…\", expected one") }
        let rest = title.dropFirst(prefix.count)
        let year = rest.prefix(4)
        guard year.utf8.count == 4, PublishedText.isDigits(year), let number = Int(year), rest.dropFirst(4).hasPrefix(" DE MONEDA ") else {
            throw .layout("the title \(UpstreamDataError.quoted(title)) names no year and currency")
        }
        let name = String(rest.dropFirst(4 + " DE MONEDA ".count))
        guard let code = Self.currencyNames[name] else {
            throw .layout("the currency \(UpstreamDataError.quoted(name)) is not one the adapter knows")
        }
        return (number, code)
    }
}
