import RatesCore

/// The State Bank of Pakistan's daily average of the banks' floating exchange rates: about 23 currencies in rupees.
///
/// - Source: two Excel workbooks (XLSX, read with ``XLSXWorkbook``), the same layout on the one sheet that
///   has the table (an empty spare sheet beside it is left alone; two sheets with a table reject the file):
///   `https://www.sbp.org.pk/assets/document/BFER_Daily.xlsx`, the current month (`April,2026`), and
///   `…/BFER_Daily_Arch.xlsx`, every day since 2013-07-02. Above the table, `Pak Rupees per Currency Unit`;
///   the header row is `Country` (or `Country / Monetary Union`), `Currency`, then one column per day, its
///   date an Excel date serial; below it one row per currency (`Australia`, `Australian Dollar`,
///   `192.929678`, …), then the contact lines.
/// - Quote convention: rupees for one unit of the currency (279.35178571428565 PKR per USD, 1.75926 PKR per JPY):
///   ``RatesCore/PublishedQuote/Direction/pivotPerUnits``, unit 1. The sheet names currencies, not codes,
///   and the files are retyped by hand: the names are compared by their letters alone, whatever the case,
///   spaces and points (`Hongkong Dollar` is `Hong Kong Dollar`, `UAE Dirham` is `U.A.E. Dirham`).
///   ``currencies`` holds each spelling the files use (`Japnese Yen` and `Japanese Yen`, `Thai Bhat` and
///   `Thai Baht`); a name that is itself an ISO 4217 code is that code; any other is known by its country in
///   column A (``countries``: `Japan`, `Hong kong`, `U.A.E.`). A row known by neither is left out.
///   The figures are averages the bank computed, stored as doubles: read as ``XLSXCell/decimalText``
///   says (`192.04911000000001` is `192.04911`); a figure typed as text is read as its text. An empty cell,
///   or a text cell without a digit (`-`, `n.a.`), is a day without that currency's figure; text with digits
///   that is no decimal rejects the file.
/// - Schedule: Asia/Karachi. The files are updated once a month, in its second half (the bank's
///   own window, polled from the 15th to the 28th); the monthly cadence's expected day is the first
///   working day of the month. A day's column is the average of that business day's rates.
/// - Ranges: the newest publication is the current month's file; a range is the archive file, which
///   holds every day (755 kB). Neither takes dates: the days of the range are kept from them.
public struct SBPProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The currencies by the names the sheets give them, as the bank spells them (compared by ``letters(_:)``).
    static let currencies: [String: String] = [
        "Australian Dollar": "AUD", "Bahraini Dinar": "BHD", "Canadian Dollar": "CAD", "Chinese Yuan": "CNY",
        "Danish Krone": "DKK", "Hong Kong Dollar": "HKD", "Hongkong Dollar": "HKD", "Japanese Yen": "JPY", "Japnese Yen": "JPY",
        "Kuwaiti Dinar": "KWD", "Malaysian Ringgit": "MYR", "New Zealand Dollar": "NZD", "Norwegian Krone": "NOK",
        "Omani Riyal": "OMR", "Qatari Riyal": "QAR", "Singapore Dollar": "SGD", "Singaporian Dollar": "SGD",
        "Swedish Krona": "SEK", "Swedish Krone": "SEK", "Swiss Franc": "CHF", "Saudi Arabian Riyal": "SAR",
        "Thai Baht": "THB", "Thai Bhat": "THB", "Turkish Lira": "TRY", "UAE Dirham": "AED", "U.A.E. Dirham": "AED",
        "UK Pound Sterling": "GBP", "U.K. Pound Sterling": "GBP", "U.S. Dollar": "USD", "Euro": "EUR",
    ]

    /// The currencies by the countries of column A, for a currency name the adapter does not know (compared by ``letters(_:)``).
    static let countries: [String: String] = [
        "Australia": "AUD", "Bahrain": "BHD", "Canada": "CAD", "China": "CNY", "Denmark": "DKK", "EMU": "EUR", "Euro Area": "EUR",
        "Hong Kong": "HKD", "Japan": "JPY", "Kuwait": "KWD", "Malaysia": "MYR", "New Zealand": "NZD", "Norway": "NOK", "Oman": "OMR",
        "Qatar": "QAR", "Saudi Arabia": "SAR", "Singapore": "SGD", "Sweden": "SEK", "Switzerland": "CHF", "Thailand": "THB",
        "Turkey": "TRY", "Turkiye": "TRY", "U.A.E.": "AED", "U.K.": "GBP", "United Kingdom": "GBP", "U.S.A.": "USD",
    ]

    /// A name's letters, lower case: what two spellings of one name share (`U.A.E. Dirham` and `UAE Dirham`).
    static func letters(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic }.map(Character.init))
    }

    static let currenciesByLetters = Dictionary(currencies.map { (letters($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    static let countriesByLetters = Dictionary(countries.map { (letters($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })

    /// The currency of a row named `name` in column B and `country` in column A; `nil` when neither says.
    public static func currency(name: String, country: String?) -> CurrencyCode? {
        if let code = currenciesByLetters[letters(name)] { return CurrencyCode(code) }
        if let code = CurrencyCode(name), code.name != nil { return code }
        return country.flatMap { countriesByLetters[letters($0)] }.flatMap(CurrencyCode.init)
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: baseURL + "/BFER_Daily.xlsx")]) { _, _ in
            [ProviderRequest(url: baseURL + "/BFER_Daily_Arch.xlsx")]
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let workbook = try XLSXWorkbook(body)
        let tables = try workbook.everySheet { sheet throws(UpstreamDataError) -> [(sheet: XLSXSheet, header: Int)] in
            let header = sheet.rows.firstIndex(where: { $0[0]?.words?.hasPrefix("Country") == true && $0[1]?.words == "Currency" })
            return header.map { [(sheet, $0)] } ?? []
        }
        guard tables.count == 1, case let (sheet, header)? = tables.first else {
            throw .layout(tables.isEmpty ? "no header row Country, Currency, days" : "\(tables.count) sheets hold a table")
        }
        guard sheet.rows[..<header].contains(where: { $0[0]?.words == "Pak Rupees per Currency Unit" }) else {
            throw .layout("the sheet does not say Pak Rupees per Currency Unit above its table")
        }
        var days: [Int: Day] = [:]
        for cell in sheet.rows[header].cells where cell.column >= 2 {
            guard let serial = cell.number else {
                throw .layout("header cell \(cell.reference) is not a date")
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
            guard !ended, let name = row[1]?.words else {
                ended = true
                if let number = row.cells.first(where: { $0.number != nil }) {
                    throw .layout("a number in \(number.reference), below the end of the table")
                }
                continue
            }
            guard let code = Self.currency(name: name, country: row[0]?.words) else { continue }  // a currency the adapter does not know
            guard seen.insert(code).inserted else { throw .duplicateCurrency(code, day: days.values.min()!) }
            for cell in row.cells where cell.column >= 2 {
                guard let day = days[cell.column] else {
                    throw .layout("\(cell.reference) holds a value in a column without a date")
                }
                let value: String
                if let typed = cell.text {
                    guard typed.contains(where: \.isNumber) else { continue }  // "-", "n.a.": no figure that day
                    value = try PublishedText.rate(typed, currency: code, day: day)
                } else {
                    value = try cell.rate(of: code, day: day)
                }
                quotes[day, default: []].append(PublishedQuote(currency: code, value: value, direction: .pivotPerUnits))
            }
        }
        return quotes.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }
}
