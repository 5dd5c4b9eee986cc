import Testing

/// How long a wait for an event may take before it counts as a failure: two minutes of the time the
/// machine gave the wait (``WaitBudget``), which only an event that never comes uses up.
///
/// Only a hang waits this long. A wait that can tell its event will no longer come ends at once: its
/// condition throws ``WaitFailure`` (``TestClientProtocol/poll(_:)`` does when the server fails).
package let waitLimit = Duration.seconds(120)

/// The time a wait was given, against its limit.
///
/// A test's tasks share the cooperative pool with every other test's, and on a 2-core machine
/// CPU-bound suites can hold both of its threads for minutes (in a full `swift test` here, a parser
/// test of microseconds took six and a half). A waiter that wakes after such a stall would find a
/// limit of wall time passed while the event it waits for, held up by the same stall, has not had
/// its turn yet. So each pause counts for at most what was asked of it plus a second: the time the
/// machine withheld from the wait does not count, and a real hang still ends after a bounded
/// number of polls.
package struct WaitBudget {
    package let limit: Duration
    private var used = Duration.zero
    private var last = ContinuousClock.now

    package init(_ limit: Duration) {
        self.limit = limit
    }

    /// Counts the time since the last call (or the start), at most `pause` and a second, and says
    /// whether the limit is used up.
    package mutating func isSpent(pausing pause: Duration) -> Bool {
        let now = ContinuousClock.now
        used += min(now - last, pause + .seconds(1))
        last = now
        return used >= limit
    }
}

/// What a wait's condition throws when the event it waits for can no longer come (the server
/// answered an error, the process that was to bring it has exited): the wait ends at once, as a failure.
package struct WaitFailure: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// Waits for an event, not for time: polls `condition` until it holds, and records an issue
/// naming `what` (then throws) once `deadline` of the time given to the wait (``WaitBudget``) is
/// used up, or at once when `condition` throws ``WaitFailure``; any other error `condition` throws
/// ends the wait too.
package func waitUntil(_ what: String, deadline: Duration = waitLimit, _ condition: () async throws -> Bool) async throws {
    var budget = WaitBudget(deadline)
    let pause = Duration.milliseconds(10)
    while true {
        do {
            if try await condition() { return }
        } catch let failure as WaitFailure {
            throw WaitFailure("stopped waiting until \(what): \(failure)")
        }
        guard !budget.isSpent(pausing: pause) else {
            Issue.record("timed out waiting until \(what)")
            throw CancellationError()
        }
        try await Task.sleep(for: pause)
    }
}

/// Polls `condition` until it holds or `timeout` of the time given to the wait (``WaitBudget``) is
/// used up; the caller's expectations then say which. A condition that can tell its event will no
/// longer come should hold then too (a wait for syncs that also holds once one failed), so that the
/// wait ends at once and the expectations say what went wrong.
package func waitUntil(timeout: Duration = waitLimit, _ condition: () -> Bool) async {
    var budget = WaitBudget(timeout)
    let pause = Duration.milliseconds(5)
    while !condition() && !budget.isSpent(pausing: pause) { try? await Task.sleep(for: pause) }
}
