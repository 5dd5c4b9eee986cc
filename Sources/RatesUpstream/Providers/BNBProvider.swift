import RatesCore

/// The Bulgarian National Bank's official rates of the lev (about 31 currencies).
///
/// - Source: `https://www.bnb.bg/Statistics/StExternalSector/StExchangeRates/StERForeignCurrencies/index.htm`, one day's table as UTF-8 XML (with a
///   byte order mark): `<ROWSET>` holding one `<ROW>` per line of the table. The first row is the table's header (`<GOLD>0</GOLD>`, a `<TITLE>` and
///   the columns' names); each currency row (`<GOLD>1</GOLD>`) has `<CURR_DATE>01.02.2019</CURR_DATE>`, `<CODE>`, `<RATIO>`, `<REVERSERATE>` and
///   `<RATE>` (decimal point). The latest table is `?download=xml&search=&lang=EN`; the table of a day `D` is
///   `?downloadOper=true&group1=first&firstDays=DD&firstMonths=MM&firstYear=YYYY&search=true&type=XML`.
/// - Quote convention: `RATE` leva for `RATIO` units of the currency (1.70502 BGN per 1 USD, 4.64457 BGN per 10 BRL, 6.15757 BGN per 1000 HUF):
///   ``PublishedQuote/Direction/pivotPerUnits`` with unit `RATIO`. `REVERSERATE` (units per lev, computed by the bank) is not read. The gold row
///   (`<GOLD>2</GOLD>`, `XAU`, its reverse rate `n/a`) is leva per troy ounce, ISO 4217's unit of `XAU`, as its `NAME_` says (`Злато (в трой унции)`,
///   `Gold (in troy ounces)`): kept as it is; a gold row whose name does not say troy ounces, or with another `RATIO`, rejects the table. The euro is
///   not in the table (the lev is pegged to it at 1.95583). `n/a` is the bank's mark for no figure: a row whose `RATE` is `n/a` or empty (a currency
///   the ECB, whose rates the bank's follow, stopped quoting) is skipped.
/// - Schedule: Bulgarian working days (Europe/Sofia): the bank sets the day's rates from the ECB's reference rates, out by about 18:00; `CURR_DATE`
///   is the day the table is valid for. Bulgaria adopted the euro on 2026-01-01: the lev's tables are its history up to then.
/// - Ranges: one daily request per Monday–Friday in the range. The per-currency period search (`group1=second`) answers another layout, one currency
///   at a time: the daily table needs no currency list. For a day without a table (a holiday) the bank answers the table in force, under its own
///   date, which may lie before the range.
public struct BNBProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let url = "\(baseURL)/Statistics/StExternalSector/StExchangeRates/StERForeignCurrencies/index.htm"
        let latest = ProviderRequest(url: url + "?download=xml&search=&lang=EN")
        return window.requests(latest: [latest], eachDayOn: PublicationSchedule.workingDays) { day in
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
        var day: Day?
        var quotes: [PublishedQuote] = []
        for (index, row) in root.children.enumerated().dropFirst() {
            let place = "<ROW> \(index + 1)"
            let rowDay = try Day(parsing: XMLFields.text(row, "CURR_DATE", in: place), .dayMonthYear(separator: "."))
            guard day == nil || day == rowDay else { throw .layout("\(place) is dated \(rowDay), the rows before it \(day!)") }
            day = rowDay
            let gold = try XMLFields.text(row, "GOLD", in: place)
            guard gold == "1" || gold == "2" else { throw .layout("\(place) has <GOLD>\(UpstreamDataError.quoted(gold))</GOLD>, expected 1 or 2") }
            let code = try PublishedText.currency(XMLFields.text(row, "CODE", in: place), day: rowDay)
            let unit = try PublishedText.unit(XMLFields.text(row, "RATIO", in: "\(place) (\(code))"), of: code, day: rowDay)
            if gold == "2" {
                let name = try XMLFields.text(row, "NAME_", in: "\(place) (\(code))").lowercased()
                guard code.rawValue == "XAU", unit == 1, name.contains("трой") || name.contains("troy") else {
                    throw .layout("\(place) is a gold row but not leva per troy ounce of XAU (\(code), \(UpstreamDataError.quoted(name)))")
                }
            }
            let rate = try XMLFields.text(row, "RATE", in: "\(place) (\(code))")
            if ["", "n/a"].contains(rate.filter { !$0.isWhitespace }.lowercased()) { continue }
            let quote = try PublishedQuote.reading(rate, of: code, unit: unit, direction: .pivotPerUnits, day: rowDay)
            if code != pivot { quotes.append(quote) }
        }
        guard let day else { throw .empty }
        return [ProviderPublication(day: day, quotes: quotes)]
    }
}
