import Foundation
import Synchronization

/// Announces new publications to `/v1/events` subscribers.
///
/// Each subscriber gets its own stream; a slow subscriber only ever holds the newest event
/// (older ones are dropped), so one stuck client cannot grow the server's memory.
public final class PublicationEvents: Sendable {
    /// One announcement: the dataset changed.
    public struct Event: Sendable, Equatable {
        public var epoch: String
        public var cursor: String
        public var latestDate: String
    }

    private let subscribers = Mutex<[UUID: AsyncStream<Event>.Continuation]>([:])

    public init() {}

    /// A stream of events from now on; it ends when the subscriber stops iterating or `finishAll` is called.
    public func subscribe() -> AsyncStream<Event> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1))
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    public func publish(_ event: Event) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    /// Ends every stream (on shutdown).
    public func finishAll() {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() }
    }

    /// How many clients are listening.
    public var subscriberCount: Int { subscribers.withLock { $0.count } }
}
