import RatesCore

/// The State Bank of Pakistan's daily average of the banks' floating exchange rates: about 23 currencies in rupees.
///
/// - Source: two Excel workbooks (XLSX, read with ``XLSXWorkbook``) of one sheet each, the same layout:
///   `https://www.sbp.org.pk/assets/document/BFER_Daily.xlsx`, the current month (`April,2026`), and
///   `…/BFER_Daily_Arch.xlsx`, every day since 2013-07-02. Above the table, `Pak Rupees per Currency Unit`;
///   the header row is `Country` (or `Country / Monetary Union`), `Currency`, then one column per day, its
///   date an Excel date serial; below it one row per currency (`Australia`, `Australian Dollar`,
///   `192.929678`, …), then the contact lines.
/// - Quote convention: rupees for one unit of the currency (279.35178571428565 PKR per USD, 1.75926 PKR per JPY):
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``, unit 1. The sheet names currencies, not codes:
///   ``currencies`` maps each name the two files use (their spellings differ: `Japnese Yen` and
///   `Japanese Yen`, `Thai Bhat` and `Thai Baht`) to its ISO code; a name not in it rejects the file.
///   The figures are averages the bank computed, stored as doubles: read as ``XLSXCell/decimalText``
///   says (`192.04911000000001` is `192.04911`). An empty cell is a day without that currency's figure.
/// - Schedule: Asia/Karachi. The files are updated once a month, in its second half (the bank's
///   own window, polled from the 15th to the 28th); the monthly cadence's expected day is the first
///   working day of the month. A day's column is the average of that business day's rates.
/// - Ranges: the newest publication is the current month's file; a range is the archive file, which
///   holds every day (755 kB). Neither takes dates: the days of the range are kept from them.
public struct SBPProvider: RatesProvider {
    public let key = "SBP"
    public let name = "State Bank of Pakistan"
    public let country: String? = "PK"
    public let pivot = CurrencyCode("PKR")!
    public let rateType = "daily average banks' floating rate"
    /// Monthly, from the middle of the month (the bank's window opens on the 15th, 10:00 Karachi time).
    public let schedule = PublicationSchedule(timeZone: "Asia/Karachi", expectedMinute: 10 * 60, cadence: .monthly)

    /// The directory of the two files, without a trailing slash.
    public let baseURL: String

    /// - Parameter baseURL: The directory of the files (`https://www.sbp.org.pk/assets/document` when `nil`).
    public init(baseURL: String? = nil) {
        self.baseURL = baseURL ?? "https://www.sbp.org.pk/assets/document"
    }

    /// The currencies by the names the sheets give them, as the bank spells them.
    static let currencies: [String: String] = [
        "Australian Dollar": "AUD", "Bahraini Dinar": "BHD", "Canadian Dollar": "CAD", "Chinese Yuan": "CNY",
        "Danish Krone": "DKK", "Hong Kong Dollar": "HKD", "Hongkong Dollar": "HKD", "Japanese Yen": "JPY", "Japnese Yen": "JPY",
        "Kuwaiti Dinar": "KWD", "Malaysian Ringgit": "MYR", "New Zealand Dollar": "NZD", "Norwegian Krone": "NOK",
        "Omani Riyal": "OMR", "Qatari Riyal": "QAR", "Singapore Dollar": "SGD", "Singaporian Dollar": "SGD",
        "Swedish Krona": "SEK", "Swedish Krone": "SEK", "Swiss Franc": "CHF", "Saudi Arabian Riyal": "SAR",
        "Thai Baht": "THB", "Thai Bhat": "THB", "Turkish Lira": "TRY", "UAE Dirham": "AED", "U.A.E. Dirham": "AED",
        "UK Pound Sterling": "GBP", "U.K. Pound Sterling": "GBP", "U.S. Dollar": "USD", "Euro": "EUR",
    ]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        switch window {
        case .latest: return [ProviderRequest(url: baseURL + "/BFER_Daily.xlsx")]
        case .range(let first, let last): return first > last ? [] : [ProviderRequest(url: baseURL + "/BFER_Daily_Arch.xlsx")]
        }
    }

    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let workbook = try XLSXWorkbook(body, provider: key)
        guard workbook.sheets.count == 1 else {
            throw .unexpectedLayout(provider: key, "the workbook has \(workbook.sheets.count) sheets, expected one")
        }
        let sheet = try workbook.sheet(workbook.sheets[0])
        func text(_ cell: XLSXCell?) -> String? { cell?.text.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") } }
        guard let header = sheet.rows.firstIndex(where: { text($0[0])?.hasPrefix("Country") == true && text($0[1]) == "Currency" }) else {
            throw .unexpectedLayout(provider: key, "no header row Country, Currency, days")
        }
        guard sheet.rows[..<header].contains(where: { text($0[0]) == "Pak Rupees per Currency Unit" }) else {
            throw .unexpectedLayout(provider: key, "the sheet does not say Pak Rupees per Currency Unit above its table")
        }
        // The days, by column.
        var days: [Int: Day] = [:]
        for cell in sheet.rows[header].cells where cell.column >= 2 {
            guard let serial = cell.number else {
                throw .unexpectedLayout(provider: key, "header cell \(cell.reference) is not a date")
            }
            let day = try workbook.day(serial: serial)
            guard !days.values.contains(day) else { throw .duplicateDay(day) }
            days[cell.column] = day
        }
        guard !days.isEmpty else { throw .empty }
        var quotes: [Day: [PublishedQuote]] = [:]
        var seen = Set<CurrencyCode>()
        // The table ends at the first row without a currency name, or at an empty row.
        var ended = false
        var previous = sheet.rows[header].number
        for row in sheet.rows[(header + 1)...] {
            if row.number != previous + 1 { ended = true }
            previous = row.number
            guard !ended, let name = text(row[1]) else {
                ended = true
                if let number = row.cells.first(where: { $0.number != nil }) {
                    throw .unexpectedLayout(provider: key, "a number in \(number.reference), below the end of the table")
                }
                continue
            }
            guard let code = Self.currencies[name].flatMap(CurrencyCode.init) else {
                throw .unexpectedLayout(provider: key, "row \(row.number) names the currency \(UpstreamDataError.quoted(name)), which the adapter does not know")
            }
            guard seen.insert(code).inserted else { throw .duplicateCurrency(code, day: days.values.min()!) }
            for cell in row.cells where cell.column >= 2 {
                guard let day = days[cell.column] else {
                    throw .unexpectedLayout(provider: key, "\(cell.reference) holds a value in a column without a date")
                }
                guard let decimal = cell.decimalText else { throw .invalidRate(currency: code, day: day, text: cell.text ?? "\(cell.value)") }
                let value = try ProviderXMLParsing.rate(decimal, currency: code, day: day)
                quotes[day, default: []].append(PublishedQuote(currency: code, value: value, direction: .pivotPerUnits))
            }
        }
        return try ProviderValidation.validate(quotes.map { ProviderPublication(day: $0.key, quotes: $0.value) })
    }
}
