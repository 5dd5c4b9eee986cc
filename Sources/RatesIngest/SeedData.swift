import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream

/// The ECB history bundled with the binary, so a new install serves real data before its first fetch.
public enum SeedData {
    /// The bundled ECB history file (`eurofxref-hist.zip`, as the ECB publishes it).
    public static var historyURL: URL? { Bundle.module.url(forResource: "eurofxref-hist", withExtension: "zip") }

    /// Ingests the bundled history when the store holds none of the ECB's publications: an empty
    /// database, or one holding only other providers' (imported or fetched without the ECB), which
    /// would otherwise serve their few days without the ECB's currencies and history.
    ///
    /// - Returns: The recorded run, or `nil` when the store already held a publication of the ECB.
    /// - Throws: When the bundle is missing or unreadable, or the database read or write fails.
    @discardableResult
    public static func seedIfNoECB(_ ingestor: Ingestor, now: Date, logger: Logger) throws -> FetchRun? {
        let source = ECBProvider()
        guard try ingestor.store.latestPublicationDay(of: source.key) == nil else { return nil }
        guard let url = historyURL else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "eurofxref-hist.zip"]) }
        let publications = try source.publications(inFiles: [url], subjects: [], today: Day(containing: now))
        let run = try ingestor.ingest(
            publications, of: (source.key, source.pivot), run: FetchRun(startedAt: now, source: .seed, provider: source.key, file: "eurofxref-hist.zip (bundled)", outcome: .updated),
            notAfter: Day(containing: now).adding(days: 1))
        logger.info("seeded from bundled history", metadata: ["rates.latestDate": "\(publications.last?.day.description ?? "-")", "rates.rowsChanged": "\(run.rowsChanged)"])
        return run
    }
}
