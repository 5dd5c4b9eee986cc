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
    /// this call, shared with the refreshes of the same provider that arrived meanwhile. No refresh
    /// waits for another source's fetch permit, so one of every source takes as long as the slowest.
    ///
    /// On a replica that does not hold the fetcher role, the replica that does carries the refresh
    /// out (``FetcherRole``), and the reports are of the runs it records.
    ///
    /// - Parameters:
    ///   - keys: Keys as ``keys`` spells them; others are skipped (the caller refuses them first).
    ///   - wait: How long to wait for the fetches (`nil`: until they end). Those still running then
    ///     go on, and are ``Refresh/pending``.
    /// - Returns: The reports in the order of ``all``.
    public func refresh(_ keys: [String]? = nil, answeringWithin wait: Duration? = nil) async -> Refresh {
        if let role, !role.isHeld {
            let forwarded = self.keys.filter { keys?.contains($0) ?? true }
            let forward: @Sendable () async -> Refresh = { await role.forward(forwarded) }
            let answer = await Self.results(of: [forward], within: wait)[0]
            return answer ?? Refresh(reports: [], pending: forwarded)
        }
        let chosen = keys.map { keys in all.filter { keys.contains($0.provider) } } ?? all
        let refreshes = chosen.map { coordinator -> @Sendable () async -> FetchCoordinator.Report in { await coordinator.refresh() } }
        let reports = await Self.results(of: refreshes, within: wait)
        return Refresh(reports: reports.compactMap { $0 }, pending: zip(chosen, reports).filter { $0.1 == nil }.map(\.0.provider))
    }

    /// What `operations`, run at once, give within `wait` (`nil`: however long they take), each in
    /// its place; `nil` for one still running then, which goes on.
    private static func results<Value: Sendable>(of operations: [@Sendable () async -> Value], within wait: Duration?) async -> [Value?] {
        guard !operations.isEmpty else { return [] }
        // Unstructured tasks, so that the answer need not wait for them; each reports into the stream,
        // and the timer's nil ends the wait.
        let (stream, continuation) = AsyncStream.makeStream(of: (index: Int, value: Value)?.self)
        for (index, operation) in operations.enumerated() {
            Task { continuation.yield((index, await operation())) }
        }
        let timer = wait.map { wait in
            Task {
                try? await Task.sleep(for: wait)
                continuation.yield(nil)
            }
        }
        var results = [Value?](repeating: nil, count: operations.count)
        var received = 0
        for await result in stream {
            guard let result else { break }
            results[result.index] = result.value
            received += 1
            if received == operations.count { break }
        }
        timer?.cancel()
        continuation.finish()
        return results
    }

    /// What a refresh of several providers achieved, each provider's report and all of them together.
    public struct Refresh: Sendable {
        /// One report per provider whose fetch ended in time, in the order of ``FetchCoordinators/all``.
        public var reports: [FetchCoordinator.Report]
        /// The providers whose fetch was still running when the refresh stopped waiting, in the same order.
        public var pending: [String]

        public init(reports: [FetchCoordinator.Report], pending: [String] = []) {
            self.reports = reports
            self.pending = pending
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
