import RatesCore

/// The Central Bank of Liberia's indicative rate of the Liberian dollar (LRD) against the US dollar.
///
/// - Source: `https://www.cbl.org.lr/research/buying-selling-rates`, an HTML page in UTF-8, newest days first, about thirty a page; older pages are
///   `?page=1`, `?page=2`, … (back to 2012-07-05). Header row `Date | Buying | Selling`; a row (its weekday and any `datetime` must match its date):
///   `<time datetime="2026-05-23T12:00:00Z">Saturday, May 23, 2026</time> | L$182.0819/US$1.00 | L$183.9653/US$1.00`.
/// - Quote convention: Liberian dollars per US dollar, as the page writes them (`L$…/US$1.00`): the pivot is the US dollar and the figure is
///   ``RatesCore/PublishedQuote/Direction/unitsPerPivot`` of LRD, unit 1. The bank publishes buying and selling rates only; the figure stored is
///   their exact midpoint (``RatesCore/RateText/midpoint(_:_:)``: 182.0819 and 183.9653 give 183.0236).
/// - Schedule: Africa/Monrovia (UTC), Monday to Saturday, usually by 13:00; a row is dated the day it is for.
/// - Ranges: the newest publication is the first page; a range, the pages back to its first day, counting at least two weeks a page (200 at most).
public struct CBLLRProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    static let liberianDollar = CurrencyCode("LRD")!

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let url = "\(baseURL)/research/buying-selling-rates"
        guard case .range(let first, _) = window else { return [ProviderRequest(url: url)] }
        let days = max(0, today().dayNumber - first.dayNumber + 1)
        let pages = min(200, (days + 13) / 14 + 1)
        return (0..<pages).map { ProviderRequest(url: $0 == 0 ? url : "\(url)?page=\($0)") }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        try HTMLDocument(parsing: body).table(withHeader: ["Date", "Buying", "Selling"]).rows.map { row throws(UpstreamDataError) in
            let texts = try row.texts(count: 3)
            let day = try Self.day(row.cells[0])
            let buying = try rate(texts[1], day: day)
            let selling = try rate(texts[2], day: day)
            let quote = try PublishedQuote.midpoint(buying: buying, selling: selling, of: Self.liberianDollar, direction: .unitsPerPivot, day: day)
            return ProviderPublication(day: day, quotes: [quote])
        }
    }

    /// The figure of `L$182.0819/US$1.00`.
    private func rate(_ text: String, day: Day) throws(UpstreamDataError) -> String {
        let figure = text.dropFirst(2).dropLast("/US$1.00".count)
        guard text.hasPrefix("L$"), text.hasSuffix("/US$1.00"), let value = GroupedDecimal.rateText(figure, decimalMark: ".") else {
            throw .invalidRate(currency: Self.liberianDollar, day: day, text: text)
        }
        return value
    }

    /// The day of a date cell: `Saturday, May 23, 2026`, its weekday the date's, its `<time datetime>` (if any) the same day.
    static func day(_ cell: HTMLTable.Cell) throws(UpstreamDataError) -> Day {
        let words = cell.text.split(separator: " ")
        guard words.count == 4, words[0].hasSuffix(","), words[2].hasSuffix(","),
            let day = HTMLText.day(day: words[2].dropLast(), month: words[1], year: words[3]),
            words[0].dropLast() == HTMLText.englishWeekdays[day.isoWeekday - 1]
        else { throw .invalidDay(cell.text) }
        if let stamp = cell.innerTags.first(where: { $0.name == "time" })?["datetime"], !stamp.hasPrefix("\(day)T") { throw .invalidDay(stamp) }
        return day
    }
}
