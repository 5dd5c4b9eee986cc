/// One source's fetch from its upstream and the ingest of what it brings: what a
/// ``FetchCoordinator`` runs, one at a time. Every source's is a ``ProviderFetch``; tests run others.
public protocol UpstreamFetch: Sendable {
    /// The provider fetched (`ECB`, `NBP`, …).
    var provider: String { get }
    /// Fetches once, ingests what came, records the run (failed runs too) and returns its report;
    /// `expedited` (an operator's refresh): at once, without waiting for a fetch permit.
    func run(expedited: Bool) async -> FetchCoordinator.Report
    /// Lets a run that waits for a fetch permit start now, without one.
    func expedite()
}
