import RatesCore

/// The Central Bank of Turkmenistan's official rates of the manat (about 47 currencies and the SDR).
///
/// - Source: `https://cbt.tm/kurs/YYYY/DDMMYYYY.xml`, one day's table as UTF-8 XML:
///   `<cbt_currency_rate>` holding `<date>20.05.2026</date>` (`2026-05-20` in the files of 2020–2023)
///   and one `<rate code="AMD">` per currency with `<name>`, `<rate_usd>`, `<multiplier>`,
///   `<rate_tmt>` and a `<checksum>`.
/// - Quote convention: `rate_tmt` manats for `multiplier` units of the currency (3.5 TMT per 1 USD,
///   the dollar's peg since 2015; 0.9536 TMT per 100 AMD, 0.0265 per 10000 IRR):
///   ``PublishedQuote/Direction/pivotPerUnits`` with unit `multiplier`. `rate_usd` (the bank's cross
///   against the dollar, either way round) and the checksum are not read. The SDR (`XDR`) is kept.
/// - Schedule: Monday to Saturday (Asia/Ashgabat), the day's table looked for from 10:00. There
///   is no file for a Sunday or a day without a table: the site answers 404, read as no publication
///   (``NoPublicationStatus``).
/// - Ranges: one daily request per Monday–Saturday in the range; the newest publication is the
///   file of the latest such day up to today (by the clock given at ``init(baseURL:today:)``).
///   A file is read under the date it states.
public struct CBTProvider: RatesProvider {
    public let key = "CBT"
    public let name = "Central Bank of Turkmenistan"
    public let country: String? = "TM"
    public let pivot = CurrencyCode("TMT")!
    public let rateType = "official rate"
    /// Monday to Saturday, from 10:00 Ashgabat time.
    public let schedule = PublicationSchedule(timeZone: "Asia/Ashgabat", weekdays: Set(1...6), expectedMinute: 10 * 60)

    /// The host the `kurs/` paths are under, without a trailing slash.
    public let baseURL: String
    private let today: @Sendable () -> Day

    /// - Parameters:
    ///   - baseURL: The host (`https://cbt.tm` when `nil`), for a test server or a mirror.
    ///   - today: The day it is in Turkmenistan, for the newest publication's request.
    public init(baseURL: String? = nil, today: @escaping @Sendable () -> Day = Day.clock(utcOffset: 5 * 3600)) {
        self.baseURL = baseURL ?? "https://cbt.tm"
        self.today = today
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let days: [Day]
        switch window {
        case .latest:
            let now = today()
            days = [now.isoWeekday == 7 ? now.adding(days: -1) : now]
        case .range(let first, let last):
            days = Day.days(from: first, through: last, on: schedule.weekdays)
        }
        return days.map { day in
            ProviderRequest(url: "\(baseURL)/kurs/\(day.parts.year)/\(day.text(.dayMonthYear(separator: ""))).xml")
        }
    }

    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let xml = ProviderXMLParsing(key)
        let root = try XMLReader.Element(parsing: body, root: "cbt_currency_rate")
        try xml.expectOnly(["date", "rate"], in: root)
        let dateText = try xml.text(root, "date", in: "<cbt_currency_rate>")
        guard let day = Day(dateText, .dayMonthYear(separator: ".")) ?? Day(dateText, .iso) else { throw .invalidDay(dateText) }
        var quotes: [PublishedQuote] = []
        for rate in root.children("rate") {
            let code = try ProviderXMLParsing.currency(xml.attribute(rate, "code", in: "<rate> of \(day)"), day: day)
            let place = "<rate code=\"\(code)\"> of \(day)"
            let unit = try xml.unit(xml.text(rate, "multiplier", in: place), of: code, day: day)
            let value = try ProviderXMLParsing.rate(xml.text(rate, "rate_tmt", in: place), currency: code, day: day)
            guard code != pivot else { continue }
            quotes.append(PublishedQuote(currency: code, value: value, unit: unit, direction: .pivotPerUnits))
        }
        return try ProviderValidation.validate([ProviderPublication(day: day, quotes: quotes)])
    }
}

/// The site answers 404 for a day without a table (Sundays, holidays), as the adapter documents.
extension CBTProvider: NoPublicationStatus {}
