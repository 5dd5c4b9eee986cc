import RatesCore

/// The Banque du Liban's daily exchange rates of the Lebanese pound: 7 currencies, from a workbook of the current year and the two before it.
///
/// - Source: `https://www.bdl.gov.lb/CB%20Com/Statistics%20And%20Research/Daily/BDL_DailyExchangeRates.xls`, a legacy Excel workbook (read with
///   ``BIFFWorkbook``) of one sheet per year, named for it (`Daily Exchange Rates 2026`, `… 2025`, `… 2024`: the spaces vary). Each sheet: the header
///   row `Period | Currency | Bid | Ask | Mid`, then one row per currency and day, newest day first: the day as an Excel date serial in column A, the
///   ISO code in B, the figures in C, D and E.
/// - Quote convention: pounds for 1 unit of the currency: ``RatesCore/PublishedQuote/Direction/pivotPerUnits``, unit 1. The published Mid is
///   contributed (15000 LBP per USD on 2024-03-27, 89500 from 2024-03-28 on, when Bid, Ask and Mid became one figure); Bid and Ask are read to check
///   that Mid lies between them, and a row where it does not rejects the answer, as does a row dated outside its sheet's year. A row repeated
///   verbatim (the seven rows of 2025-11-17 appear twice in the 2025 sheet) is read once; a repeat with other figures rejects the answer. Figures are
///   stored as doubles and read as ``BIFFCell/decimalText`` says (`104016.9`).
/// - Schedule: Asia/Beirut, Monday to Friday; the workbook is replaced around 13:00 local time, its newest day often a working day or two before. A
///   row's day is the day its rates are for.
/// - Ranges: one workbook of its three years' days (none older) answers the newest publication and any range; the days asked for are kept from it.
public struct BDLProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    static let header = ["Period", "Currency", "Bid", "Ask", "Mid"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.wholeHistory([ProviderRequest(url: baseURL + "/CB%20Com/Statistics%20And%20Research/Daily/BDL_DailyExchangeRates.xls")])
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let workbook = try BIFFWorkbook(body)
        // Each day and currency's Bid, Ask and Mid as read, to tell a verbatim repeat from a conflict.
        var figures: [Day: [CurrencyCode: [String]]] = [:]
        let rows = try workbook.everySheet { sheet throws(UpstreamDataError) -> [(day: Day, quote: PublishedQuote)] in
            func layout(_ text: String) -> UpstreamDataError { .layout("sheet \(sheet.name): \(text)") }
            let words = sheet.name.split(whereSeparator: \.isWhitespace)
            guard words.dropLast() == ["Daily", "Exchange", "Rates"], let yearWord = words.last, let year = Int(yearWord)
            else { throw layout("not a sheet named Daily Exchange Rates <year>") }
            guard let first = sheet.rows.first, first.number == 1, first.cells.map(\.text) == Self.header.map(Optional.some)
            else { throw layout("row 1 is not the header \(Self.header.joined(separator: " | "))") }
            return try sheet.rows.dropFirst().map { row throws(UpstreamDataError) -> (day: Day, quote: PublishedQuote)? in
                guard row.cells.map(\.column) == [0, 1, 2, 3, 4], let serial = row[0]?.number, let code = row[1]?.text
                else { throw layout("row \(row.number) is not a day, a currency and three figures") }
                let day = try workbook.day(serial: serial)
                guard day.parts.year == year else { throw layout("row \(row.number) is dated \(day), outside \(year)") }
                let currency = try PublishedText.currency(code, day: day)
                let texts = try row.cells.dropFirst(2).map { cell throws(UpstreamDataError) in
                    guard let decimal = cell.decimalText else { throw .invalidRate(currency: currency, day: day, text: cell.text ?? "\(cell.value)") }
                    return try PublishedText.rate(decimal, currency: currency, day: day)
                }
                let (bid, ask, mid) = (row[2]!.number!, row[3]!.number!, row[4]!.number!)
                guard bid <= mid, mid <= ask
                else { throw layout("row \(row.number): Mid \(texts[2]) of \(code) on \(day) is not between Bid \(texts[0]) and Ask \(texts[1])") }
                let seen = figures[day, default: [:]].updateValue(texts, forKey: currency)
                guard seen == nil || seen == texts else { throw .duplicateCurrency(currency, day: day) }
                return seen == nil ? (day, PublishedQuote(currency: currency, value: texts[2], direction: .pivotPerUnits)) : nil
            }.compactMap { $0 }
        }
        return ProviderPublication.byDay(rows)
    }
}
