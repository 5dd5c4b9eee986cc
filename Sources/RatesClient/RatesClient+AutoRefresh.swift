import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RatesCore

extension RatesClient {
    /// Keeps the cache fresh until the calling task is cancelled; never returns otherwise.
    ///
    /// Syncs at once, then again: when the server's next publication is due
    /// (`nextUpdateAfter`, plus up to a minute of jitter so clients do not all arrive at
    /// once, and at least every ``Configuration/maxRefreshInterval``); when the server
    /// announces a publication on `GET /v1/events` (Server-Sent Events, reconnected as the
    /// server's `retry:` advises); and, while offline, with growing jittered delays
    /// (30 s doubling up to 15 min, or the server's `Retry-After`). `onSync` sees every
    /// result, errors included; the loop keeps going after them.
    ///
    /// ```swift
    /// let refresher = Task { await client.run { result in print("sync:", result) } }
    /// // ... later
    /// refresher.cancel()
    /// ```
    public func run(onSync: @escaping @Sendable (Result<SyncReport, any Error>) -> Void = { _ in }) async {
        let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.listenForPublications { wake.yield() } }
            group.addTask {
                wake.yield()   // sync on launch
                var failures = 0
                var timer: Task<Void, Never>?
                defer { timer?.cancel() }
                for await _ in wakeups {
                    timer?.cancel()
                    guard !Task.isCancelled else { break }
                    let delay: Duration
                    do {
                        let report = try await self.sync()
                        onSync(.success(report))
                        delay = self.refreshDelay(after: report, failures: &failures)
                    } catch is CancellationError {
                        break
                    } catch {
                        onSync(.failure(error))
                        failures += 1
                        delay = Self.offlineDelay(failures: failures, retryAfter: nil)
                    }
                    timer = Task {
                        try? await Task.sleep(for: delay)
                        if !Task.isCancelled { wake.yield() }
                    }
                }
            }
        }
    }

    /// Starts ``run(onSync:)`` in a task; keep the handle, refreshing stops when it is cancelled or released.
    ///
    /// ```swift
    /// let refresher = client.startAutoRefresh()
    /// defer { refresher.cancel() }
    /// ```
    public func startAutoRefresh(onSync: @escaping @Sendable (Result<SyncReport, any Error>) -> Void = { _ in }) -> AutoRefresh {
        AutoRefresh(Task { await self.run(onSync: onSync) })
    }

    // MARK: - Scheduling

    /// How long to sleep after `report`.
    func refreshDelay(after report: SyncReport, failures: inout Int) -> Duration {
        if case .offline(let reason) = report.outcome {
            failures += 1
            if case .serviceUnavailable(let retryAfter) = reason { return Self.offlineDelay(failures: failures, retryAfter: retryAfter) }
            return Self.offlineDelay(failures: failures, retryAfter: nil)
        }
        failures = 0
        let longest = configuration.maxRefreshInterval
        guard let next = (try? cache.state())?.nextUpdateAfter else { return longest }
        let untilDue = next.timeIntervalSince(now())
        // Overdue (a late publication): look again in a minute, as often as the server polls its sources
        // while a publication is due (its answers meanwhile may be kept for 60 s only).
        guard untilDue > 0 else { return min(.seconds(60), longest) }
        return min(.seconds(untilDue + Double.random(in: 0...60)), longest)
    }

    /// 30 s doubling to 15 min, equal jitter (half the step to the step); never before `retryAfter`.
    static func offlineDelay(failures: Int, retryAfter: Duration?) -> Duration {
        let jittered = Backoff(initial: .seconds(30), maximum: .seconds(900)).delay(afterFailures: failures, jitter: .equal, random: .random(in: 0...1))
        return max(jittered, retryAfter ?? .zero)
    }

    // MARK: - Server events

    /// Listens to `GET /v1/events` and calls `onPublication` for each `publication` event (and
    /// after reconnecting from a failure, when one may have been missed). Returns when cancelled.
    func listenForPublications(_ onPublication: @escaping @Sendable () -> Void) async {
        var retry = Duration.seconds(10)
        var failures = 0
        var hasConnected = false
        var request = Self.request("v1/events", accept: "text/event-stream", configuration: configuration)
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        // An idle limit, not a total one: the server sends a keep-alive comment every 15 s.
        request.timeoutInterval = max(60, configuration.requestTimeout.seconds)

        while !Task.isCancelled {
            do {
                for try await message in transport.events(request) {
                    switch message {
                    case .opened:
                        if hasConnected && failures > 0 { onPublication() }
                        hasConnected = true
                        failures = 0
                    case .retry(let advice):
                        retry = advice
                    case .event(let event):
                        if event.type == "publication" { onPublication() }
                    }
                }
            } catch EventStreamError.status(let status) where (400..<500).contains(status) {
                failures = max(failures + 1, 6)   // no event stream here (or not for us): check back rarely
            } catch {
                failures += 1
            }
            guard !Task.isCancelled else { return }
            let ceiling = failures == 0 ? retry.seconds : min(300, retry.seconds * pow(2, Double(min(failures, 10))))
            try? await Task.sleep(for: failures == 0 ? retry : .seconds(Double.random(in: retry.seconds...max(retry.seconds, ceiling))))
        }
    }
}

/// A running ``RatesClient/run(onSync:)``: refreshing lasts until ``cancel()`` or until the handle is released.
///
/// ```swift
/// final class Model { let refresher: AutoRefresh; init(client: RatesClient) { refresher = client.startAutoRefresh() } }
/// ```
public final class AutoRefresh: Sendable {
    let task: Task<Void, Never>

    init(_ task: Task<Void, Never>) { self.task = task }

    /// Stops refreshing (a sync under way is cancelled; the cache stays consistent).
    ///
    /// ```swift
    /// refresher.cancel()
    /// ```
    public func cancel() { task.cancel() }

    /// Whether ``cancel()`` was called (or the handle was released).
    ///
    /// ```swift
    /// assert(!refresher.isCancelled)
    /// ```
    public var isCancelled: Bool { task.isCancelled }

    deinit { task.cancel() }
}

/// Shares one refresh loop among the observations of a client with `autoRefresh`.
final class RefreshLeases: Sendable {
    private let state = Locked<(count: Int, task: Task<Void, Never>?)>((0, nil))

    /// Whether a shared refresh loop runs.
    var isRunning: Bool { state.withLock { $0.task != nil } }

    /// A lease on a running `run()`, started by the first one.
    func acquire(_ client: RatesClient) -> Lease {
        state.withLock { state in
            state.count += 1
            if state.task == nil { state.task = Task { [client] in await client.run() } }
        }
        return Lease(owner: self)
    }

    fileprivate func release() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.count -= 1
            guard state.count == 0 else { return nil }
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
    }

    /// Released once, by the observation that holds it.
    final class Lease: Sendable {
        private let owner: RefreshLeases
        private let released = Locked(false)

        fileprivate init(owner: RefreshLeases) { self.owner = owner }

        func release() {
            let isFirst = released.withLock { released in
                defer { released = true }
                return !released
            }
            if isFirst { owner.release() }
        }
    }
}
