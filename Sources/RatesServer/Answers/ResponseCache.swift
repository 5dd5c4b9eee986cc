import CompressNIO
import Hummingbird
import NIOCore
import Synchronization

/// Response bodies prepared once per request target and generation (``Freshness/generation``:
/// the dataset version, and the publication expected while it is overdue).
///
/// The data changes about once a day, so a body is computed on first request and then served
/// as stored bytes until the generation changes, which empties the cache. The cache is bounded
/// by bytes, not entries: when a new answer does not fit, the least recently used ones make
/// room one at a time (CLOCK: each entry carries a "used since the hand last passed" bit), so
/// a workload with more distinct requests than fit keeps its popular answers. A body is
/// gzip-compressed only when a client that accepts gzip asks for it; the compressed form is
/// then kept beside it.
final class ResponseCache: Sendable {
    /// A prepared answer.
    struct Entry: Sendable {
        var body: ByteBuffer
        /// The route that answered, for metrics.
        var route: Route
        /// How long clients may keep it.
        var caching: CacheControlPolicy.Caching
        /// The `Rates-Stale` header: set when the answer comes from an overdue newest publication.
        var staleNotice: String?
        /// The format chosen by `Accept`, for a route that offers several (``Route/negotiatesFormat``).
        var format = AnswerFormat.json
        /// The gzip form, once a client that accepts gzip has asked.
        fileprivate(set) var compression = Compression.notYet

        /// What is known of the gzip form.
        enum Compression: Sendable {
            /// Nobody asked for it yet.
            case notYet
            case compressed(ByteBuffer)
            /// Compressing saved nothing.
            case notWorthIt
        }

        /// - Parameter body: Kept in a buffer of its own size (a writer's buffer has grown in
        ///   powers of two), so what the cache holds is what ``cost`` counts.
        init(body: ByteBuffer, route: Route, caching: CacheControlPolicy.Caching, staleNotice: String? = nil, format: AnswerFormat = .json) {
            if body.capacity - body.readableBytes > 64 {
                var exact = ByteBufferAllocator().buffer(capacity: body.readableBytes)
                exact.writeImmutableBuffer(body)
                self.body = exact
            } else {
                self.body = body
            }
            self.route = route
            self.caching = caching
            self.staleNotice = staleNotice
            self.format = format
        }

        /// The media type sent: the route's, or the negotiated format's.
        var contentType: String { format == .json ? route.contentType : format.contentType }

        /// Bodies smaller than this go out as they are: the gzip header and a round trip of
        /// CPU cost more than the bytes saved.
        static let compressionThreshold = 512

        /// Whether the answer has a gzip form, so it varies by `Accept-Encoding`.
        var isCompressible: Bool { body.readableBytes >= Self.compressionThreshold }

        /// The gzip form, when it has been made and pays.
        var gzipped: ByteBuffer? {
            if case .compressed(let gzipped) = compression { gzipped } else { nil }
        }

        /// Bytes this entry holds, for the cache's bound: its buffers, and an allowance for its key,
        /// slot and index entry (measured: about 350 bytes for a typical request target).
        var cost: Int { body.readableBytes + (gzipped?.readableBytes ?? 0) + 384 }

        /// This entry with its gzip form made, if it needs one and has none yet.
        fileprivate func compressed() -> Entry {
            guard isCompressible, case .notYet = compression else { return self }
            var entry = self
            entry.compression = Self.gzipForm(of: body).map { .compressed($0) } ?? .notWorthIt
            return entry
        }

        /// `body` gzip-compressed, or `nil` when that saves nothing; the web page's files are compressed this way too.
        static func gzipForm(of body: ByteBuffer) -> ByteBuffer? {
            var source = body
            guard let gzipped = try? source.compress(with: .gzip()), gzipped.readableBytes < body.readableBytes else { return nil }
            return gzipped
        }
    }

    /// The default bound (`answers.cache.bytes`): about 4,000 answers of a kilobyte, 6,000 of a
    /// typical 300-byte one. Measured with `Scripts/measure-mixed.sh`, it keeps the server under
    /// 60 MB after 60,000 distinct requests; a server with memory to spare can keep more.
    static let defaultCapacity = 4 << 20

    private let storage: Mutex<Storage>
    /// Counts hits and misses when given.
    let metrics: ServerMetrics?

    /// A cache holding at most `capacity` bytes of answers.
    init(capacity: Int = ResponseCache.defaultCapacity, metrics: ServerMetrics? = nil) {
        storage = Mutex(Storage(capacity: capacity))
        self.metrics = metrics
    }

    /// The bound, in bytes.
    var capacity: Int { storage.withLock { $0.capacity } }

    /// The answer stored for `key` in `generation`, if it was prepared, with its gzip form when `gzip`:
    /// a gzip form missing is made now (outside the lock) and kept.
    ///
    /// For the fast path: a hit counts as a lookup; a miss does not, since what builds the answer
    /// then counts it (``entry(for:generation:gzip:build:)`` does, and so do the fast path and the
    /// routes before they ``insert(_:for:generation:gzip:)`` it). Each request counts once.
    func cached(for key: String, generation: Int64, gzip: Bool) -> Entry? {
        guard let entry = storage.withLock({ $0.lookup(key, generation: generation) }) else { return nil }
        metrics?.recordCacheLookup(hit: true)
        guard gzip, entry.isCompressible, case .notYet = entry.compression else { return entry }
        return insert(entry, for: key, generation: generation, gzip: true)
    }

