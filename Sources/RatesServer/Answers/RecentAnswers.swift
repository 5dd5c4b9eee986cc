import NIOCore
import Synchronization

/// The fast path's last answers as bytes (head through `Content-Length`, and body), by request
/// target and what else decides them, with what counts them.
///
/// A client asking for the same target as the one before, in the same generation and second,
/// with the same `Accept-Encoding` verdict and `If-None-Match`, gets the same answer but for its
/// `X-Request-ID` and `Date`. Finding the prepared answer, choosing its form and status, writing
/// a dozen headers one by one and finding the route's counters took half of the fast path's
/// time; a repeated answer skips all of it. The table is small and direct-mapped by the
/// target's hash: a target sharing its slot with another busy one is only prepared afresh more
/// often. Its memory is bounded whatever the load: an answer is held only when it is at most a
/// slot's share of `capacity` (the ``ResponseCache``'s bound, whose bodies it mostly shares), so a
/// cache configured to keep nothing makes every answer afresh.
final class RecentAnswers: Sendable {
    /// What decides an answer.
    struct Key: Equatable, Sendable {
        var target: String
        var generation: Int64
        var acceptsGzip: Bool
        var ifNoneMatch: String?
        /// The tag and `Cache-Control` (which counts down each second) of the dataset's answers now.
        var etag: String
        var cacheControl: String
    }

    /// An answer as sent, but for its `X-Request-ID` and `Date`.
    struct Answer: Sendable {
        /// The status line and the headers through `Content-Length`.
        var head: ByteBuffer
        var body: ByteBuffer?
        var route: Route
        var isNotModified: Bool
        var recorder: ServerMetrics.RequestRecorder
    }

    private let slots: Mutex<[(key: Key, answer: Answer)?]>
    private let mask: Int
    /// The largest answer held, in bytes (head and body).
    private let maxAnswerBytes: Int

    /// A table of `slotCount` answers (a power of two) holding at most `capacity` bytes of them.
    init(slotCount: Int = 64, capacity: Int) {
        precondition(slotCount > 0 && slotCount & (slotCount - 1) == 0, "slotCount must be a power of two")
        slots = Mutex(Array(repeating: nil, count: slotCount))
        mask = slotCount - 1
        maxAnswerBytes = capacity / slotCount
    }

    /// The answer `key` describes, made by `make` when it is not the one held (and then held if it
    /// is small enough); `nil` when `make` gives none.
    func answer(for key: Key, make: () -> Answer?) -> Answer? {
        let slot = key.target.hashValue & mask
        if let held = slots.withLock({ slots in slots[slot].flatMap { $0.key == key ? $0.answer : nil } }) {
            return held
        }
        guard let made = make() else { return nil }
        if made.head.readableBytes + (made.body?.readableBytes ?? 0) <= maxAnswerBytes { slots.withLock { $0[slot] = (key, made) } }
        return made
    }
}
