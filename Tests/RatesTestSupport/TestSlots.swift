/// At most ``width`` tests hold a test database (and so, nearly always, run a server on it) at
/// once, across every suite of the test process.
///
/// Swift Testing runs every test in parallel; on a 2-core machine, forty servers each answering a
/// test's bursts starve one another until a request outlives the test client's fixed 20-second
/// read timeout, and tests fail for the machine's sake, not the code's. A test waits for a slot
/// before its database exists, so waiting never counts against any of its own time bounds. A task
/// already holding a slot (a test with two databases) takes no second one, so slots cannot deadlock.
package actor TestSlots {
    /// How many tests hold a database at once.
    package static let width = 4
    static let shared = TestSlots()
    @TaskLocal static var isHolding = false

    private var free = TestSlots.width
    private var waiting: [CheckedContinuation<Void, Never>] = []

    private func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }

    /// Runs `body` holding a slot.
    static func holding<Result>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result) async throws -> Result {
        if isHolding { return try await body() }
        await shared.acquire()
        do {
            let result = try await $isHolding.withValue(true) { try await body() }
            await shared.release()
            return result
        } catch {
            await shared.release()
            throw error
        }
    }
}
