import Foundation
import RatesCore

/// The Reserve Bank of Fiji's daily mid rates: 7 currencies and the SDR per Fiji dollar.
///
/// - Source: the page `https://www.rbf.gov.fj/statistics/economic-and-financial-statistics/` links the current workbook of table 8.8
///   (`/wp-content/uploads/2026/05/8.8-Exchange-Rates-Daily-9.xlsx`: its path changes with each upload), an Excel workbook (read with
///   ``XLSXWorkbook``). Its sheet `Exchange Rates`: `DAILY EXCHANGE RATES`, `(RBF Mid-Rate Per Fiji Dollar)`, a header row `Period`, `SDR`, `STG`,
///   `YEN`, `CHF`, `A$`, `NZ$`, `US$`, `EURO`, then one row per day since 2001: its date an Excel date serial, then the figures. Other sheets (an
///   empty `Sheet1`) are not read.
/// - Quote convention: units of the currency per 1 FJD (0.4497 USD, 71.35 JPY): ``RatesCore/PublishedQuote/Direction/unitsPerPivot``, unit 1. The
///   header names currencies by the bank's labels: ``currencies`` maps each to its code (`STG` is GBP, `SDR` the IMF's special drawing right, XDR); a
///   label not in it rejects the file. An empty cell is a day without that figure. Figures, stored as doubles, are read as ``XLSXCell/decimalText``
///   says (`0.44969999999999999` is `0.4497`).
/// - Schedule: Pacific/Fiji, Monday to Friday; the day's rates are in the workbook by about 14:00.
/// - Ranges: the one workbook holds every day since 2001-01-02, for the newest publication and any range; its days are kept from it. A fetch first
///   reads the page for the workbook's address (``sessionRequest(for:)``); without the page (`rates-relay import`), the request is the workbook at
///   the address the page gave when the adapter was written (``lastKnownPath``).
public struct RBFProvider: LinkedFileProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    static let indexPath = "/statistics/economic-and-financial-statistics/"
    /// Where the page linked the workbook in May 2026.
    static let lastKnownPath = "/wp-content/uploads/2026/05/8.8-Exchange-Rates-Daily-9.xlsx"
    static let linkedFiles = "daily exchange rate workbooks (…Exchange-Rates-Daily….xlsx)"

    static func isLinkedFile(_ link: HTMLLinks.Link) -> Bool { link.href.hasSuffix(".xlsx") && link.href.contains("Exchange-Rates-Daily") }

    /// The currencies by the header's labels.
    static let currencies = ["SDR": "XDR", "STG": "GBP", "YEN": "JPY", "CHF": "CHF", "A$": "AUD", "NZ$": "NZD", "US$": "USD", "EURO": "EUR"]

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let workbook = try XLSXWorkbook(body)
        guard let sheet = try workbook.sheet(named: "Exchange Rates") else { throw .layout("the workbook has no sheet Exchange Rates") }
        func trimmed(_ cell: XLSXCell?) -> String? { cell?.text?.trimmingCharacters(in: .whitespaces) }
        guard sheet.rows.prefix(3).contains(where: { trimmed($0[0]) == "(RBF Mid-Rate Per Fiji Dollar)" }) else {
            throw .layout("the sheet does not say (RBF Mid-Rate Per Fiji Dollar) above its table")
        }
        guard let header = sheet.rows.firstIndex(where: { trimmed($0[0]) == "Period" }) else { throw .layout("no header row Period, currencies") }
        var currencies: [Int: CurrencyCode] = [:]
        for cell in sheet.rows[header].cells where cell.column > 0 {
            let label = trimmed(cell) ?? "\(cell.value)"
            guard let code = Self.currencies[label].flatMap(CurrencyCode.init) else {
                throw .layout("header \(cell.reference) names \(UpstreamDataError.quoted(label)), not a currency the adapter knows")
            }
            currencies[cell.column] = code
        }
        return try sheet.rows[(header + 1)...].map { row throws(UpstreamDataError) -> ProviderPublication? in
            guard let serial = row[0]?.number else { throw .layout("row \(row.number) has no date") }
            let day = try workbook.day(serial: serial)
            let quotes = try row.cells.filter { $0.column > 0 }.map { cell throws(UpstreamDataError) in
                guard let code = currencies[cell.column] else { throw .layout("\(cell.reference) holds a value in a column without a currency") }
                return PublishedQuote(currency: code, value: try cell.rate(of: code, day: day), direction: .unitsPerPivot)
            }
            return quotes.isEmpty ? nil : ProviderPublication(day: day, quotes: quotes)
        }.compactMap { $0 }
    }
}
