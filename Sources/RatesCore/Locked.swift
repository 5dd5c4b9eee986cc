import Foundation

/// A value that threads share, reachable only while holding its lock.
///
/// The SDK's stand-in for `Synchronization.Mutex`, which needs iOS 18 / macOS 15 / tvOS 18 /
/// watchOS 11 / visionOS 2 while `RatesCore` and `RatesClient` support iOS 16 / macOS 13 /
/// tvOS 16 / watchOS 9 / visionOS 1 (README, "Platforms"; `Scripts/check-platform-floor.sh`
/// keeps newer APIs out of both). `NSLock` exists on all of them and on Linux.
///
/// Keep the closures short and never call back into the same `Locked` from one: the lock is
/// not recursive. `Value` is `Sendable`, so what a closure copies out is safe to use anywhere.
///
/// ```swift
/// let hits = Locked(0)
/// hits.withLock { $0 += 1 }
/// let count = hits.withLock { $0 }
/// ```
package final class Locked<Value: Sendable>: @unchecked Sendable {
    // `value` is read and written only inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    /// A lock guarding `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value; returns what `body` returns.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
