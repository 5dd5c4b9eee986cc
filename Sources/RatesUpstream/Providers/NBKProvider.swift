import RatesCore

/// The National Bank of Kazakhstan's official rates of the tenge (39 currencies and the SDR).
///
/// - Source: `https://nationalbank.kz/rss/get_rates.cfm?fdate=DD.MM.YYYY`, one day's rates as
///   RSS-like UTF-8 XML: `<rates>` with the day in `<date>01.04.2026</date>` and one `<item>` per
///   currency: `<title>` (the code), `<description>` (the rate), `<quant>` (the units).
/// - Quote convention: `description` tenge for `quant` units of the currency (10 for AMD and HUF,
///   100 for KRW and UZS, 1000 for IRR): ``PublishedQuote/Direction/pivotPerUnits``. The rates have
///   two decimals at most, so a cheap currency quoted per 1 loses precision (JPY: `3`, `2.96`).
///   `index` and `change` (the move since the day before) are not read.
/// - Schedule: Kazakh working days (Asia/Almaty, UTC+5), usually out by 15:30; the answer for a
///   day names that day in `<date>`.
/// - Latest: the rates of today in Almaty by the system clock (the endpoint needs a day).
///   Ranges: one request per Monday–Friday in the range.
public struct NBKProvider: RatesProvider {
    public let key = "NBK"
    public let name = "National Bank of Kazakhstan"
    public let country: String? = "KZ"
    public let pivot = CurrencyCode("KZT")!
    public let rateType = "official (market) rate"
    /// Working days, by 15:30 Almaty time.
    public let schedule = PublicationSchedule(timeZone: "Asia/Almaty", expectedMinute: 15 * 60 + 30)

    /// The endpoint, without a query.
    public let baseURL: String

    /// - Parameter baseURL: The endpoint (`https://nationalbank.kz/rss/get_rates.cfm` when `nil`),
    ///   for a test server or a mirror.
    public init(baseURL: String? = nil) {
        self.baseURL = baseURL ?? "https://nationalbank.kz/rss/get_rates.cfm"
    }

    /// Almaty's offset from UTC (UTC+5 since March 2024).
    static let utcOffset = 5 * 3600

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.days(latest: Day.clock(utcOffset: Self.utcOffset)(), on: PublicationSchedule.workingDays).map { day in
            ProviderRequest(url: baseURL + "?fdate=" + day.text(.dayMonthYear(separator: ".")))
        }
    }

    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let xml = ProviderXMLParsing(key)
        let root = try XMLReader.Element(parsing: body, root: "rates")
        try xml.expectOnly(["generator", "title", "link", "description", "copyright", "date", "item"], in: root)
        let day = try Day(parsing: xml.text(root, "date", in: "<rates>"), .dayMonthYear(separator: ".", padded: false))
        var quotes: [PublishedQuote] = []
        for item in root.children("item") {
            let code = try ProviderXMLParsing.currency(xml.text(item, "title", in: "an <item> of \(day)"), day: day)
            let place = "the <item> of \(code) on \(day)"
            let unit = try xml.unit(xml.text(item, "quant", in: place), of: code, day: day)
            let value = try ProviderXMLParsing.rate(xml.text(item, "description", in: place), currency: code, day: day)
            guard code != pivot else { continue }
            quotes.append(PublishedQuote(currency: code, value: value, unit: unit, direction: .pivotPerUnits))
        }
        return try ProviderValidation.validate([ProviderPublication(day: day, quotes: quotes)])
    }
}
