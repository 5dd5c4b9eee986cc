/// Exponential backoff with jitter, declared once: the server's failed fetches, the SDK's request
/// retries and its auto-refresh while offline all wait by it.
///
/// The step doubles per consecutive failure from `initial` up to `maximum`; the wait is drawn
/// below the step, so that many instances that failed together do not come back together.
///
/// ```swift
/// let backoff = Backoff(initial: .seconds(30), maximum: .seconds(1800))
/// backoff.step(afterFailures: 3)                                    // 120 s
/// backoff.delay(afterFailures: 3, jitter: .equal, random: 0.5)      // 90 s
/// ```
public struct Backoff: Sendable, Hashable {
    /// How the wait is drawn below the step.
    public enum Jitter: Sendable, Hashable {
        /// Anywhere from zero to the step: spreads clients furthest.
        case full
        /// From half the step to the step: never retries too soon, still spread.
        case equal
    }

    /// The step after the first failure.
    public var initial: Duration
    /// The longest step.
    public var maximum: Duration

    public init(initial: Duration, maximum: Duration) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The step after `failures` consecutive failures (1 or more): `min(maximum, initial · 2^(failures-1))`.
    public func step(afterFailures failures: Int) -> Duration {
        let exponent = min(max(failures, 1) - 1, 62)
        return min(maximum, initial * Double(1 << exponent))
    }

    /// The wait after `failures` consecutive failures, for a `random` fraction in `0...1`.
    public func delay(afterFailures failures: Int, jitter: Jitter, random: Double) -> Duration {
        let step = step(afterFailures: failures)
        switch jitter {
        case .full: return step * random
        case .equal: return step / 2 + step / 2 * random
        }
    }
}
