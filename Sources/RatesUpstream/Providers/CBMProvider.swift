import Foundation
import RatesCore

/// The Central Bank of Myanmar's reference rates of the kyat (about 38 currencies).
///
/// - Source: the bank's forex API, `https://forex.cbm.gov.mm/api/latest` for the newest table and
///   `…/api/history/DD-MM-YYYY` for a day's, both in one layout:
///   `{"info":"Central Bank of Myanmar","description":…,"timestamp":"1775721600","rates":{"USD":"2100.00","JPY":"1321.88",…}}`.
///   The rates are an object keyed by ISO 4217 code, each value decimal text with a decimal point and, in
///   figures of a thousand and more, a comma between groups of three digits (`"1,300.0"`, `"4,243.9"`, as the
///   tables of 2016 and 2021 write them; `"2100.00"` without it, as those of 2026 do); no rates at all
///   (`"rates":[]`, a day without a table) is no publication.
/// - Quote convention: kyats for one unit of the currency (2100.00 MMK per 1 USD),
///   ``PublishedQuote/Direction/pivotPerUnits``, except the six currencies the bank quotes per 100
///   units (its website's table says so; the API does not): IDR, JPY, KHR, KRW, LAK and VND
///   (1321.88 MMK per 100 JPY). The answer names no unit, so these six are a fixed list here: a currency
///   the bank starts quoting per 100 needs adding to it. A row for the kyat itself would be skipped.
/// - Day: the `timestamp` (Unix seconds) as a day in Myanmar time (UTC+06:30).
/// - Schedule: Asia/Yangon, Monday to Friday, the day's table out by about 10:30.
/// - Ranges: one `history` request per Monday to Friday in the range; the API has no range query.
public struct CBMProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The currencies the bank quotes per 100 units.
    static let perHundred: Set<String> = ["IDR", "JPY", "KHR", "KRW", "LAK", "VND"]
    /// Myanmar time, UTC+06:30 (no summer time).
    static let utcOffset = 6 * 3600 + 30 * 60

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(latest: [ProviderRequest(url: baseURL + "/api/latest")], eachDayOn: PublicationSchedule.workingDays) { day in
            ProviderRequest(url: baseURL + "/api/history/" + day.text(.dayMonthYear(separator: "-")))
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        let seconds = try document.field("timestamp", of: "the answer").integer("\"timestamp\"")
        let day = Day(containing: Date(timeIntervalSince1970: TimeInterval(seconds)), utcOffset: Self.utcOffset)
        let field = try document.field("rates", of: "the answer")
        if field == .array([]) { return [] }
        let quotes = try field.members("\"rates\"").filter { $0.key != pivot.rawValue }.map { rate throws(UpstreamDataError) in
            let unit = Self.perHundred.contains(rate.key) ? 100 : 1
            guard let currency = CurrencyCode(rate.key) else { throw .invalidCurrencyCode(rate.key, day: day) }
            let value = if case .string(let text) = rate.value {
                GroupedDecimal.rateText(text, decimalMark: ".", groupMark: ",")
            } else {
                rate.value.publishedDecimal
            }
            guard let value else { throw .invalidRate(currency: currency, day: day, text: rate.value.shown) }
            return PublishedQuote(currency: currency, value: value, unit: unit, direction: .pivotPerUnits)
        }
        return [ProviderPublication(day: day, quotes: quotes)]
    }
}
