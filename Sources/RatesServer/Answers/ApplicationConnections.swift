import ServiceLifecycle
import Synchronization

/// The request loops of the connections that hand requests on to the application, each a task of
/// this service's.
///
/// A connection gets its request loop (the framework's, over an async channel) only when it first
/// hands a request on to the application (``FastPathHTTP1Channel``): a connection the fast path
/// answers whole, or one carrying an event stream, never has a loop nor a task of its own, each of
/// which would cost a few kilobytes a connection. The service is one of the application's, so it
/// shuts down after the server, whose shutdown waits for every connection to close: by then no
/// loop is left.
final class ApplicationConnections: Service, Sendable {
    typealias Loop = @Sendable () async -> Void

    private let loops: AsyncStream<Loop>
    /// `nil` once the service shuts down: no loop starts after that.
    private let continuation: Mutex<AsyncStream<Loop>.Continuation?>

    init() {
        let (loops, continuation) = AsyncStream.makeStream(of: Loop.self)
        self.loops = loops
        self.continuation = Mutex(continuation)
    }

    /// Starts the loop `makeLoop` makes, as a task of this service's; `false`, and `makeLoop` not
    /// called, once the service has shut down.
    func start(_ makeLoop: () throws -> Loop) rethrows -> Bool {
        try continuation.withLock { continuation in
            guard let continuation else { return false }
            continuation.yield(try makeLoop())
            return true
        }
    }

    func run() async {
        await withDiscardingTaskGroup { group in
            await withGracefulShutdownHandler {
                for await loop in loops { group.addTask(operation: loop) }
            } onGracefulShutdown: {
                self.continuation.withLock { continuation in
                    continuation?.finish()
                    continuation = nil
                }
            }
        }
    }
}
