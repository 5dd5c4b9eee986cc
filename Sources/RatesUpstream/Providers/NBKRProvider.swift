import Foundation
import RatesCore

/// The National Bank of the Kyrgyz Republic's official rates of the som: 5 currencies daily, about
/// 40 more weekly.
///
/// - Source: two files, each the one table in force, as XML declared windows-1251:
///   `https://www.nbkr.kg/XML/daily.xml` (`<CurrencyRates Name="Daily Exchange Rates" Date="24.05.2026">`:
///   USD, EUR, CNY, KZT and RUB) and `https://www.nbkr.kg/XML/weekly.xml`
///   (`Name="Weekly Exchange Rates"`, the other currencies), each holding one
///   `<Currency ISOCode="USD">` per currency with `<Nominal>`, in the weekly file `<ValidFor>` (days,
///   7), and `<Value>` (decimal comma).
/// - Quote convention: `Value` soms for `Nominal` units of the currency (87,4500 KGS per 1 USD;
///   per 10 JPY, AMD, HUF, IRR and IDR): ``PublishedQuote/Direction/pivotPerUnits`` with unit
///   `Nominal`. The SDR (`XDR`) is kept. Skipped: `BYR`, the Belarusian rouble withdrawn in 2016,
///   which the weekly table still lists beside `BYN` with a figure that is not the new rouble's, and a
///   currency listed with an empty `<Value>`.
/// - Schedule: Kyrgyz working days (Asia/Bishkek), looked for from 14:00; a table is dated the day it
///   is in force from (Friday's daily table may be dated the weekend). The weekly table comes out
///   once a week and holds for `ValidFor` days: the source publishes in parts
///   (``RatesProvider/publishesInParts``), each table adding to its day's figures.
/// - Ranges: the files hold only the tables in force; every fetch, of the newest publication or of a
///   range, asks for both, and keeps what lies in the window.
/// - History: the bank's history page,
///   `https://www.nbkr.kg/index1.jsp?item=1562&lang=ENG&valuta_id=15&beg_day=DD&beg_month=MM&beg_year=YYYY&end_day=…`,
///   gives one currency's rates from 1999-01-01 (``historyStart``) in an HTML table whose cells are marked by
///   comments, newest first: `<td><!--date-->25.06.2005<!--date--></td><td><!--value-->40,9614<!--value--></td>`.
///   The page names neither the currency nor its nominal: they are the bank's currency number, `valuta_id`
///   (``historyCurrencies``, the currencies of the page's own list, withdrawn ones included), which the
///   request's ``ProviderRequest/subject`` gives, or for `rates-relay import` the file's name
///   (`…valuta_id=15.html`). The fetch does not ask for it (the bank drops connections after a few dozen
///   requests), so it is read from files only.
public struct NBKRProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The currencies of the history page by the bank's number (`valuta_id`), with the nominal its figures are for.
    public static let historyCurrencies: [String: (code: CurrencyCode, nominal: Int)] = historyTable.reduce(into: [:]) {
        $0[String($1.key)] = (CurrencyCode($1.value.code)!, $1.value.nominal)
    }

    private static let historyTable: [Int: (code: String, nominal: Int)] = [
        15: ("USD", 1), 16: ("ATS", 1), 17: ("GBP", 1), 18: ("BEF", 10), 19: ("DKK", 1), 20: ("EUR", 1), 21: ("INR", 1), 22: ("ITL", 100),
        23: ("CAD", 1), 24: ("CNY", 1), 25: ("KRW", 1), 26: ("DEM", 1), 27: ("NLG", 1), 28: ("NOK", 1), 29: ("PTE", 1), 30: ("XDR", 1),
        31: ("TRL", 1000), 32: ("FIM", 1), 33: ("FRF", 1), 34: ("SEK", 1), 35: ("CHF", 1), 36: ("JPY", 10), 37: ("AZM", 1000), 38: ("AMD", 10),
        39: ("BYR", 100), 40: ("KZT", 1), 41: ("LVL", 1), 42: ("LTL", 1), 43: ("MDL", 1), 44: ("RUB", 1), 45: ("TJS", 1), 46: ("UZS", 1),
        47: ("UAH", 1), 48: ("EEK", 1), 49: ("TJR", 100), 50: ("KWD", 1), 51: ("HUF", 10), 52: ("CZK", 1), 53: ("NZD", 1), 55: ("PKR", 1),
        56: ("AUD", 1), 57: ("TRY", 1), 82: ("AZN", 1), 86: ("SGD", 1), 98: ("RUR", 1000), 99: ("AFN", 1), 100: ("BGN", 1), 101: ("BRL", 1),
        102: ("GEL", 1), 103: ("AED", 1), 104: ("IRR", 10), 105: ("MYR", 1), 106: ("MNT", 1), 107: ("TWD", 1), 108: ("TMT", 1), 109: ("PLN", 1),
        139: ("SAR", 1), 160: ("BYN", 1), 180: ("OMR", 1), 182: ("HKD", 1), 184: ("IDR", 10),
    ]

    /// Codes the bank still lists that name no current currency.
    static let withdrawn: Set<String> = ["BYR"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        [ProviderRequest(url: "\(baseURL)/XML/daily.xml"), ProviderRequest(url: "\(baseURL)/XML/weekly.xml")]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let text = String(decoding: body, as: UTF8.self)
        if text.contains(Self.dateMark) { return try parseHistory(text, valutaID: request.subject) }
        let root = try XMLReader.Element(parsing: body, root: "CurrencyRates")
        try XMLFields.expectOnly(["Currency"], in: root)
        let table = try XMLFields.attribute(root, "Name", in: "<CurrencyRates>")
        guard table == "Daily Exchange Rates" || table == "Weekly Exchange Rates" else {
            throw .layout("<CurrencyRates Name=\(UpstreamDataError.quoted(table))> is neither the daily nor the weekly table")
        }
        let day = try Day(parsing: XMLFields.attribute(root, "Date", in: "<CurrencyRates>"), .dayMonthYear(separator: "."))
        let quotes = try root.children.map { currency throws(UpstreamDataError) -> PublishedQuote? in
            let text = try XMLFields.attribute(currency, "ISOCode", in: "<Currency> of \(day)")
            let code = try PublishedText.currency(text, day: day)
            let place = "<Currency ISOCode=\"\(code)\"> of \(day)"
            let unit = try PublishedText.unit(XMLFields.text(currency, "Nominal", in: place), of: code, day: day)
            if currency.child("ValidFor") != nil {
                let days = try XMLFields.text(currency, "ValidFor", in: place)
                guard !days.isEmpty, days.count <= 3, PublishedText.isDigits(days) else {
                    throw .layout("\(place) has <ValidFor>\(UpstreamDataError.quoted(days))</ValidFor>, expected a number of days")
                }
            }
            let published = try XMLFields.text(currency, "Value", in: place)
            guard code != pivot, !Self.withdrawn.contains(text), !published.isEmpty else { return nil }
            return try PublishedQuote.reading(published, of: code, unit: unit, direction: .pivotPerUnits, day: day)
        }.compactMap { $0 }
        return [ProviderPublication(day: day, quotes: quotes)]
    }

    // MARK: - The history page

    static let dateMark = "<!--date-->"
    static let valueMark = "<!--value-->"

    /// The texts between the pairs of `mark` in `text`, in order; `nil` when a mark is left unpaired.
    static func marked(_ mark: String, in text: String) -> [Substring]? {
        let pieces = text.components(separatedBy: mark)
        guard pieces.count % 2 == 1 else { return nil }
        return stride(from: 1, to: pieces.count, by: 2).map { Substring(pieces[$0]) }
    }

    /// One currency's rows of the history page: each `<!--date-->` cell with the `<!--value-->` cell after it.
    func parseHistory(_ text: String, valutaID: String?) throws(UpstreamDataError) -> [ProviderPublication] {
        guard let valutaID else {
            throw .layout("a history page does not name its currency: its valuta_id must be given as the subject")
        }
        guard let currency = Self.historyCurrencies[valutaID] else {
            throw .layout("valuta_id \(UpstreamDataError.quoted(valutaID)) is not a currency of the history page")
        }
        guard let dates = Self.marked(Self.dateMark, in: text), let values = Self.marked(Self.valueMark, in: text), dates.count == values.count
        else { throw .layout("the history page's date and value cells do not pair up") }
        return try zip(dates, values).map { dateText, valueText throws(UpstreamDataError) in
            let day = try Day(parsing: String(dateText), .dayMonthYear(separator: "."))
            let quote = try PublishedQuote.reading(String(valueText), of: currency.code, unit: currency.nominal, direction: .pivotPerUnits, day: day)
            return ProviderPublication(day: day, quotes: [quote])
        }
    }

    /// Files as `rates-relay import` reads them: a history page named for its request (`…valuta_id=15.html`)
    /// is read as that currency's, unless subjects are given.
    public func publications(inFiles files: [URL], subjects: [String?], today: Day) throws -> [ProviderPublication] {
        let bodies = try files.map { Array(try Data(contentsOf: $0)) }
        guard subjects.isEmpty else { return try ProviderFile.read(bodies, provider: self, subjects: subjects, today: today) }
        let named: [String?] = files.map { file in
            let name = file.lastPathComponent
            guard let range = name.range(of: "valuta_id=") else { return nil }
            let digits = name[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
            return digits.isEmpty ? nil : String(digits)
        }
        return try ProviderFile.read(bodies, provider: self, subjects: named.contains { $0 != nil } ? named : [], today: today)
    }
}
