import RatesCore

/// The National Reserve Bank of Tonga's average daily exchange rates of the authorized dealers: 12 currencies per pa'anga.
///
/// - Source: `https://www.reservebank.to/data/docs/fmarkets/exrates/average_daily_exchange_rates.xlsx`, an Excel workbook (read with
///   ``XLSXWorkbook``) of one sheet per two years, newest first (`2025 to 2026`, `2023 to 2024`, … `2017 to 2018`). Each sheet: row 4 titles three
///   blocks of columns (`AUTHORIZED PERSONS' AVERAGE EXCHANGE RATES` — before 2023 `COMMERCIAL BANKS …` — then `BUY`, `MID`, `SELL`), row 6 names
///   each block's currencies by code (`AUD`, `EUR`, `FJD`, …), and from row 7 one row per day: its date an Excel date serial in column A, then the
///   figures. A day without rates (a holiday, a closure of the bank) has a note instead of figures (`Public Holiday: ANZAC Day`,
///   `Reserve Bank's Holiday: New Year's Eve`). The contact lines below the table end it.
/// - Quote convention: the `MID` block, ``RatesCore/PublishedQuote/Direction/unitsPerPivot``: units of the currency per 1 TOP (0.6651 AUD, 65.6502
///   JPY), unit 1. The buying and selling blocks are not read. Figures are stored as doubles and read as ``XLSXCell/decimalText`` says
///   (`0.66510000000000002` is `0.6651`). Skipped: rows whose MID block holds no number (a note, whatever its words), an empty cell, a text cell
///   without a digit and a zero (no figure that day), and the spacer column between the MID and SELL blocks (on some 2017 days it repeats the SELL
///   block's first figure). Text with digits that is no decimal rejects the workbook.
/// - Schedule: Pacific/Tongatapu, Monday to Friday; the day's averages are in the workbook by about 17:00.
/// - Ranges: one file holds every day since 2017-01-03, so the newest publication and any range are the same request, and the days are kept from it.
public struct NRBTProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.wholeHistory([ProviderRequest(url: baseURL + "/data/docs/fmarkets/exrates/average_daily_exchange_rates.xlsx")])
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let workbook = try XLSXWorkbook(body)
        return try workbook.everySheet { sheet throws(UpstreamDataError) -> [ProviderPublication] in
            func layout(_ text: String) -> UpstreamDataError { .layout("sheet \(sheet.name): \(text)") }
            guard let titles = sheet.row(4)?.cells, titles.map({ $0.text?.split(whereSeparator: \.isWhitespace).last }) == ["BUY", "MID", "SELL"],
                titles.allSatisfy({ $0.text?.contains("AVERAGE EXCHANGE RATES") == true })
            else { throw layout("row 4 does not title the BUY, MID and SELL blocks") }
            let middle = (sheet.row(6)?.cells ?? []).filter { (titles[1].column..<titles[2].column).contains($0.column) }
            let codes = try middle.map { cell throws(UpstreamDataError) in
                guard let text = cell.text, let code = CurrencyCode(text) else { throw layout("\(cell.reference) is not a currency code") }
                return (column: cell.column, code: code)
            }
            guard !codes.isEmpty else { throw layout("row 6 names no currency in the MID block") }
            let rows = sheet.rows.filter { $0.number > 6 }
            let dated = rows.prefix { $0[0]?.number != nil }
            if let end = rows[dated.count...].first, end[0]?.text == nil || rows[dated.count...].contains(where: { $0[0]?.number != nil }) {
                throw layout("row \(end.number) has no date")
            }
            return try dated.map { row throws(UpstreamDataError) -> ProviderPublication? in
                let day = try workbook.day(serial: row[0]!.number!)
                var quotes: [PublishedQuote] = []
                for (column, code) in codes {
                    if let note = row[column]?.text {
                        guard note.contains(where: \.isNumber) else { continue }  // a holiday's or closure's note
                        quotes.append(try .reading(note, of: code, direction: .unitsPerPivot, day: day))
                    } else if let cell = row[column], cell.decimalText.map({ Double($0) != 0 }) ?? true {  // zero: no figure that day
                        quotes.append(PublishedQuote(currency: code, value: try cell.rate(of: code, day: day), direction: .unitsPerPivot))
                    }
                }
                return quotes.isEmpty ? nil : ProviderPublication(day: day, quotes: quotes)
            }.compactMap { $0 }
        }
    }
}
