import RatesCore

/// The Bank of Russia's official rates of the rouble (about 54 currencies).
///
/// - Source: `https://www.cbr.ru/scripts/XML_daily.asp`, one day's table as XML in
///   windows-1251: `<ValCurs Date="25.04.2026">` holding one `<Valute>` per currency with
///   `<CharCode>`, `<Nominal>` and `<Value>` (decimal comma). The latest table is the answer
///   without a query; the table of a day `D` is `?date_req=DD/MM/YYYY`.
/// - Quote convention: `Value` roubles for `Nominal` units of the currency (75,5273 RUB per 1 USD,
///   20,3123 RUB per 100 AMD): ``PublishedQuote/Direction/pivotPerUnits`` with unit `Nominal`.
///   `VunitRate` (the same figure divided by `Nominal`, computed by the bank) is not read.
/// - Schedule: the bank sets the rates on its working days (Europe/Moscow), usually by 13:00, for
///   the next calendar day: a table is dated Tuesday to Saturday, and Saturday's holds through Monday.
/// - Ranges: one daily request per Tuesday–Saturday in the range. (`XML_dynamic.asp` answers a
///   range at once, but per currency, by the bank's own currency ID: one request per currency and
///   an ID list kept by hand; the daily table needs neither.) For a day without a table of its own
///   (a holiday) the bank answers with the table in force, under its own date, which may lie
///   before the range.
public struct CBRProvider: RatesProvider {
    public let key = "CBR"
    public let name = "Bank of Russia"
    public let country: String? = "RU"
    public let pivot = CurrencyCode("RUB")!
    public let rateType = "official rate"
    /// Working days, by 13:00 Moscow time (the figures carry the next calendar day's date).
    public let schedule = PublicationSchedule(timeZone: "Europe/Moscow", expectedMinute: 13 * 60)

    /// The host the `scripts/` paths are under, without a trailing slash.
    public let baseURL: String

    /// - Parameter baseURL: The host (`https://www.cbr.ru` when `nil`), for a test server or a mirror.
    public init(baseURL: String? = nil) {
        self.baseURL = baseURL ?? "https://www.cbr.ru"
    }

    /// The weekdays the bank's tables are dated: Tuesday to Saturday.
    static let tableWeekdays: Set<Int> = [2, 3, 4, 5, 6]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let url = "\(baseURL)/scripts/XML_daily.asp"
        switch window {
        case .latest:
            return [ProviderRequest(url: url)]
        case .range(let first, let last):
            return Day.days(from: first, through: last, on: Self.tableWeekdays).map { day in
                ProviderRequest(url: url + "?date_req=" + day.text(.dayMonthYear(separator: "/")))
            }
        }
    }

    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let xml = ProviderXMLParsing(key)
        let root = try XMLReader.Element(parsing: body, root: "ValCurs")
        try xml.expectOnly(["Valute"], in: root)
        let day = try Day(parsing: xml.attribute(root, "Date", in: "<ValCurs>"), .dayMonthYear(separator: ".", padded: false))
        var quotes: [PublishedQuote] = []
        for valute in root.children {
            let place = "<Valute ID=\"\(valute.attribute("ID") ?? "")\"> of \(day)"
            let code = try ProviderXMLParsing.currency(xml.text(valute, "CharCode", in: place), day: day)
            let unit = try xml.unit(xml.text(valute, "Nominal", in: place), of: code, day: day)
            let value = try ProviderXMLParsing.rate(xml.text(valute, "Value", in: place), currency: code, day: day)
            guard code != pivot else { continue }
            quotes.append(PublishedQuote(currency: code, value: value, unit: unit, direction: .pivotPerUnits))
        }
        return try ProviderValidation.validate([ProviderPublication(day: day, quotes: quotes)])
    }
}
