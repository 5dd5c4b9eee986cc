import Testing

/// How long a wait for an event may take before it counts as a failure: a bound that only an event
/// that never comes reaches, however loaded the machine. Two minutes: CPU-bound suites running
/// beside a test can hold both cooperative threads of a 2-core machine for about a minute.
///
/// Only a hang waits this long. A wait that can tell its event will no longer come ends at once: its
/// condition throws ``WaitFailure`` (``TestClientProtocol/poll(_:)`` does when the server fails).
package let waitLimit = Duration.seconds(120)

/// What a wait's condition throws when the event it waits for can no longer come (the server
/// answered an error, the process that was to bring it has exited): the wait ends at once, as a failure.
package struct WaitFailure: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// Waits for an event, not for time: polls `condition` until it holds, and records an issue
/// naming `what` (then throws) once `deadline` has passed, or at once when `condition` throws
/// ``WaitFailure``; any other error `condition` throws ends the wait too.
package func waitUntil(_ what: String, deadline: Duration = waitLimit, _ condition: () async throws -> Bool) async throws {
    let end = ContinuousClock.now + deadline
    while true {
        do {
            if try await condition() { return }
        } catch let failure as WaitFailure {
            throw WaitFailure("stopped waiting until \(what): \(failure)")
        }
        guard ContinuousClock.now < end else {
            Issue.record("timed out waiting until \(what)")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// Polls `condition` until it holds or `timeout` runs out; the caller's expectations then say which.
/// A condition that can tell its event will no longer come should hold then too (a wait for syncs
/// that also holds once one failed), so that the wait ends at once and the expectations say what went wrong.
package func waitUntil(timeout: Duration = waitLimit, _ condition: () -> Bool) async {
    let deadline = ContinuousClock.now + timeout
    while !condition() && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
}
