import Synchronization

/// How many sources may be fetched at once, across every source a server fetches: each fetch holds
/// one permit from its first request to its last answer, and a fetch without a permit waits for one.
///
/// With a hundred sources, a start with nothing stored would otherwise open hundreds of connections
/// at once. A source that hangs holds its permit only until its request timeout, so it delays the
/// others by at most that, and never while permits are free.
public final class FetchPermits: Sendable {
    private struct State {
        var available: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>
    /// The most fetches at once.
    public let limit: Int

    /// - Parameter limit: The most fetches at once (at least 1).
    public init(limit: Int) {
        self.limit = max(1, limit)
        state = Mutex(State(available: max(1, limit)))
    }

    /// Runs `body` holding a permit, waiting for one first when all are held.
    public func withPermit<Result, Failure: Error>(_ body: () async throws(Failure) -> Result) async throws(Failure) -> Result {
        await acquire()
        defer { release() }
        return try await body()
    }

    /// How many fetches hold a permit now.
    public var held: Int { state.withLock { limit - $0.available } }

    /// How many fetches wait for a permit.
    public var waiting: Int { state.withLock { $0.waiting.count } }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                guard state.available > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.available -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiting.removeFirst()  // the permit passes on, in the order asked
        }
        next?.resume()
    }
}
