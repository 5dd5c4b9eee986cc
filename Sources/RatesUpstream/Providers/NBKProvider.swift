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
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.days(latest: today(), on: PublicationSchedule.workingDays).map { day in
            ProviderRequest(url: baseURL + "?fdate=" + day.text(.dayMonthYear(separator: ".")))
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let root = try XMLReader.Element(parsing: body, root: "rates")
        try XMLFields.expectOnly(["generator", "title", "link", "description", "copyright", "date", "item"], in: root)
        let day = try Day(parsing: XMLFields.text(root, "date", in: "<rates>"), .dayMonthYear(separator: ".", padded: false))
        let quotes = try XMLFields.quotes(
            root.children("item"), code: .child("title"), unit: .child("quant"), rate: .child("description"), day: day, pivot: pivot)
        return [ProviderPublication(day: day, quotes: quotes)]
    }
}
