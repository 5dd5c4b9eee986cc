import Testing

/// Waits for an event, not for time: polls `condition` until it holds, and records an issue
/// naming `what` (then throws) once `deadline` has passed, a bound generous enough that only a
/// condition that never comes reaches it, however loaded the machine: five minutes, since CPU-bound
/// suites running beside a test can hold both cooperative threads of a 2-core machine for a minute.
package func waitUntil(_ what: String, deadline: Duration = .seconds(300), _ condition: () async throws -> Bool) async throws {
    let end = ContinuousClock.now + deadline
    while try await !condition() {
        guard ContinuousClock.now < end else {
            Issue.record("timed out waiting until \(what)")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// Polls `condition` until it holds or `timeout` runs out; the caller's expectations then say which.
package func waitUntil(timeout: Duration = .seconds(300), _ condition: () -> Bool) async {
    let deadline = ContinuousClock.now + timeout
    while !condition() && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
}
