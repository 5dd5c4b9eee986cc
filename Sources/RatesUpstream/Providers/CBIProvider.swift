import Foundation
import RatesCore

/// The Central Bank of Iraq's daily buying and selling rates of the dinar: about 19 currencies, as their midpoints.
///
/// - Source: the page `https://cbi.iq/page/144` links three workbooks; the one whose link mentions gold
///   (`الذهب`: "daily exchange rates of the Iraqi dinar against the main currencies and gold") is read
///   (`/static/uploads/up/file-177909880482668.xlsx`: its name changes with each upload). It is an Excel
///   workbook (read with ``XLSXWorkbook``) of one sheet per year since 2009 (`2009` … `2026`). Each sheet:
///   a header naming each currency (`الدولار الأمريكي USD`, or the code alone on the row below, `USD`,
///   `S.FR`) somewhere over its columns, a row of `Buy` and `Sell` columns under each (and, since 2025, a
///   second `Sell … 2`), then one block per month: a label, a row per day of the month (its number in
///   column A), and an `Average` row (any letter case). The labels are written many ways over the years
///   (`Jan. 2024`, `Feb.2026`, `July  2009`, `jun. 2013`, `Sept.2025`, `Spet.2016`, `*Mar. 2020`): a month's
///   English name or abbreviation (``HTMLText/month(_:)``, and the sheets' `Spet`), an optional `*` before it,
///   `.`, `,` or spaces, then the sheet's year. A currency's label is looked for over its columns, from its
///   `Buy` column to the column before the next `Buy` (the labels drift over the `Sell` columns).
/// - Quote convention: dinars for one unit of the currency. The bank publishes buying and selling rates
///   only; the figure is their exact midpoint (``RatesCore/RateText/midpoint(_:_:)``: `1300` and `1310`
///   give `1305`): ``RatesCore/PublishedQuote/Direction/pivotPerUnits``, unit 1. The second selling rate is
///   not read. Codes are the header's last three capitals; `S.FR` is CHF, `UAE` AED, `SDR` the IMF's special
///   drawing right, XDR. Skipped: gold (a metal, not a currency); a currency's columns that hold no figure in
///   the sheet when its label names no code (QAR's are empty in 2026); columns with figures under such a
///   label reject the workbook; a currency on a day unless both its buying and selling cells hold
///   numbers (holidays carry a note in text instead, and a lone figure has no midpoint); days without
///   figures (weekends, holidays), the averages, and rows of text without figures (the notes under a
///   year's table: `Note :`, `*Comment : …`). The first block of the 2026
///   sheet is labelled with the year alone: a row holding only the sheet's year, before any month's label,
///   starts January. Figures are stored as doubles and read as ``XLSXCell/decimalText`` says.
/// - Schedule: Asia/Baghdad, Sunday to Thursday; the day's rates are in the workbook by about 13:00.
/// - Ranges: the one workbook holds every year, for the newest publication and any range; its days are
///   kept from it. A fetch first reads the page for the workbook's address (``sessionRequest(for:)``);
///   without the page (`rates-relay import`), the request is the workbook at the address the page gave
///   when the adapter was written (``lastKnownPath``).
public struct CBIProvider: LinkedFileProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The page that links the current workbook.
    static let indexPath = "/page/144"
    /// Where the page linked the workbook in May 2026.
    static let lastKnownPath = "/static/uploads/up/file-177909880482668.xlsx"
    /// "Gold": only the multi-currency daily workbook's link mentions it.
    static let goldMarker = "الذهب"
    /// The workbooks ``isLinkedFile(_:)`` picks, in words.
    static let linkedFiles = "workbooks of rates against the main currencies and gold"

    /// Whether a link of the page is to the workbook.
    static func isLinkedFile(_ link: HTMLLinks.Link) -> Bool {
        link.href.hasSuffix(".xlsx") && link.text.contains(Self.goldMarker)
    }

    /// Labels that are not the currency's ISO code; `nil` for a column not read (gold).
    static let aliases: [String: String?] = ["S.FR": "CHF", "UAE": "AED", "SDR": "XDR", "Gold": nil]

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        try XLSXWorkbook(body).everySheet { sheet throws(UpstreamDataError) in
            guard let year = Int(sheet.name.trimmingCharacters(in: .whitespaces)), (2000...2100).contains(year) else {
                throw .layout("sheet \(sheet.name) is not named for a year")
            }
            return try read(sheet, year: year)
        }
    }

    /// One currency's columns: buying and selling rate.
    private struct Group {
        var code: CurrencyCode
        var buy: Int
        var sell: Int
    }

    /// The days of one year's sheet (an empty sheet has none).
    private func read(_ sheet: XLSXSheet, year: Int) throws(UpstreamDataError) -> [ProviderPublication] {
        func layout(_ text: String) -> UpstreamDataError { .layout("sheet \(sheet.name): \(text)") }
        guard let header = sheet.rows.firstIndex(where: { row in row.cells.contains { $0.words?.hasPrefix("Buy") == true } }) else {
            guard sheet.rows.isEmpty else { throw layout("no row of Buy and Sell columns") }
            return []
        }
        // Each `Buy` column, the first `Sell` column after it (not `Sell … 2`), and the code above them.
        let labels = sheet.rows[header].cells
        var groups: [Group] = []
        let buys = labels.filter { $0.words?.hasPrefix("Buy") == true }
        for (index, buy) in buys.enumerated() {
            guard let sell = labels.first(where: { $0.column > buy.column && $0.words?.hasPrefix("Sell") == true }),
                sell.words?.hasSuffix("2") == false, sell.column == buy.column + 1
            else { throw layout("\(buy.reference) has no Sell column beside it") }
            // The currency's columns: up to the next Buy column, or for the last, its Sell columns.
            let second = labels.first { $0.column == sell.column + 1 && $0.words?.hasPrefix("Sell") == true }
            let end = index + 1 < buys.count ? buys[index + 1].column - 1 : second?.column ?? sell.column
            var found: [String?] = []
            for row in sheet.rows[..<header] {
                for cell in row.cells where (buy.column...end).contains(cell.column) {
                    guard let text = cell.words, let code = Self.code(in: text), !found.contains(code) else { continue }
                    found.append(code)
                }
            }
            if found.isEmpty, !sheet.rows[(header + 1)...].contains(where: { $0[buy.column]?.number != nil || $0[sell.column]?.number != nil }) {
                continue  // columns without a currency's label nor figures
            }
            guard found.count == 1 else {
                throw layout("the Buy and Sell columns at \(buy.reference) are titled with \(found.count) currencies, expected one")
            }
            guard let code = found[0] else { continue }  // gold
            guard let currency = CurrencyCode(code) else { throw layout("\(UpstreamDataError.quoted(code)) above \(buy.reference) is not a currency code") }
            groups.append(Group(code: currency, buy: buy.column, sell: sell.column))
        }
        guard !groups.isEmpty else { throw layout("no currency's Buy and Sell columns") }

        var month: Int?
        var publications: [ProviderPublication] = []
        func readDay(_ row: XLSXRow, number: Int) throws(UpstreamDataError) {
            var quotes: [PublishedQuote] = []
            var date: Day?
            for group in groups {
                guard let buy = row[group.buy]?.decimalText, let sell = row[group.sell]?.decimalText else { continue }
                guard let month else { throw layout("row \(row.number) comes before any month's label") }
                guard let day = date ?? Day(year: year, month: month, day: number) else {
                    throw .invalidDay(String(format: "%04d-%02d-%02d", year, month, number))
                }
                date = day
                quotes.append(try PublishedQuote.midpoint(buying: buy, selling: sell, of: group.code, direction: .pivotPerUnits, day: day))
            }
            if let date, !quotes.isEmpty { publications.append(ProviderPublication(day: date, quotes: quotes)) }
        }
        for row in sheet.rows[(header + 1)...] {
            guard let first = row[0] else { continue }
            if let label = first.words {
                if let number = Int(label), (1...31).contains(number) {
                    try readDay(row, number: number)
                } else if label.lowercased() != "average" {
                    if let named = Self.month(label, year: year) {
                        month = named
                    } else if groups.contains(where: { row[$0.buy]?.number != nil || row[$0.sell]?.number != nil }) {
                        throw layout("row \(row.number) is labelled \(UpstreamDataError.quoted(label))")
                    }
                    // Otherwise a note under the table: no figures.
                }
            } else if let number = first.number {
                if let day = Int(number), (1...31).contains(day) {
                    try readDay(row, number: day)
                } else if number == String(year), row.cells.count == 1, month == nil {
                    month = 1
                } else {
                    throw layout("\(first.reference) holds \(number), not a day of the month")
                }
            }
        }
        return publications
    }

    /// The currency a header's text names: its last word of three capitals, or an alias (`S.FR`, `Gold`);
    /// `.some(nil)` for a column not read; `nil` when it names none.
    static func code(in text: String) -> String?? {
        if let alias = aliases[text] { return .some(alias) }
        guard let last = text.split(separator: " ").last else { return nil }
        if let alias = aliases[String(last)] { return .some(alias) }
        guard last.count == 3, last.allSatisfy({ $0.isASCII && $0.isUppercase }) else { return nil }
        return .some(String(last))
    }

    /// The month a block's label names (`Jan. 2024`, `Feb.2026`, `July  2009`, `Sept.2025`, `Spet.2016`, `*Mar. 2020`) in `year`;
    /// `nil` for any other text.
    static func month(_ label: String, year: Int) -> Int? {
        let text = label.drop { $0 == "*" || $0 == " " }
        let name = text.prefix { $0.isLetter }
        guard let number = HTMLText.month(name) ?? (name.lowercased() == "spet" ? 9 : nil) else { return nil }
        let rest = text.dropFirst(name.count).drop { $0 == "." || $0 == "," || $0 == " " }
        return rest == String(year) ? number : nil
    }
}
