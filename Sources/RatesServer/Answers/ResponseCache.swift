import CompressNIO
import NIOCore
import Synchronization

/// Response bodies prepared once per request target and generation (``Freshness/generation``:
/// the dataset version, and the publication expected while it is overdue).
///
/// The data changes about once a day, so a body is computed on first request and then
/// served as stored bytes until the generation changes, which empties the cache. Each
/// body is gzip-compressed once, when it is stored, for the clients that accept it.
final class ResponseCache: Sendable {
    /// A prepared answer.
    struct Entry: Sendable {
        var body: ByteBuffer
        /// The route that answered, for metrics.
        var route: Route
        /// How long clients may keep it.
        var caching: CacheControlPolicy.Caching
        /// `body` gzip-compressed; `nil` when compressing would not pay (small bodies).
        var gzipped: ByteBuffer?
        /// The `Rates-Stale` header: set when the answer comes from an overdue newest publication.
        var staleNotice: String?

        init(body: ByteBuffer, route: Route, caching: CacheControlPolicy.Caching, staleNotice: String? = nil) {
            self.body = body
            self.route = route
            self.caching = caching
            self.staleNotice = staleNotice
        }

        /// Bodies smaller than this go out as they are: the gzip header and a round trip of
        /// CPU cost more than the bytes saved.
        static let compressionThreshold = 512

        /// This entry with ``gzipped`` filled in when it saves bytes.
        func compressed() -> Entry {
            guard body.readableBytes >= Self.compressionThreshold else { return self }
            var source = body
            guard let gzipped = try? source.compress(with: .gzip()), gzipped.readableBytes < body.readableBytes else { return self }
            var entry = self
            entry.gzipped = gzipped
            return entry
        }
    }

    private struct Storage {
        var generation: Int64 = -1
        var bodies: [String: Entry] = [:]
    }

    private let storage = Mutex(Storage())
    /// Most bodies kept; past it the cache starts over (a cheap bound against unbounded key sets).
    let capacity: Int

    /// Counts hits and misses when given.
    let metrics: ServerMetrics?

    init(capacity: Int = 4096, metrics: ServerMetrics? = nil) {
        self.capacity = capacity
        self.metrics = metrics
    }

    /// The answer stored for `key` in `generation`, if it was prepared.
    ///
    /// For the fast path: a hit counts as a lookup; a miss does not, since the request goes on
    /// to ``entry(for:generation:build:)``, which counts it. Each request counts once.
    func cached(for key: String, generation: Int64) -> Entry? {
        let cached = stored(for: key, generation: generation)
        if cached != nil { metrics?.recordCacheLookup(hit: true) }
        return cached
    }

    private func stored(for key: String, generation: Int64) -> Entry? {
        storage.withLock { storage in storage.generation == generation ? storage.bodies[key] : nil }
    }

    /// The answer stored for `key` in `generation`, building and storing it when missing.
    ///
    /// - Throws: Whatever `build` throws; nothing is stored then.
    func entry<Failure: Error>(for key: String, generation: Int64, build: () throws(Failure) -> Entry) throws(Failure) -> Entry {
        let stored = stored(for: key, generation: generation)
        metrics?.recordCacheLookup(hit: stored != nil)
        if let stored { return stored }
        let entry = try build().compressed()
        storage.withLock { storage in
            if storage.generation != generation || storage.bodies.count >= capacity {
                storage = Storage(generation: generation, bodies: [:])
            }
            storage.bodies[key] = entry
        }
        return entry
    }
}
