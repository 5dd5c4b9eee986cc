import Foundation
import RatesCore

/// Banky Foiben'i Madagasikara's reference rates of the ariary (19 currencies), one request per currency.
///
/// - Source: the bank's WordPress API, `POST https://www.banky-foibe.mg/admin/wp-json/bfm/cours_mid_en_ar_filter`
///   with the form `dateFilterDebut=2026%2F09%2F21&dateFilterFin=2026%2F09%2F23&filterData=EUR` (days as
///   `YYYY/MM/DD`; ``ProviderRequest/subject`` is the currency), answering that currency's days:
///   `{"code":"cours-de-mid-en-ar-filter",…,"data":{"status":200,"data":{"coursMid":{"2026-09-23":"4 983,29",…},"coursMidMax":{…},"coursMidMin":{…},"grapheData":{"2026-09-23":"4983.29",…}}}}`.
///   The answer does not name its currency: a file of it imports with its currency given (`--subject EUR`), or
///   named by the `requests.jsonl` beside it, as recordings keep their requests (``recordedCurrency(of:)``).
///   A span without rates answers `"coursMid":[]`: no publication.
/// - Quote convention: `coursMid`, the interbank market's (MID) reference rate, ariary for one unit of the
///   currency, ``PublishedQuote/Direction/pivotPerUnits``, written the French way (`"4 983,29"`: the
///   spaces grouping thousands dropped, the decimal comma made a point, no digit changed: `4983.29`).
///   `grapheData`, the same figures dotted for the site's chart, must agree (trailing zeros aside) where it has the day;
///   `coursMidMin` and `coursMidMax`, the day's extremes, are not read.
/// - Schedule: Indian/Antananarivo, Monday to Friday, the day's rate out by about 13:00; rates from
///   2018-01-02.
/// - Ranges: one request per currency and 365 days; the newest publication is asked for as the last
///   seven days up to today.
public struct BFMProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The route's address (`…/wp-json/bfm/cours_mid_en_ar_filter`).
    var endpoint: String { baseURL + "/admin/wp-json/bfm/cours_mid_en_ar_filter" }

    /// The currencies the bank quotes, in its order (the SDR under its ISO 4217 code, as the form takes it).
    public static let currencies = [
        "EUR", "USD", "GBP", "CHF", "JPY", "CAD", "DKK", "NOK", "SEK", "DJF", "XDR", "MUR", "ZAR", "AUD", "HKD", "SGD", "NZD", "INR", "CNY",
    ]
    /// The most days one request covers.
    static let maxDays = 365
    /// The headers the site's own form sends.
    static let headers = [
        "Content-Type": "application/x-www-form-urlencoded", "Origin": "https://www.banky-foibe.mg",
        "Referer": "https://www.banky-foibe.mg/taux-reference",
    ]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.requests(each: Self.currencies, latestDays: 7, today: today(), maxDays: Self.maxDays) { code, first, last in
            let body = "dateFilterDebut=\(Self.formDay(first))&dateFilterFin=\(Self.formDay(last))&filterData=\(code)"
            return ProviderRequest(url: endpoint, method: .post, headers: Self.headers, body: body)
        }
    }

    /// `text` without trailing fraction zeros (`4560.10` → `4560.1`, `5000.00` → `5000`), to compare one figure written two ways.
    static func trimmed(_ text: String) -> String {
        guard text.contains(".") else { return text }
        var trimmed = Substring(text)
        while trimmed.last == "0" { trimmed = trimmed.dropLast() }
        if trimmed.last == "." { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// `2026%2F09%2F21`: the day as `YYYY/MM/DD`, form-encoded.
    static func formDay(_ day: Day) -> String {
        day.text(.iso).replacingOccurrences(of: "-", with: "%2F")
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let document = try ProviderJSON(answer: body)
        guard let subject = request.subject, Self.currencies.contains(subject), let currency = CurrencyCode(subject) else {
            throw .layout(
                "the answer does not name its currency, and the request names none of the bank's: \(request.subject ?? "none")")
        }
        let outer = try document.field("data", of: "the answer")
        let status = try outer.field("status", of: "\"data\"")
        guard status == .number("200") else { throw .layout("\"data\".\"status\" is \(status.shown), not 200") }
        let data = try outer.field("data", of: "\"data\"")
        let rates = try data.field("coursMid", of: "\"data\".\"data\"")
        if rates == .array([]) { return [] }
        return try rates.members("\"coursMid\"").map { member throws(UpstreamDataError) in
            let day = try Day(parsing: member.key, .iso)
            let quote = try PublishedQuote.reading(code: subject, value: member.value, direction: .pivotPerUnits, day: day)
            if let dotted = data["grapheData"]?[member.key],
                dotted.publishedDecimal.map(Self.trimmed) != Self.trimmed(quote.value)
            {
                throw .invalidRate(currency: currency, day: day, text: "\(member.value.shown) (the chart: \(dotted.shown))")
            }
            return ProviderPublication(day: day, quotes: [quote])
        }
    }

    // MARK: - Import

    /// Reads files as the default does, each file's currency taken from `subjects` or, where none is
    /// given, from the `requests.jsonl` beside it (``recordedCurrency(of:)``).
    public func publications(inFiles files: [URL], subjects: [String?], today: Day) throws -> [ProviderPublication] {
        let named = subjects.isEmpty ? files.map(Self.recordedCurrency(of:)) : subjects
        let bodies = try files.map { Array(try Data(contentsOf: $0)) }
        return try ProviderFile.read(bodies, provider: self, subjects: named.contains { $0 != nil } ? named : [], today: today)
    }

    /// The currency a recorded answer was asked for, from the `requests.jsonl` in its folder (the folder of
    /// the file a link points to, for a linked file): one JSON line
    /// per recorded file, `{"file": "00_cours_mid_en_ar_filter.json", …, "request_body": "…&filterData=EUR"}`.
    /// `nil` when there is no such line or it names no currency.
    static func recordedCurrency(of file: URL) -> String? {
        let index = file.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("requests.jsonl")
        guard let data = try? Data(contentsOf: index) else { return nil }
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let entry = try? ProviderJSON(answer: Array(line)), entry["file"]?.stringValue == file.lastPathComponent,
                let body = entry["request_body"]?.stringValue
            else { continue }
            for field in body.split(separator: "&") where field.hasPrefix("filterData=") {
                return String(field.dropFirst("filterData=".count))
            }
        }
        return nil
    }
}
