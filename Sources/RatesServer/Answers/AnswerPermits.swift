import Synchronization
import RatesIngest

/// The permits for heavy answers: those built from more than a few weeks of publications, or from
/// the providers' quotes in the store (`providers=`, `expand=`), when no prepared copy is cached.
///
/// A handful at once keeps the rest of the server fast while they run (the fast path's answers
/// need a core too); past that a request is refused at once with `503` and `Retry-After`
/// (``Problem/busy``) rather than queued, so clients and proxies never wait on a queue they cannot
/// see. When the last heavy answer in progress ends, the heap pages its work freed are handed
/// back to the system (``RatesIngest/Allocator/returnFreedMemory()``), as after an ingest.
final class AnswerPermits: Sendable {
    /// The default number of heavy answers in progress at once (`answers.heavy.concurrency`).
    static let defaultLimit = 2

    /// How many may be out at once.
    let limit: Int
    private let inUse = Mutex(0)
    /// Shows the answers in progress and counts refusals, when given.
    private let metrics: ServerMetrics?

    init(limit: Int = AnswerPermits.defaultLimit, metrics: ServerMetrics? = nil) {
        self.limit = max(1, limit)
        self.metrics = metrics
    }

    /// A permit, or `nil` when all are out (the request is refused, and counted).
    func acquire() -> Permit? {
        let granted: Int? = inUse.withLock { count in
            guard count < limit else { return nil }
            count += 1
            return count
        }
        guard let granted else {
            metrics?.recordRefusal(busy: true)
            return nil
        }
        metrics?.recordHeavyAnswers(inProgress: granted)
        return Permit(pool: self)
    }

    fileprivate func release() {
        let remaining = inUse.withLock { count in
            count -= 1
            return count
        }
        metrics?.recordHeavyAnswers(inProgress: remaining)
        if remaining == 0 { Allocator.returnFreedMemory() }
    }

    /// One heavy answer's right to run; given back by ``release()`` (once, whatever calls it) or when let go.
    final class Permit: Sendable {
        private let pool: AnswerPermits
        private let released = Atomic<Bool>(false)

        fileprivate init(pool: AnswerPermits) {
            self.pool = pool
        }

        func release() {
            guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
            pool.release()
        }

        deinit { release() }
    }
}