    /// The answer stored for `key` in `generation`, building and storing it when missing; with
    /// its gzip form when `gzip`.
    ///
    /// - Throws: Whatever `build` throws; nothing is stored then.
    func entry<Failure: Error>(for key: String, generation: Int64, gzip: Bool, build: () throws(Failure) -> Entry) throws(Failure) -> Entry {
        if let stored = cached(for: key, generation: generation, gzip: gzip) { return stored }
        metrics?.recordCacheLookup(hit: false)
        return insert(try build(), for: key, generation: generation, gzip: gzip)
    }

    /// Stores `entry` for `key` in `generation`, a miss counted already; returns it with its gzip form when `gzip`.
    func insert(_ entry: Entry, for key: String, generation: Int64, gzip: Bool) -> Entry {
        let stored = gzip ? entry.compressed() : entry
        storage.withLock { $0.insert(key, stored, generation: generation) }
        return stored
    }

    /// The answer to `request` (an application route's) from the entry prepared for its target (and
    /// `format`, when not JSON) in `freshness`'s generation, built by `build` when missing.
    ///
    /// - Throws: Whatever `build` throws; nothing is stored then.
    func answer(
        to request: Request, format: AnswerFormat = .json, freshness: Freshness, policy: CacheControlPolicy, build: () throws(Problem) -> Entry
    ) throws(Problem) -> PreparedAnswer {
        let acceptsGzip = PreparedAnswer.acceptsGzip(request.headers[values: .acceptEncoding])
        let entry = try entry(for: Self.key(of: request, format: format), generation: freshness.generation, gzip: acceptsGzip, build: build)
        return PreparedAnswer(ifNoneMatch: request.headers[.ifNoneMatch], acceptsGzip: acceptsGzip, entry: entry, freshness: freshness, policy: policy)
    }

    /// The key of `request`'s answer in `format`: its target, and the format when not JSON.
    static func key(of request: Request, format: AnswerFormat) -> String {
        // A request target has no space: the format after one cannot be mistaken for another target.
        format == .json ? request.uri.description : request.uri.description + " " + format.rawValue
    }

    /// How many answers and bytes the cache holds (for tests and diagnostics).
    var usage: (entries: Int, bytes: Int) { storage.withLock { ($0.index.count, $0.bytes) } }
}

// MARK: - Storage

extension ResponseCache {
    /// The entries of one generation in CLOCK slots, and their total cost.
    private struct Storage {
        struct Slot {
            var key: Key
            var entry: Entry
            /// Used since the hand last passed.
            var referenced: Bool
        }

        /// A request target with its hash computed once: an eviction's removal from the index
        /// rehashes the keys it shifts, which would otherwise hash each target's bytes again.
        struct Key: Hashable {
            let target: String
            let hash: Int

            init(_ target: String) {
                self.target = target
                hash = target.hashValue
            }

            static func == (lhs: Key, rhs: Key) -> Bool { lhs.hash == rhs.hash && lhs.target == rhs.target }
            func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        }

        let capacity: Int
        var generation: Int64 = -1
        var index: [Key: Int] = [:]
        var slots: [Slot?] = []
        var freeSlots: [Int] = []
        var hand = 0
        var bytes = 0

        mutating func lookup(_ target: String, generation: Int64) -> Entry? {
            guard generation == self.generation, let slot = index[Key(target)] else { return nil }
            slots[slot]!.referenced = true
            return slots[slot]!.entry
        }

        /// Stores `entry` under `target`, replacing what was there; makes room first, and keeps
        /// nothing larger than the whole cache.
        mutating func insert(_ target: String, _ entry: Entry, generation: Int64) {
            if generation != self.generation { self = Storage(capacity: capacity, generation: generation) }
            let key = Key(target)
            if let slot = index[key] {
                bytes += entry.cost - slots[slot]!.entry.cost
                slots[slot]!.entry = entry
                slots[slot]!.referenced = true
            } else {
                guard entry.cost <= capacity else { return }
                while bytes + entry.cost > capacity, !index.isEmpty { evictOne() }
                let slot = Slot(key: key, entry: entry, referenced: false)
                if let free = freeSlots.popLast() {
                    slots[free] = slot
                    index[key] = free
                } else {
                    slots.append(slot)
                    index[key] = slots.count - 1
                }
                bytes += entry.cost
            }
            while bytes > capacity, index.count > 1 { evictOne() }
        }

        /// Evicts the first entry the hand finds unused since its last pass, clearing bits as it goes.
        private mutating func evictOne() {
            while true {
                if hand >= slots.count { hand = 0 }
                defer { hand += 1 }
                guard let slot = slots[hand] else { continue }
                if slot.referenced {
                    slots[hand]!.referenced = false
                    continue
                }
                index[slot.key] = nil
                bytes -= slot.entry.cost
                slots[hand] = nil
                freeSlots.append(hand)
                return
            }
        }
    }
}
