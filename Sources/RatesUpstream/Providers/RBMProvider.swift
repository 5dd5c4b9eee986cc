import RatesCore

/// The Reserve Bank of Malawi's middle rates of the kwacha (MWK), about 36 currencies.
///
/// - Source: `POST https://www.rbm.mw/Statistics/ExchangeRatesFilter/` with the form body
///   `RateTypes=&StartDate=01%2F02%2F2024&EndDate=01%2F05%2F2024` (days as MM/DD/YYYY, both included), an
///   HTML fragment in UTF-8 holding the table `id="exchange-rates"` whose header row is
///   `Currency | Buying | Middle | Selling | Date`, one row per currency and day, by currency:
///   `AED | 453.8538 | 458.3832 | 462.9125 | Jan 02 2024` (the day written `Jan 02&nbsp;&nbsp;2024`).
///   A table with its header and no row is no publication (a range without a working day).
/// - Quote convention: `Middle`, the bank's own middle rate, kwacha for 1 unit of the currency, as
///   published: ``RatesCore/PublishedQuote/Direction/pivotPerUnits``; buying and selling are not read.
///   Two lines are not a currency of today and are skipped: `CMD` (no ISO 4217 currency) and `IEP` (the
///   Irish pound, withdrawn in 2002, whose figure is no market's). The SDR comes as `XDR` and is kept.
/// - Schedule: Africa/Blantyre, Monday to Friday, usually by 16:00; a figure is dated the day it is for.
/// - Ranges: one request for the whole range; the newest publication is asked for as the last seven days.
public struct RBMProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    static let header = ["Currency", "Buying", "Middle", "Selling", "Date"]
    /// Codes in the table that are no current currency (see the quote convention).
    static let skipped: Set<String> = ["CMD", "IEP"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 7, today: today()) else { return [] }
        let format = Day.ProviderFormat.monthDayYear(separator: "%2F")
        return [
            ProviderRequest(
                url: "\(baseURL)/Statistics/ExchangeRatesFilter/", method: .post, headers: FormBody.contentType,
                body: "RateTypes=&StartDate=\(first.text(format))&EndDate=\(last.text(format))")
        ]
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let (table, rows) = try HTMLDocument(parsing: body).table(withHeader: Self.header)
        guard table.id == "exchange-rates" else { throw .layout("the rates table is not id=\"exchange-rates\"") }
        var days: [Day: [PublishedQuote]] = [:]
        for row in rows {
            let cells = try row.texts(count: 5)
            let words = cells[4].split(separator: " ")
            guard words.count == 3, let day = HTMLText.day(day: words[1], month: words[0], year: words[2]), words[0].count == 3 else {
                throw .invalidDay(cells[4])
            }
            let currency = try PublishedText.currency(cells[0], day: day)
            guard !Self.skipped.contains(cells[0]) else { continue }
            guard let value = GroupedDecimal.rateText(cells[2], decimalMark: ".") else { throw .invalidRate(currency: currency, day: day, text: cells[2]) }
            days[day, default: []].append(PublishedQuote(currency: currency, value: value, unit: 1, direction: .pivotPerUnits))
        }
        return days.map { ProviderPublication(day: $0.key, quotes: $0.value) }
    }
}
