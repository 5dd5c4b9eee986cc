import RatesCore
import RatesStore

/// The coordinators of every source a server fetches, the reference source's (the ECB's) first: what `POST /v1/admin/refresh` refreshes.
public struct FetchCoordinators: Sendable {
    /// The coordinators, in the order given (``UpstreamFetches/all``'s: the ECB's, then the providers in their configured order).
    public let all: [FetchCoordinator]
    /// This replica's role when several share a database: while another holds it, refreshes are forwarded to that one.
    let role: FetcherRole?

    public init(_ coordinators: [FetchCoordinator], role: FetcherRole? = nil) {
        all = coordinators
        self.role = role
    }

    /// The keys of the providers fetched, in order.
    public var keys: [String] { all.map(\.provider) }

    /// Refreshes `keys` (every provider when `nil`) at once, each with its own coordinator's
    /// ``FetchCoordinator/refresh()``: each report is of a fetch of its provider that started after
    /// this call, shared with the refreshes of the same provider that arrived meanwhile.
    ///
    /// On a replica that does not hold the fetcher role, the replica that does carries the refresh
    /// out (``FetcherRole``), and the reports are of the runs it records.
    ///
    /// - Parameter keys: Keys as ``keys`` spells them; others are skipped (the caller refuses them first).
    /// - Returns: The reports in the order of ``all``.
    public func refresh(_ keys: [String]? = nil) async -> Refresh {
        if let role, !role.isHeld {
            return await role.forward(self.keys.filter { keys?.contains($0) ?? true })
        }
        let chosen = keys.map { keys in all.filter { keys.contains($0.provider) } } ?? all
        let reports = await withTaskGroup(of: (Int, FetchCoordinator.Report).self) { group in
            for (index, coordinator) in chosen.enumerated() {
                group.addTask { (index, await coordinator.refresh()) }
            }
            var reports = [FetchCoordinator.Report?](repeating: nil, count: chosen.count)
            for await (index, report) in group { reports[index] = report }
            return reports.compactMap { $0 }
        }
        return Refresh(reports: reports)
    }

    /// What a refresh of several providers achieved, each provider's report and all of them together.
    public struct Refresh: Sendable {
        /// One report per provider refreshed, in the order of ``FetchCoordinators/all``.
        public var reports: [FetchCoordinator.Report]

        public init(reports: [FetchCoordinator.Report]) {
            self.reports = reports
        }

        /// The outcome of them all: the first of `failed`, `rejected`, `updated`, `unchanged`,
        /// `notModified` that some provider had (the one provider's own when only one was refreshed).
        public var outcome: FetchRun.Outcome {
            let order: [FetchRun.Outcome] = [.failed, .rejected, .updated, .unchanged, .notModified]
            let outcomes = Set(reports.map(\.run.outcome))
            return order.first(where: outcomes.contains) ?? .notModified
        }

        /// The newest day some provider refreshed has a publication of, once the refresh ended.
        public var latestPublication: Day? { reports.compactMap(\.latestPublication).max() }

        /// The merged values the refresh added, changed or removed, over every provider.
        public var rowsChanged: Int { reports.reduce(0) { $0 + $1.run.rowsChanged } }

        /// Why some provider's fetch failed or was rejected (each reason after its provider's key
        /// when several were refreshed); `nil` when none did.
        public var detail: String? {
            let failures = reports.filter { !$0.run.outcome.isSuccess }
            guard !failures.isEmpty else { return nil }
            if reports.count == 1 { return failures[0].run.detail }
            return failures.map { "\($0.run.provider): \($0.run.detail ?? $0.run.outcome.rawValue)" }.joined(separator: "; ")
        }
    }
}
