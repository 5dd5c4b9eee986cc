import Foundation
import Synchronization

/// Announces new publications to `/v1/events` subscribers.
///
/// A subscriber is one stream and nothing else: no task or timer of its own. Keep-alive ticks
/// (``keepAlive()``) reach every stream from one caller, and a slow subscriber holds at most its
/// newest few events (older ones are dropped), so one stuck client cannot grow the server's memory.
public final class PublicationEvents: Sendable {
    /// One announcement: the dataset changed.
    public struct Event: Sendable, Equatable {
        public var epoch: String
        public var cursor: String
        public var latestDate: String
    }

    /// Events a subscriber that has not read yet holds at most: a publication and the ticks after it.
    static let buffered = 4

    private let subscribers = Mutex<[UUID: AsyncStream<Event?>.Continuation]>([:])

    public init() {}

    /// What the subscriber is told from now on: each publication, and `nil` for each keep-alive
    /// tick; `nil` instead of a stream when `limit` subscribers listen already. The stream ends when
    /// the subscriber stops iterating or ``finishAll()`` is called.
    public func subscribe(limit: Int = .max) -> AsyncStream<Event?>? {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Event?.self, bufferingPolicy: .bufferingNewest(Self.buffered))
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        let added = subscribers.withLock { subscribers in
            guard subscribers.count < limit else { return false }
            subscribers[id] = continuation
            return true
        }
        guard added else {
            continuation.finish()
            return nil
        }
        return stream
    }

    public func publish(_ event: Event) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    /// Tells every subscriber to send a keep-alive.
    public func keepAlive() {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(nil) }
    }

    /// Ends every stream (on shutdown).
    public func finishAll() {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() }
    }

    /// How many clients are listening.
    public var subscriberCount: Int { subscribers.withLock { $0.count } }
}
