import RatesCore

/// The National Bank of Moldova's official rates of the leu (about 40 currencies with the SDR).
///
/// - Source: `https://www.bnm.md/en/official_exchange_rates?date=DD.MM.YYYY&get_xml=1`, one day's
///   table as UTF-8 XML: `<ValCurs Date="06.04.2026">` holding one `<Valute ID="47">` per currency
///   with `<NumCode>`, `<CharCode>`, `<Nominal>`, `<Name>` and `<Value>` (decimal point).
/// - Quote convention: `Value` lei for `Nominal` units of the currency (17.6124 MDL per 1 USD, per
///   10 ALL, per 100 JPY): ``PublishedQuote/Direction/pivotPerUnits`` with unit `Nominal`. The SDR
///   (`XDR`) is kept. The bank's precious-metal prices (`official_metal_rates`, `<MetalPrice>`, lei
///   per gram of gold and silver) are not currencies and are not asked for; such a file is not read.
/// - Schedule: Moldovan working days (Europe/Chisinau); a day's table is looked for from 16:00.
/// - Ranges: one request per Monday–Friday in the range; the newest publication is today's table
///   (by the clock given at ``init(baseURL:today:)``). A table is read under the date it states.
public struct NBMProvider: RatesProvider {
    public let key = "NBM"
    public let name = "National Bank of Moldova"
    public let country: String? = "MD"
    public let pivot = CurrencyCode("MDL")!
    public let rateType = "official rate"
    /// Working days, from 16:00 Chișinău time.
    public let schedule = PublicationSchedule(timeZone: "Europe/Chisinau", expectedMinute: 16 * 60)

    /// The host the `en/official_exchange_rates` path is under, without a trailing slash.
    public let baseURL: String
    private let today: @Sendable () -> Day

    /// - Parameters:
    ///   - baseURL: The host (`https://www.bnm.md` when `nil`), for a test server or a mirror.
    ///   - today: The day it is in Moldova, for the newest publication's request.
    public init(baseURL: String? = nil, today: @escaping @Sendable () -> Day = Day.clock(utcOffset: 2 * 3600)) {
        self.baseURL = baseURL ?? "https://www.bnm.md"
        self.today = today
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let days: [Day]
        switch window {
        case .latest: days = [today()]
        case .range(let first, let last): days = Day.days(from: first, through: last, on: schedule.weekdays)
        }
        return days.map { ProviderRequest(url: "\(baseURL)/en/official_exchange_rates?date=\($0.text(.dayMonthYear(separator: ".")))&get_xml=1") }
    }

    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let xml = ProviderXMLParsing(key)
        let root = try XMLReader.Element(parsing: body, root: "ValCurs")
        try xml.expectOnly(["Valute"], in: root)
        let day = try Day(parsing: xml.attribute(root, "Date", in: "<ValCurs>"), .dayMonthYear(separator: "."))
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
