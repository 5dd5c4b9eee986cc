import Foundation
import RatesCore

/// The Bank of Albania's official exchange rates of the lek, from its yearly archive workbooks: 13 currencies.
///
/// - Source: the page `https://www.bankofalbania.org/Markets/Official_exchange_rate/Exchage_rate_archive/`
///   links one workbook per year (`Exchange rate 2024` → `/rc/doc/Kursi_i_kembimit_2024_29746.xlsx`), an
///   Excel workbook (read with ``XLSXWorkbook``) of one sheet per month (`Janar` … `Dhjetor`). Each sheet:
///   a header row of days (`DT. 03.01.2024`, also written `DT.08.01.2024` or `DT 11.01.2024`), each day
///   over two columns, `Kursi kundrejt një USD` (the rate against the dollar) and `Lek për njësi të monedhës
///   së huaj (sipas fix.)` (lek per unit, the fixing), then the month's average (`KURSI MESATAR`); below,
///   one row per currency: a number in column A, its name in B (`Dollari Amerikan (USD)`). A sheet without a
///   row of days (a `Sheet1`, a chart, a yearly summary) is not a month's and is passed over; a workbook
///   without any month's sheet is rejected.
/// - Quote convention: the lek column of each day, lek per unit of the currency (94.4 ALL per USD; per 100
///   for `Jeni Japonez (per 100) (JPY)`): ``RatesCore/PublishedQuote/Direction/pivotPerUnits``. The code is
///   the name's last word or the one in its last parentheses; the euro's row, named without a code, is
///   `E U R O` (also read as `EURO` or `Euro`, spaces and case aside), `SDR` the IMF's special drawing right,
///   XDR (a name with `Drawing` in it is the SDR too). Skipped: gold and silver (a name starting `Ari` or
///   `Argjend`: `Ari (oz)`, `Argjendi (oz)`, metals, not currencies),
///   the columns against
///   the dollar, the monthly average and the sheet's working area right of it (old rates and sums the bank
///   keeps there). Figures are stored as doubles and read as ``XLSXCell/decimalText`` says
///   (`66.150000000000006` is `66.15`).
/// - Schedule: Europe/Tirane, working days; the fixing is set from the quotes of 11:30–12:00 and out by
///   about 12:15. A year's workbook is in the archive after the year ends: this adapter gives the days of
///   the archived years, not the current year's.
/// - Ranges: one request per year of the range that the archive page links (``sessionRequest(for:)``);
///   the newest publication is the newest year's workbook. Without the page (`rates-relay import`), the
///   request is the workbook the page linked for 2025 when the adapter was written (``lastKnownPath``).
public struct BSHProvider: IndexPageProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The page that links the yearly workbooks.
    static let indexPath = "/Markets/Official_exchange_rate/Exchage_rate_archive/"
    /// Where the archive page linked the 2025 workbook in May 2026.
    static let lastKnownPath = "/rc/doc/Kursi_i_kembimit_dhjetor_2025_32487.xlsx"

    /// Codes in the names that are not the code of the row's currency.
    static let codes: [String: String] = ["SDR": "XDR"]

    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        // `Exchange rate 2024` → its workbook, by year.
        var workbooks: [Int: String] = [:]
        for link in HTMLLinks.links(in: session.text) where link.href.lowercased().hasSuffix(".xlsx") {
            let words = link.text.replacingOccurrences(of: "&nbsp;", with: " ").split(separator: " ")
            guard words.count == 3, words[0] == "Exchange", words[1] == "rate", let year = Int(words[2]), words[2].count == 4 else { continue }
            guard let url = HTMLLinks.url(link.href, site: identity.baseURL, base: baseURL) else { continue }
            guard workbooks[year] == nil || workbooks[year] == url else {
                throw .layout("the archive page links two workbooks for \(year)")
            }
            workbooks[year] = url
        }
        guard let newest = workbooks.keys.max() else {
            throw .layout("the archive page links no yearly workbook (Exchange rate YYYY)")
        }
        return window.requests(latest: [ProviderRequest(url: workbooks[newest]!, subject: String(newest))]) { first, last in
            (first.parts.year...last.parts.year).compactMap { year in
                workbooks[year].map { ProviderRequest(url: $0, subject: String(year)) }
            }
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        // One list of days per month's sheet; a sheet that is not a month's gives none.
        let months = try XLSXWorkbook(body).everySheet { sheet throws(UpstreamDataError) in
            try read(sheet).map { [$0] } ?? []
        }
        guard !months.isEmpty else { throw .layout("no sheet has a row of days (DT. dd.mm.yyyy)") }
        return months.flatMap { $0 }
    }

    /// The days of one month's sheet; `nil` for a sheet without a row of days (not a month's).
    private func read(_ sheet: XLSXSheet) throws(UpstreamDataError) -> [ProviderPublication]? {
        func layout(_ text: String) -> UpstreamDataError { .layout("sheet \(sheet.name): \(text)") }
        // The header: days up to the average.
        guard let header = sheet.rows.firstIndex(where: { row in row.cells.contains { $0.words?.hasPrefix("DT") == true } }) else {
            return nil
        }
        var days: [(column: Int, day: Day)] = []
        for cell in sheet.rows[header].cells where cell.column > 1 {
            guard let text = cell.words, !text.isEmpty else { continue }
            if text.contains("MESATAR") { break }
            guard text.hasPrefix("DT") else { throw layout("\(cell.reference) is \(UpstreamDataError.quoted(text)), not a day") }
            let date = text.dropFirst(2).drop { $0 == "." || $0 == " " }
            days.append((cell.column, try Day(parsing: date, .dayMonthYear(separator: "."))))
        }
        guard sheet.rows[header].cells.contains(where: { $0.words?.contains("MESATAR") == true }) else {
            throw layout("the row of days does not end with the average (KURSI MESATAR)")
        }
        // Each day's lek column is the one after its date, titled `Lek për njësi …` above the currencies.
        let titles = sheet.rows[(header + 1)...].prefix { $0[0]?.number == nil || $0[1]?.text == nil }
        for (column, day) in days where !titles.contains(where: { $0[column + 1]?.words?.hasPrefix("Lek") == true }) {
            throw layout("the day \(day) has no column of lek per unit after it")
        }

        var quotes: [Day: [PublishedQuote]] = [:]
        var started = false
        for row in sheet.rows[(header + 1)...] {
            guard let label = row[1]?.words, row[0]?.number != nil else {
                if started { break }
                continue
            }
            started = true
            guard let (code, unit) = try currency(label, in: sheet) else { continue }
            for (column, day) in days {
                guard let cell = row[column + 1] else { continue }
                let value = try cell.rate(of: code, day: day)
                quotes[day, default: []].append(PublishedQuote(currency: code, value: value, unit: unit, direction: .pivotPerUnits))
            }
        }
        return quotes.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }

    /// The currency and unit a row's name gives (`Jeni Japonez (per 100) (JPY)` → JPY per 100); `nil` for a row skipped.
    private func currency(_ label: String, in sheet: XLSXSheet) throws(UpstreamDataError) -> (CurrencyCode, Int)? {
        let first = label.prefix { $0.isLetter }.lowercased()
        if first == "ari" || first.hasPrefix("argjend") { return nil }  // gold, silver
        if label.filter({ !$0.isWhitespace }).lowercased() == "euro" { return (CurrencyCode("EUR")!, 1) }
        if label.lowercased().contains("drawing") { return (CurrencyCode("XDR")!, 1) }
        var unit = 1
        if let per = label.range(of: "(per ") {
            let digits = label[per.upperBound...].prefix { $0 != ")" }
            unit = try PublishedText.unit(String(digits), of: CurrencyCode("XXX")!, day: ProviderValidation.firstDay)
        }
        let written = label.split(separator: " ").last.map { $0.trimmingCharacters(in: ["(", ")"]) } ?? ""
        guard let code = CurrencyCode(Self.codes[written] ?? written) else {
            throw .layout("sheet \(sheet.name): the row \(UpstreamDataError.quoted(label)) names no currency code")
        }
        return (code, unit)
    }
}
