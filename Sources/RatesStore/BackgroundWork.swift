import Dispatch

/// A computation started on another thread, whose result is waited for where it is needed: an
/// ingest merges the days while its transaction stores the quotes, since the merge reads the
/// quotes from memory and not from the database.
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    // `result` is written once, before `done` is signalled, and read only after waiting for it.
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Value, any Error>?

    /// Starts `work` on a global queue.
    init(_ work: @escaping @Sendable () throws -> Value) {
        DispatchQueue.global().async {
            self.result = Result { try work() }
            self.done.signal()
        }
    }

    /// What the work returned, once it has finished.
    ///
    /// - Throws: What the work threw.
    func value() throws -> Value {
        done.wait()
        defer { done.signal() }
        return try result!.get()
    }
}
