import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The answer to one request from a prepared body: 304 when the client holds the current
/// version, else 200 with the body (JSON, or a file of the web page), gzip-compressed when the
/// client accepts it.
///
/// With a `gzipped` body and a client that accepts gzip, the compressed bytes go out with
/// `Content-Encoding: gzip` under `gzipEtag`. Either tag makes a 304, whichever form this
/// answer has: a client that got the compressed form of another answer of the same dataset
/// version holds current data too. Answers that have a compressed form (made or not yet: it is
/// made when a client that accepts it first asks) say `Vary: Accept-Encoding`.
struct PreparedAnswer {
    var status: HTTPResponse.Status
    /// The body's media type: the route's for prepared answers (``Route/contentType``: JSON, CSV for
    /// `/v2/rates.csv`), the file's for the web page's (``WebAssets``).
    var contentType = "application/json"
    /// The `ETag`: the tag of the form sent.
    var etag: String
    var cacheControl: String
    /// Whether the answer has a compressed form, so it varies by `Accept-Encoding`.
    var hasCompressedForm: Bool
    /// Whether the route chooses its format by `Accept` (``AnswerFormat``), so the answer varies by it.
    var variesByAccept = false
    /// Whether `body` is the compressed form.
    var isCompressed = false
    /// `nil` for a 304.
    var body: ByteBuffer?
    /// The `Rates-Stale` header (`expected=<day>`): the answer comes from a newest publication that is overdue.
    var staleNotice: String?

    /// An answer with no compressed form that changes without a new dataset version (`/v1/status`,
    /// `/v1/providers`): `no-cache`, tagged by its own bytes (``contentTag(_:)``).
    init(requestHeaders: HTTPFields, uncachedBody body: ByteBuffer) {
        self.init(
            ifNoneMatch: requestHeaders[.ifNoneMatch], acceptsGzip: false, body: body, gzipped: nil, isCompressible: false,
            etag: Self.contentTag(body), gzipEtag: nil, cacheControl: "no-cache")
    }

    /// A strong entity tag derived from the bytes themselves (FNV-1a), for answers that change without a new dataset version.
    static func contentTag(_ body: ByteBuffer) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body.readableBytesView { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\"s" + String(hash, radix: 16) + "\""
    }

    /// The answer from a prepared `entry` of the generation `freshness` names: its tags, its
    /// `Cache-Control` by `policy`, its stale notice, its route's media type. The application's routes and the fast path both answer this way.
    /// An answer in a format other than JSON has tags of its own (the format in them), so a tag of
    /// one format never makes a 304 for another.
    ///
    /// With `streaming`, the head of a streamed answer (``SegmentedBody``, whose `entry` here has an
    /// empty body): the tags, caching and media type the same answer prepared whole would have,
    /// gzip-compressed as it is written when the client accepts it.
    init(
        ifNoneMatch: String?, acceptsGzip: Bool, entry: ResponseCache.Entry, freshness: Freshness, policy: CacheControlPolicy, streaming: Bool = false
    ) {
        self.init(
            ifNoneMatch: ifNoneMatch, acceptsGzip: acceptsGzip, body: entry.body, gzipped: streaming && acceptsGzip ? ByteBuffer() : entry.gzipped,
            isCompressible: streaming || entry.isCompressible, etag: Self.tag(freshness.etag, entry.format),
            gzipEtag: Self.tag(freshness.gzipEtag, entry.format), cacheControl: policy.value(for: entry.caching, freshness: freshness),
            staleNotice: entry.staleNotice)
        contentType = entry.contentType
        variesByAccept = entry.route.negotiatesFormat
    }

    /// The tag of an answer in `format`: the dataset's `etag`, with the format in it when not JSON.
    static func tag(_ etag: String, _ format: AnswerFormat) -> String {
        format == .json ? etag : String(etag.dropLast()) + "-" + format.rawValue + "\""
    }

    /// The answer to a request with this `If-None-Match` (all its values joined by commas), from a
    /// client that accepts gzip or not; `isCompressible`: the answer has a gzip form, made or not.
    init(
        ifNoneMatch: String?, acceptsGzip: Bool, body: ByteBuffer, gzipped: ByteBuffer?, isCompressible: Bool, etag: String, gzipEtag: String?,
        cacheControl: String, staleNotice: String? = nil
    ) {
        let sendsGzip = gzipped != nil && acceptsGzip
        self.etag = sendsGzip ? gzipEtag ?? etag : etag
        self.cacheControl = cacheControl
        self.staleNotice = staleNotice
        hasCompressedForm = isCompressible || gzipped != nil
        if let condition = ifNoneMatch,
           Self.matches(condition, etag: etag) || gzipEtag.map({ Self.matches(condition, etag: $0) }) == true
        {
            status = .notModified
            self.body = nil
            return
        }
        status = .ok
        isCompressed = sendsGzip
        self.body = sendsGzip ? gzipped : body
    }

    /// Calls `write` with each header of the answer, in order (framing headers aside).
    func forEachHeader(_ write: (HTTPField.Name, String) -> Void) {
        write(.eTag, etag)
        write(.cacheControl, cacheControl)
        switch (hasCompressedForm, variesByAccept) {
        case (true, true): write(.vary, "Accept, Accept-Encoding")
        case (true, false): write(.vary, "Accept-Encoding")
        case (false, true): write(.vary, "Accept")
        case (false, false): break
        }
        if status == .ok { write(.contentType, contentType) }
        if isCompressed { write(.contentEncoding, "gzip") }
        if let staleNotice { write(.ratesStale, staleNotice) }
    }

    /// The answer's headers (framing headers aside).
    var headers: HTTPFields {
        var fields = HTTPFields()
        forEachHeader { fields.append(HTTPField(name: $0, value: $1)) }
        return fields
    }

    /// The answer as a Hummingbird response.
    var response: Response {
        Response(status: status, headers: headers, body: body.map { .init(byteBuffer: $0) } ?? .init())
    }

    /// Whether `Accept-Encoding` (RFC 9110 §12.5.3) lists `gzip` or `*` with a non-zero weight.
    static func acceptsGzip(_ values: [String]) -> Bool {
        values.lazy.flatMap { $0.split(separator: ",") }.contains { element in
            let parameters = element.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parameters.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { return false }
            let weight = parameters.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return weight > 0
        }
    }

    /// `If-None-Match` semantics (RFC 9110 §13.1.2): weak comparison against any listed tag, or `*`.
    static func matches(_ condition: String, etag: String) -> Bool {
        if condition == etag { return true }   // the common case, without splitting
        return condition.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}
