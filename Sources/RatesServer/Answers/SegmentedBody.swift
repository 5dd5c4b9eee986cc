import CompressNIO
import Hummingbird
import NIOCore
import NIOPosix

/// An answer over many publications (a time series, v2's records) as an opening, segments of a
/// few publications each, and a closing, so that it can be written as it is computed.
///
/// A small answer is joined and prepared whole (``joined()``), cached like any other; one
/// estimated over ``preparedBytes`` is streamed (``response(head:permit:)``): each segment is
/// made, written and let go before the next, so a request holds one segment's work and
/// ``flushBytes`` of output at a time, whatever the answer's size. Both are the same bytes.
///
/// A streamed answer's segments are made on threads of their own (``threads``: one fewer than
/// the cores), not on Swift's cooperative pool, which every request's task shares, nor on the
/// event loops: long answers, and the database reads of `expand=providers`, leave a core to the
/// other requests however many of them run.
struct SegmentedBody: Sendable {
    /// Publications per segment: small enough that a segment of every currency with every
    /// provider's figures (`expand=providers`) is a few hundred kilobytes.
    static let publicationsPerSegment = 16
    /// The largest estimated answer prepared whole and cached; larger ones are streamed.
    static let preparedBytes = 1 << 20
    /// Bytes gathered before a streamed answer writes them out.
    static let flushBytes = 64 << 10
    /// The threads streamed answers' segments are made on, one fewer than the cores (at least one).
    static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(1, System.coreCount - 1))
        pool.start()
        return pool
    }()

    /// What comes before the first segment (`[`, a header line, or an object up to its `"rates":{`).
    var opening: ByteBuffer
    /// What comes after the last.
    var closing: ByteBuffer
    var segmentCount: Int
    /// Segment `index`'s bytes, written after what came before: `continuing` says items precede it,
    /// so its first item is separated from them; it returns whether items precede the next segment.
    var segment: @Sendable (_ index: Int, _ continuing: Bool) throws(Problem) -> (bytes: ByteBuffer, continuing: Bool)
    /// The whole answer's size, estimated from the values it carries.
    var estimatedBytes: Int

    /// The segments of `count` items in order, ``publicationsPerSegment`` of them each.
    static func segments(of count: Int) -> Int { (count + publicationsPerSegment - 1) / publicationsPerSegment }

    /// The items of segment `index` among `items`.
    static func slice<Items: RandomAccessCollection>(_ items: Items, segment index: Int) -> Items.SubSequence where Items.Index == Int {
        let start = items.startIndex + index * publicationsPerSegment
        return items[start..<min(start + publicationsPerSegment, items.endIndex)]
    }

    /// Whether it is streamed rather than prepared whole.
    var isStreamed: Bool { estimatedBytes > Self.preparedBytes }

    /// The whole answer in one buffer.
    func joined() throws(Problem) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: min(estimatedBytes, Self.preparedBytes) + opening.readableBytes + closing.readableBytes)
        buffer.writeImmutableBuffer(opening)
        var continuing = false
        for index in 0..<segmentCount {
            let made = try segment(index, continuing)
            buffer.writeImmutableBuffer(made.bytes)
            continuing = made.continuing
        }
        buffer.writeImmutableBuffer(closing)
        return buffer
    }

    /// The answer as a response with the headers of `head`, its body written as it is made
    /// (gzip-compressed as it goes when `head` says so), with `permit` held until the last byte.
    /// A segment that fails after the first bytes are out ends the connection: the client sees an
    /// answer cut short, never a wrong one.
    func response(head: PreparedAnswer, permit: AnswerPermits.Permit?) -> Response {
        guard head.status == .ok else {
            permit?.release()
            return head.response
        }
        let body = self
        let compressed = head.isCompressed
        return Response(status: .ok, headers: head.headers, body: ResponseBody { writer in
            defer { permit?.release() }
            // The bytes go out as they are, or through one gzip stream.
            let compressor = compressed ? CompressionAlgorithm.gzip().compressor : nil
            try compressor?.startStream()
            /// `bytes` ready to send; with `last`, the end of the gzip stream too.
            func encoded(_ bytes: inout ByteBuffer, last: Bool) throws -> ByteBuffer {
                guard let compressor else { return bytes }
                // A sync flush per chunk: the client can decompress everything sent so far.
                let encoded = try bytes.compressStream(with: compressor, flush: last ? .finish : .sync)
                if last { try compressor.finishStream() }
                return encoded
            }
            var pending = body.opening
            var continuing = false
            for index in 0..<body.segmentCount {
                let after = continuing
                let made = try await Self.threads.runIfActive { () throws -> (bytes: ByteBuffer, continuing: Bool) in
                    try body.segment(index, after)
                }
                continuing = made.continuing
                pending.writeImmutableBuffer(made.bytes)
                if pending.readableBytes >= Self.flushBytes {
                    try await writer.write(encoded(&pending, last: false))
                    pending = ByteBufferAllocator().buffer(capacity: Self.flushBytes + Self.flushBytes / 4)
                }
            }
            pending.writeImmutableBuffer(body.closing)
            try await writer.write(encoded(&pending, last: true))
            try await writer.finish(nil)
        })
    }
}
