import Foundation
import RatesCore

/// The European Central Bank's euro foreign exchange reference rates: about 30 currencies per EUR.
///
/// - Source: the eurofxref XML files (``ECBFile``) in one directory, `https://www.ecb.europa.eu/stats/eurofxref/` unless given: `eurofxref-daily.xml`
///   for `.latest`; for a range (a backfill, or a catch-up after missed publications), `eurofxref-hist-90d.xml` when the range starts within the last
///   90 days, else `eurofxref-hist.xml` (every day since 1999-01-04). Read with ``ECBXML``. An import also reads the history as the ECB offers it for
///   download, `eurofxref-hist.csv` or `eurofxref-hist.zip` (``ECBHistoryFile``); the binary's bundled seed is that zip.
/// - Quotes: units of the currency per 1 EUR (``RatesCore/PublishedQuote/Direction/unitsPerPivot``, unit 1), the published text unchanged.
/// - Schedule: ``RatesCore/PublicationSchedule/ecbReferenceRates``: TARGET days, out at about 16:00 Frankfurt time.
public struct ECBProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// How many days back `eurofxref-hist-90d.xml` reaches.
    static let ninetyDays = 90

    /// The file a fetch of `window` reads: for a range (a fetch's ends today), `.ninetyDays` if it starts within 90 days of its end, else `.history`.
    public func file(for window: FetchWindow) -> ECBFile {
        guard case .range(let first, let last) = window else { return .daily }
        return first > last.adding(days: -Self.ninetyDays) ? .ninetyDays : .history
    }

    /// A whole file, as cheap to ask for as the newest publication, whatever `backfillDays` says: the 90-day file when it reaches back to `stored`,
    /// else the whole history. Every day in it is kept, so corrections of earlier days come too.
    public func catchUp(after stored: Day?, backfillDays: Int, today: Day) -> FetchWindow {
        let ninetyDaysAgo = today.adding(days: -Self.ninetyDays + 1)
        guard let stored, stored >= ninetyDaysAgo else { return .range(ProviderValidation.firstDay, today) }
        return .range(ninetyDaysAgo, today)
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let directory = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        return window.wholeHistory([ProviderRequest(url: directory + file(for: window).rawValue)])
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        try Self.publications(of: ECBXML.parse(body))
    }

    /// Reads each file by its extension (``ECBHistoryFile``: the XML files, the history's CSV or zip) and combines them as a fetch does its answers.
    public func publications(inFiles files: [URL], subjects: [String?], today: Day) throws -> [ProviderPublication] {
        let parts = try files.map { Self.publications(of: try ECBHistoryFile.read(contentsOf: $0)) }
        do {
            return try ProviderClient.combine(parts)
        } catch {
            throw ProviderFileError.conflicting(provider: key, error)
        }
    }

    /// The days of a parsed ECB file as the ECB's publications.
    public static func publications(of batch: RatesBatch) -> [ProviderPublication] {
        batch.days.map { day in
            let quotes = day.rates.sorted { $0.key < $1.key }.map { PublishedQuote(currency: $0.key, value: $0.value, direction: .unitsPerPivot) }
            return ProviderPublication(day: day.day, quotes: quotes)
        }
    }
}
