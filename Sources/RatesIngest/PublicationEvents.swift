import Foundation
import Synchronization

/// Announces new publications to `/v1/events` subscribers.
///
/// A subscriber is a registration (``Subscriber``) and nothing else: no task or timer of its own.
/// Keep-alive ticks (``keepAlive()``) reach every subscriber from one caller; a subscriber that
/// reads through a stream (``stream(limit:)``) holds at most its newest few events (older ones are
/// dropped), so one stuck client cannot grow the server's memory.
public final class PublicationEvents: Sendable {
    /// One announcement: the dataset changed.
    public struct Event: Sendable, Equatable {
        public var epoch: String
        public var cursor: String
        public var latestDate: String
    }

    /// What one subscriber is told: each publication, `nil` for each keep-alive tick, and that the
    /// stream ends. Called from whichever thread publishes: a subscriber hops to its own.
    public struct Subscriber: Sendable {
        public var receive: @Sendable (Event?) -> Void
        public var finish: @Sendable () -> Void

        public init(receive: @escaping @Sendable (Event?) -> Void, finish: @escaping @Sendable () -> Void) {
            self.receive = receive
            self.finish = finish
        }
    }

    /// Events a stream's reader that has not read yet holds at most: a publication and the ticks after it.
    static let buffered = 4

    private let subscribers = Mutex<[UUID: Subscriber]>([:])

    public init() {}

    /// Adds `subscriber` unless `limit` subscribers listen already; the ID ``unsubscribe(_:)`` takes, or `nil`.
    public func subscribe(limit: Int = .max, _ subscriber: Subscriber) -> UUID? {
        let id = UUID()
        return subscribers.withLock { subscribers in
            guard subscribers.count < limit else { return nil }
            subscribers[id] = subscriber
            return id
        }
    }

    /// Removes the subscriber `id`, which is told nothing more.
    public func unsubscribe(_ id: UUID) {
        _ = subscribers.withLock { $0.removeValue(forKey: id) }
    }

    /// A subscriber as a stream of what it is told (``Subscriber``), or `nil` when `limit`
    /// subscribers listen already; it ends when its reader stops iterating or ``finishAll()`` is called.
    public func stream(limit: Int = .max) -> AsyncStream<Event?>? {
        let (stream, continuation) = AsyncStream.makeStream(of: Event?.self, bufferingPolicy: .bufferingNewest(Self.buffered))
        guard let id = subscribe(limit: limit, Subscriber(receive: { continuation.yield($0) }, finish: { continuation.finish() })) else {
            return nil
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }

    public func publish(_ event: Event) {
        for subscriber in subscribers.withLock({ Array($0.values) }) { subscriber.receive(event) }
    }

    /// Tells every subscriber to send a keep-alive.
    public func keepAlive() {
        for subscriber in subscribers.withLock({ Array($0.values) }) { subscriber.receive(nil) }
    }

    /// Ends every subscriber's stream (on shutdown); they are told nothing more.
    public func finishAll() {
        for subscriber in subscribers.withLock({ subscribers in defer { subscribers.removeAll() }; return Array(subscribers.values) }) {
            subscriber.finish()
        }
    }

    /// How many clients are listening.
    public var subscriberCount: Int { subscribers.withLock { $0.count } }
}
