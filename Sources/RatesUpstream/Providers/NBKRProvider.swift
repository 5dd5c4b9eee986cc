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
///   which the weekly table still lists beside `BYN` with a figure that is not the new rouble's.
/// - Schedule: Kyrgyz working days (Asia/Bishkek), looked for from 14:00; a table is dated the day it
///   is in force from (Friday's daily table may be dated the weekend). The weekly table comes out
///   once a week and holds for `ValidFor` days: the source publishes in parts
///   (``RatesProvider/publishesInParts``), each table adding to its day's figures.
/// - Ranges: the files hold only the tables in force; every fetch, of the newest publication or of a
///   range, asks for both, and keeps what lies in the window. The bank's history page
///   (`index1.jsp?item=1562`, one HTML table per currency by the bank's own currency number) is not read.
public struct NBKRProvider: RatesProvider {
    public let key = "NBKR"
    public let name = "National Bank of the Kyrgyz Republic"
    public let country: String? = "KG"
    public let pivot = CurrencyCode("KGS")!
    public let rateType = "official rate"
    /// Working days, from 14:00 Bishkek time.
    public let schedule = PublicationSchedule(timeZone: "Asia/Bishkek", expectedMinute: 14 * 60)
    public let publishesInParts = true

    /// The host the `XML/` files are under, without a trailing slash.
    public let baseURL: String

    /// - Parameter baseURL: The host (`https://www.nbkr.kg` when `nil`), for a test server or a mirror.
    public init(baseURL: String? = nil) {
        self.baseURL = baseURL ?? "https://www.nbkr.kg"
    }

    /// Codes the bank still lists that name no current currency.
    static let withdrawn: Set<String> = ["BYR"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        [ProviderRequest(url: "\(baseURL)/XML/daily.xml"), ProviderRequest(url: "\(baseURL)/XML/weekly.xml")]
    }

    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let xml = ProviderXMLParsing(key)
        let root = try XMLReader.Element(parsing: body, root: "CurrencyRates")
        try xml.expectOnly(["Currency"], in: root)
        let table = try xml.attribute(root, "Name", in: "<CurrencyRates>")
        guard table == "Daily Exchange Rates" || table == "Weekly Exchange Rates" else {
            throw .unexpectedLayout(provider: key, "<CurrencyRates Name=\(UpstreamDataError.quoted(table))> is neither the daily nor the weekly table")
        }
        let day = try Day(parsing: xml.attribute(root, "Date", in: "<CurrencyRates>"), .dayMonthYear(separator: "."))
        var quotes: [PublishedQuote] = []
        for currency in root.children {
            let text = try xml.attribute(currency, "ISOCode", in: "<Currency> of \(day)")
            let code = try ProviderXMLParsing.currency(text, day: day)
            let place = "<Currency ISOCode=\"\(code)\"> of \(day)"
            let unit = try xml.unit(xml.text(currency, "Nominal", in: place), of: code, day: day)
            if currency.child("ValidFor") != nil {
                let days = try xml.text(currency, "ValidFor", in: place)
                guard !days.isEmpty, days.count <= 3, ProviderXMLParsing.isDigits(days) else {
                    throw .unexpectedLayout(provider: key, "\(place) has <ValidFor>\(UpstreamDataError.quoted(days))</ValidFor>, expected a number of days")
                }
            }
            let value = try ProviderXMLParsing.rate(xml.text(currency, "Value", in: place), currency: code, day: day)
            guard code != pivot, !Self.withdrawn.contains(text) else { continue }
            quotes.append(PublishedQuote(currency: code, value: value, unit: unit, direction: .pivotPerUnits))
        }
        return try ProviderValidation.validate([ProviderPublication(day: day, quotes: quotes)])
    }
}
