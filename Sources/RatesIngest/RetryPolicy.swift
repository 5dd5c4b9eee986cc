import Foundation

/// How long to wait after consecutive failed fetches: exponential backoff with jitter.
///
/// The step doubles per failure from `initial` up to `maximum`; the wait is half the step
/// plus a random part of up to the other half ("equal jitter"), so many instances that
/// failed together do not retry together. A `Retry-After` from the upstream wins when longer.
struct RetryPolicy: Sendable {
    var initial: TimeInterval
    var maximum: TimeInterval

    /// The wait after `failures` consecutive failures (1 or more), given a random fraction in 0...1.
    func delay(afterFailures failures: Int, retryAfter: TimeInterval? = nil, random: Double = .random(in: 0...1)) -> TimeInterval {
        let step = min(maximum, initial * pow(2, Double(min(max(failures, 1) - 1, 30))))
        return max(step / 2 + step / 2 * random, retryAfter ?? 0)
    }
}
