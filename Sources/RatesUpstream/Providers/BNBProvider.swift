import RatesCore

/// The Bulgarian National Bank's official rates of the lev (about 31 currencies).
///
/// - Source: `https://www.bnb.bg/Statistics/StExternalSector/StExchangeRates/StERForeignCurrencies/index.htm`, the latest table
///   `?download=xml&search=&lang=EN`, a day's `?downloadOper=true&group1=first&firstDays=DD&firstMonths=MM&firstYear=YYYY&search=true&type=XML`: a
///   day's table in UTF-8 XML with a byte order mark, `<ROWSET>` with a `<ROW>` per line. First the header (`<GOLD>0</GOLD>`, a `<TITLE>`, column
///   names); currency rows (`<GOLD>1</GOLD>`): `<CURR_DATE>01.02.2019</CURR_DATE>`, `<CODE>`, `<RATIO>`, `<REVERSERATE>`, `<RATE>` (decimal point).
/// - Quote convention: `RATE` leva for `RATIO` units of the currency, ``PublishedQuote/Direction/pivotPerUnits`` (1.70502 BGN per 1 USD, 4.64457 per
///   10 BRL, 6.15757 per 1000 HUF). `REVERSERATE` (units per lev, computed by the bank) is not read. The gold row (`<GOLD>2</GOLD>`, `XAU`, its
///   reverse rate `n/a`) is leva per troy ounce, ISO 4217's unit of `XAU`, as its `NAME_` says (`Злато (в трой унции)`, `Gold (in troy ounces)`):
///   kept; a gold row whose name does not say troy ounces, or with another `RATIO`, rejects the table. The euro, the lev's peg at 1.95583, is not in
///   the table. A row whose `RATE` is empty or `n/a`, the bank's mark for no figure (a currency the ECB stopped quoting), is skipped.
/// - Schedule: Bulgarian working days (Europe/Sofia): the bank sets the day's rates from the ECB's reference rates, out by about 18:00; `CURR_DATE`
///   is the day the table is valid for. Bulgaria adopted the euro on 2026-01-01: the lev's tables are its history up to then.
/// - Ranges: a request per Monday–Friday of the range; the per-currency period search (`group1=second`) answers another layout, one currency at a
///   time, and the daily table needs no currency list. A holiday (no table) gets the table in force, under its own date, perhaps before the range.
public struct BNBProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let url = "\(baseURL)/Statistics/StExternalSector/StExchangeRates/StERForeignCurrencies/index.htm"
        return window.requests(latest: [ProviderRequest(url: url + "?download=xml&search=&lang=EN")], eachDayOn: schedule.weekdays) { day in
            let parts = day.text(.dayMonthYear(separator: ".")).split(separator: ".")
            let query = "?downloadOper=true&group1=first&firstDays=\(parts[0])&firstMonths=\(parts[1])&firstYear=\(parts[2])&search=true&type=XML"
            return ProviderRequest(url: url + query)
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let root = try XMLReader.Element(parsing: body, root: "ROWSET")
        try XMLFields.expectOnly(["ROW"], in: root)
        guard let header = root.children.first, try XMLFields.text(header, "GOLD", in: "the first <ROW>") == "0", header.child("TITLE") != nil else {
            throw .layout("the first <ROW> is not the table's header (<GOLD>0</GOLD> with a <TITLE>)")
        }
        guard let first = root.children.dropFirst().first else { throw .empty }
        let day = try Day(parsing: XMLFields.text(first, "CURR_DATE", in: "<ROW> 2"), .dayMonthYear(separator: "."))
        var quotes: [PublishedQuote] = []
        for (index, row) in root.children.enumerated().dropFirst() {
            let place = "<ROW> \(index + 1)"
            let rowDay = try Day(parsing: XMLFields.text(row, "CURR_DATE", in: place), .dayMonthYear(separator: "."))
            guard rowDay == day else { throw .layout("\(place) is dated \(rowDay), the rows before it \(day)") }
            let gold = try XMLFields.text(row, "GOLD", in: place)
            guard gold == "1" || gold == "2" else { throw .layout("\(place) has <GOLD>\(UpstreamDataError.quoted(gold))</GOLD>, expected 1 or 2") }
            let code = try PublishedText.currency(XMLFields.text(row, "CODE", in: place), day: day)
            let unit = try PublishedText.unit(XMLFields.text(row, "RATIO", in: "\(place) (\(code))"), of: code, day: day)
            let name = gold == "2" ? try XMLFields.text(row, "NAME_", in: "\(place) (\(code))").lowercased() : ""
            guard gold == "1" || code.rawValue == "XAU" && unit == 1 && (name.contains("трой") || name.contains("troy")) else {
                throw .layout("\(place) is a gold row but not leva per troy ounce of XAU (\(code), \(UpstreamDataError.quoted(name)))")
            }
            let rate = try XMLFields.text(row, "RATE", in: "\(place) (\(code))")
            if ["", "n/a"].contains(rate.filter { !$0.isWhitespace }.lowercased()) { continue }
            let quote = try PublishedQuote.reading(rate, of: code, unit: unit, direction: .pivotPerUnits, day: day)
            if code != pivot { quotes.append(quote) }
        }
        return [ProviderPublication(day: day, quotes: quotes)]
    }
}
