/// One provider's fetch from its upstream and the ingest of what it brings: what a
/// ``FetchCoordinator`` runs, one at a time.
///
/// The ECB's (``ECBFetch``) chooses a file by its publication calendar; every other provider's
/// (``ProviderFetch``) asks its adapter for the newest publication, or for a backfill when nothing
/// of it is stored.
public protocol UpstreamFetch: Sendable {
    /// The provider fetched (`ECB`, `NBP`, …).
    var provider: String { get }
    /// Fetches once, ingests what came, records the run (failed runs too) and returns its report.
    func run() async -> FetchCoordinator.Report
}
