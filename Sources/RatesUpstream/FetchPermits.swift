import Synchronization

/// How many sources may be fetched at once, across every source a server fetches: each fetch holds
/// one permit from its first request to its last answer, and a fetch without a permit waits for one.
///
/// With a hundred sources, a start with nothing stored would otherwise open hundreds of connections
/// at once. A source that hangs holds its permit only until its request timeout, so it delays the
/// others by at most that, and never while permits are free. An operator's refresh never waits
/// here: its fetch runs without a permit, and a fetch of the same source already waiting for one
/// starts at once too (``expedite(_:)``).
public final class FetchPermits: Sendable {
    private struct Waiter {
        let key: String
        /// Resumed with whether it holds a permit (`false`: expedited without one).
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var available: Int
        var waiting: [Waiter] = []
    }

    private let state: Mutex<State>
    /// The most fetches at once.
    public let limit: Int

    /// - Parameter limit: The most fetches at once (at least 1).
    public init(limit: Int) {
        self.limit = max(1, limit)
        state = Mutex(State(available: max(1, limit)))
    }

    /// Runs `body`, a fetch of the source `key`, holding a permit: first waiting for one when all are
    /// held, unless the source is expedited meanwhile.
    public func withPermit<Result, Failure: Error>(for key: String, _ body: () async throws(Failure) -> Result) async throws(Failure) -> Result {
        let holdsPermit = await acquire(key)
        defer { if holdsPermit { release() } }
        return try await body()
    }

    /// Lets the fetches of `key` waiting for a permit start now, without one.
    public func expedite(_ key: String) {
        let expedited = state.withLock { state in
            let waiters = state.waiting.filter { $0.key == key }
            state.waiting.removeAll { $0.key == key }
            return waiters
        }
        for waiter in expedited { waiter.continuation.resume(returning: false) }
    }

    /// How many fetches hold a permit now.
    public var held: Int { state.withLock { limit - $0.available } }

    /// How many fetches wait for a permit.
    public var waiting: Int { state.withLock { $0.waiting.count } }

    private func acquire(_ key: String) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let granted = state.withLock { state in
                guard state.available > 0 else {
                    state.waiting.append(Waiter(key: key, continuation: continuation))
                    return false
                }
                state.available -= 1
                return true
            }
            if granted { continuation.resume(returning: true) }
        }
    }

    private func release() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiting.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiting.removeFirst()  // the permit passes on, in the order asked
        }
        next?.continuation.resume(returning: true)
    }
}
