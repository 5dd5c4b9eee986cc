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
///   file of the latest such day up to today (by the source's clock, ``RatesProvider/today()``).
///   A file is read under the date it states.
public struct CBTProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let now = today()
        return window.days(latest: now.isoWeekday == 7 ? now.adding(days: -1) : now, on: schedule.weekdays).map { day in
            ProviderRequest(url: "\(baseURL)/kurs/\(day.parts.year)/\(day.text(.dayMonthYear(separator: ""))).xml")
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let root = try XMLReader.Element(parsing: body, root: "cbt_currency_rate")
        try XMLFields.expectOnly(["date", "rate"], in: root)
        let dateText = try XMLFields.text(root, "date", in: "<cbt_currency_rate>")
        guard let day = Day(dateText, .dayMonthYear(separator: ".")) ?? Day(dateText, .iso) else { throw .invalidDay(dateText) }
        let quotes = try XMLFields.quotes(
            root.children("rate"), code: .attribute("code"), unit: .child("multiplier"), rate: .child("rate_tmt"), day: day, pivot: pivot)
        return [ProviderPublication(day: day, quotes: quotes)]
    }
}

/// The site answers 404 for a day without a table (Sundays, holidays), as the adapter documents.
extension CBTProvider: NoPublicationStatus {}
