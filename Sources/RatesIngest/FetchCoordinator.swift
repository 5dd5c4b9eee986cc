import Foundation
import RatesCore
import RatesStore

/// Runs one provider's fetches one at a time and hands each caller the report of the fetch it asked for.
///
/// Two ways in: ``refresh()`` answers with a fetch that *starts after the call* (an operator
/// who asks for a refresh wants the publication that is out now, not the result of a fetch
/// that began before it); ``fetchOrJoin()`` lets a scheduler join a fetch already running.
/// What a fetch does is the provider's ``UpstreamFetch``.
///
/// While a fetch runs, the provider's status (``ServerState/providerStatus``) says so
/// (`fetching`), and counts the refreshes waiting for the next one (`refreshesWaiting`).
public actor FetchCoordinator {
    /// What one fetch did.
    public struct Report: Sendable {
        public var run: FetchRun
        /// `Retry-After` asked for by the upstream, in seconds.
        public var retryAfter: Double?
        /// The newest day of the provider's own publications stored once the fetch ended (`nil`: none).
        public var latestPublication: Day?

        public init(run: FetchRun, retryAfter: Double? = nil, latestPublication: Day? = nil) {
            self.run = run
            self.retryAfter = retryAfter
            self.latestPublication = latestPublication
        }
    }

    /// The provider whose fetches it runs.
    public nonisolated let provider: String
    private let fetch: any UpstreamFetch
    private let state: ServerState
    /// The fetch in progress.
    private var running: Task<Report, Never>?
    /// The fetch that starts when the running one ends, shared by every refresh that arrived meanwhile.
    private var next: Task<Report, Never>?

    /// A coordinator of `fetch`'s provider, reporting its activity to `state`.
    public init(_ fetch: any UpstreamFetch, state: ServerState) {
        self.provider = fetch.provider
        self.fetch = fetch
        self.state = state
    }

    /// Fetches in a fetch that starts after this call, and returns its report.
    ///
    /// With no fetch running, one starts now. While one runs, the caller waits for it to end
    /// and then for exactly one more, which every refresh that arrived meanwhile shares.
    ///
    /// A refresh never waits for another source: its fetch runs without a fetch permit, and a
    /// scheduled fetch it follows that still waits for one starts at once (``UpstreamFetch/expedite()``).
    public func refresh() async -> Report {
        guard let running else { return await start(expedited: true) }
        fetch.expedite()
        let following =
            next
            ?? Task {
                _ = await running.value
                return await self.start(expedited: true)
            }
        next = following
        state.updateProviderStatus(provider) { $0.refreshesWaiting += 1 }
        defer { state.updateProviderStatus(provider) { $0.refreshesWaiting -= 1 } }
        return await following.value
    }

    /// Joins the fetch in progress, or starts one: for a scheduler, to which any fresh fetch will do.
    public func fetchOrJoin() async -> Report {
        if let running { return await running.value }
        return await start(expedited: false)
    }

    /// Starts a fetch now (`expedited`: without waiting for a fetch permit); the caller made sure none runs.
    private func start(expedited: Bool) async -> Report {
        let task = Task { [fetch] in await fetch.run(expedited: expedited) }
        running = task
        next = nil
        state.updateProviderStatus(provider) { $0.fetching = true }
        let report = await task.value
        if running == task {
            running = nil
            if next == nil { state.updateProviderStatus(provider) { $0.fetching = false } }
        }
        return report
    }
}
