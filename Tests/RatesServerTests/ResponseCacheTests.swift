import NIOCore
@testable import RatesServer
import Testing

@Suite("Prepared-answer cache")
struct ResponseCacheTests {
    /// A JSON-like body of `size` bytes that compresses well.
    static func body(_ size: Int) -> ByteBuffer {
        ByteBuffer(string: String(repeating: "{\"USD\":1.1172,\"JPY\":175.68}", count: size / 28 + 1).prefix(size).description)
    }

    static func entry(_ size: Int) -> ResponseCache.Entry {
        ResponseCache.Entry(body: body(size), route: .latest, caching: .untilNextPublication)
    }

    @Test("it holds at most its capacity in bytes, and more distinct answers than fit evict a few at a time, never all")
    func boundedByBytes() {
        let cache = ResponseCache(capacity: 64 << 10)
        for index in 0..<1_000 {
            _ = cache.entry(for: "/v1/rates/\(index)", generation: 1, gzip: false) { Self.entry(1_000) }
            let usage = cache.usage
            #expect(usage.bytes <= 64 << 10)
            if index > 100 { #expect(usage.entries > 40, "after \(index) answers only \(usage.entries) are kept") }
        }
    }

    @Test("an answer in use survives a stream of answers asked once")
    func recentlyUsedSurvives() {
        let cache = ResponseCache(capacity: 32 << 10)
        var builds = 0
        for index in 0..<500 {
            _ = cache.entry(for: "/v1/latest", generation: 1, gzip: false) {
                builds += 1
                return Self.entry(1_000)
            }
            _ = cache.entry(for: "/v1/rates/\(index)", generation: 1, gzip: false) { Self.entry(1_000) }
        }
        #expect(builds == 1, "the popular answer was built \(builds) times")
    }

    @Test("a body is compressed only when a client that accepts gzip asks, then kept; a new generation starts empty")
    func gzipOnDemand() {
        let cache = ResponseCache(capacity: 1 << 20)
        let plain = cache.entry(for: "/v1/latest", generation: 7, gzip: false) { Self.entry(4_000) }
        #expect(plain.isCompressible && plain.gzipped == nil)
        #expect(cache.cached(for: "/v1/latest", generation: 7, gzip: false)?.gzipped == nil, "still not compressed")
        let compressed = cache.cached(for: "/v1/latest", generation: 7, gzip: true)
        #expect(compressed.map { $0.gzipped!.readableBytes < 4_000 } == true)
        #expect(cache.cached(for: "/v1/latest", generation: 7, gzip: false)?.gzipped != nil, "the compressed form is kept")
        #expect(cache.entry(for: "/v1/small", generation: 7, gzip: true) { Self.entry(100) }.gzipped == nil, "small bodies go as they are")
        #expect(cache.cached(for: "/v1/latest", generation: 8, gzip: false) == nil)
    }
}
