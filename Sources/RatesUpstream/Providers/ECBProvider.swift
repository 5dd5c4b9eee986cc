import Foundation
import RatesCore

/// The European Central Bank's euro foreign exchange reference rates: about 30 currencies per EUR.
///
/// - Source: the eurofxref XML files (``ECBFile``) in one directory,
///   `https://www.ecb.europa.eu/stats/eurofxref/` unless given: `eurofxref-daily.xml` for `.latest`;
///   for a range, `eurofxref-hist-90d.xml` when the range starts within the last 90 days, else
///   `eurofxref-hist.xml` (every day since 1999-01-04). Read with ``ECBXML``, the parser the
///   ECB path has always used.
/// - Quotes: units of the currency per 1 EUR (``RatesCore/PublishedQuote/Direction/unitsPerPivot``, unit 1),
///   the published text unchanged.
/// - Schedule: Europe/Berlin, TARGET days (Monday to Friday; the TARGET holidays are in
///   ``RatesCore/PublicationCalendar``), out at about 16:00 local time.
public struct ECBProvider: RatesProvider {
    public let key = "ECB"
    public let name = "European Central Bank"
    public let country: String? = "EU"
    public let pivot = CurrencyCode.euro
    public let schedule = PublicationSchedule(timeZone: "Europe/Berlin", expectedMinute: 16 * 60)

    /// The directory holding the files, ending in `/`.
    public let baseURL: String
    /// Today (UTC), to tell whether a range starts within the 90-day file.
    let today: @Sendable () -> Day

    /// The ECB's directory, as ``ECBClient`` fetches from it.
    public static let defaultBaseURL = "https://www.ecb.europa.eu/stats/eurofxref/"

    /// How many days back `eurofxref-hist-90d.xml` reaches.
    static let ninetyDays = 90

    /// - Parameters:
    ///   - baseURL: The directory of the files (``defaultBaseURL`` when `nil`), for a test server or a mirror.
    ///   - today: Today's day (UTC by the system clock unless given), for tests.
    public init(baseURL: String? = nil, today: @escaping @Sendable () -> Day = { Day(containing: Date()) }) {
        let base = baseURL ?? Self.defaultBaseURL
        self.baseURL = base.hasSuffix("/") ? base : base + "/"
        self.today = today
    }

    /// The file a fetch of `window` reads.
    public func file(for window: FetchWindow) -> ECBFile {
        switch window {
        case .latest: .daily
        case .range(let first, _): first > today().adding(days: -Self.ninetyDays) ? .ninetyDays : .history
        }
    }

    /// One request: the file of ``file(for:)``.
    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        if case .range(let first, let last) = window, first > last { return [] }
        return [ProviderRequest(url: baseURL + file(for: window).rawValue)]
    }

    /// Reads any eurofxref file: every day in it, each currency per 1 EUR.
    public func parse(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let batch = try ECBXML.parse(body)
        let publications = batch.days.map { day in
            ProviderPublication(
                day: day.day,
                quotes: day.rates.sorted { $0.key < $1.key }.map { PublishedQuote(currency: $0.key, value: $0.value, direction: .unitsPerPivot) })
        }
        return try ProviderValidation.validate(publications)
    }
}
