import RatesCore

/// The Bank of Algeria's daily reference rates of the dinar: 17 currencies, from a workbook updated monthly.
///
/// - Source: the page `https://www.bank-of-algeria.dz/donnees-historiques/` links the current workbook
///   (`/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx`: its path changes with each update), an Excel workbook (read with ``XLSXWorkbook``)
///   of one sheet per currency (`AED - DZD`, `EURO - DZD`, …). Each sheet: cell A2 titles it (`AED / DZD`, `100 JPY / DZD`), cell B4 names the column
///   (`JPY / DZD`), and below, one row per day since 2000: its date an Excel date serial in column A, the figure in B.
/// - Quote convention: dinars for the title's number of units (1 unless it says, as `100 JPY` does):
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. The title writes the euro `EURO`, every other title and column name an ISO code; the two
///   must agree. A sheet without figures (`MRO - DZD`: MRU replaced the ouguiya in 2018) contributes nothing; an empty cell is a day without that
///   currency's figure. Figures, stored as doubles, are read as ``XLSXCell/decimalText`` says (`132.72749999999999` is `132.7275`).
/// - Schedule: Africa/Algiers. The workbook is replaced about once a month (the bank's window is 13:00–15:00 Algiers time on working days) and then
///   holds the days through the previous month's end; the monthly cadence's expected day is the first working day of the month.
/// - Ranges: the one workbook holds every day since 2000-01-03, for the newest publication and any range; its days are kept from it. A fetch first
///   reads the page for the workbook's address (``sessionRequest(for:)``); without the page (`rates-relay import`), the request is the workbook at
///   the address the page gave when the adapter was written (``lastKnownPath``).
public struct BOAProvider: LinkedFileProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    static let indexPath = "/donnees-historiques/"
    /// Where the page linked the workbook in May 2026.
    static let lastKnownPath = "/stoodroa/2026/05/Cotation-DZD-2000-2026-journalier.xlsx"
    static let linkedFiles = "daily workbooks (Cotation-DZD-…-journalier.xlsx)"

    static func isLinkedFile(_ link: HTMLLinks.Link) -> Bool {
        link.href.hasSuffix(".xlsx") && link.href.contains("Cotation-DZD") && link.href.contains("journalier")
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let workbook = try XLSXWorkbook(body)
        let rows = try workbook.everySheet { sheet throws(UpstreamDataError) -> [(day: Day, quote: PublishedQuote)] in
            func layout(_ text: String) -> UpstreamDataError { .layout("sheet \(sheet.name): \(text)") }
            // `100 JPY / DZD`: the unit, the currency, the pivot.
            let title = (sheet["A2"]?.text ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
            let column = (sheet["B4"]?.text ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
            guard [3, 4].contains(title.count), title.suffix(2) == ["/", "DZD"], column.count == 3, column.suffix(2) == ["/", "DZD"] else {
                throw layout("A2 and B4 do not title the sheet as <currency> / DZD")
            }
            let name = title[title.count - 3]
            guard let code = CurrencyCode(name == "EURO" ? "EUR" : name), code.rawValue == column[0] else {
                throw layout("A2 names \(UpstreamDataError.quoted(name)) and B4 \(UpstreamDataError.quoted(column[0])): not one currency code")
            }
            let unit = title.count == 4 ? try PublishedText.unit(title[0], of: code, day: ProviderValidation.firstDay) : 1
            var dated: [(day: Day, quote: PublishedQuote)] = []
            for row in sheet.rows where row.number > 4 {
                guard let serial = row[0]?.number, row.cells.allSatisfy({ $0.column <= 1 }) else {
                    throw layout("row \(row.number) is not a date and a figure")
                }
                let day = try workbook.day(serial: serial)
                guard let cell = row[1] else { continue }
                dated.append((day, PublishedQuote(currency: code, value: try cell.rate(of: code, day: day), unit: unit, direction: .pivotPerUnits)))
            }
            return dated
        }
        return ProviderPublication.byDay(rows)
    }
}
