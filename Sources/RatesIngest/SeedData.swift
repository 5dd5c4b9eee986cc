import Foundation
import Logging
import RatesCore
import RatesStore
import RatesUpstream

/// The ECB history bundled with the binary, so a new install serves real data before its first fetch.
public enum SeedData {
    /// The bundled ECB history file (`eurofxref-hist.zip`, as the ECB publishes it).
    public static var historyURL: URL? { Bundle.module.url(forResource: "eurofxref-hist", withExtension: "zip") }

    /// Ingests the bundled history when the store holds no rates.
    ///
    /// - Returns: The recorded run, or `nil` when the store already had data.
    /// - Throws: When the bundle is missing or unreadable, or the database write fails.
    @discardableResult
    public static func seedIfEmpty(_ ingestor: Ingestor, now: Date, logger: Logger) throws -> FetchRun? {
        guard try ingestor.store.latestDay() == nil else { return nil }
        guard let url = historyURL else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "eurofxref-hist.zip"]) }
        let source = ECBProvider()
        let publications = try source.publications(inFiles: [url], subjects: [], today: Day(containing: now))
        let run = try ingestor.ingest(
            publications, of: (source.key, source.pivot), run: FetchRun(startedAt: now, source: .seed, provider: source.key, file: "eurofxref-hist.zip (bundled)", outcome: .updated),
            notAfter: Day(containing: now).adding(days: 1))
        logger.info("seeded from bundled history", metadata: ["rates.latestDate": "\(publications.last?.day.description ?? "-")", "rates.rowsChanged": "\(run.rowsChanged)"])
        return run
    }
}
