import Foundation
import HTTPTypes
import NIOCore

/// The web page's files (`Resources/web`: the page, its script, style sheet and icon), read and
/// prepared once at start-up: each with its media type, an entity tag of its bytes and its gzip
/// form, so an answer is a lookup (``PreparedAnswer``: 304 on `If-None-Match`, gzip when accepted).
///
/// The page loads nothing from elsewhere, so ``contentSecurityPolicy`` forbids everything but the
/// server's own files and answers: no inline script, no other origin, no frames.
struct WebAssets: Sendable {
    /// One prepared file.
    struct File: Sendable {
        var contentType: String
        var body: ByteBuffer
        /// The gzip form, `nil` when compressing saves nothing.
        var gzipped: ByteBuffer?
        /// The tag of ``body``; the gzip form's is the same with `-gzip`.
        var etag: String

        var gzipEtag: String { String(etag.dropLast()) + "-gzip\"" }

        /// The answer to a request with these headers: 304 when it holds either tag, the gzip form when it accepts gzip.
        func answer(requestHeaders: HTTPFields) -> PreparedAnswer {
            let acceptsGzip = PreparedAnswer.acceptsGzip(requestHeaders[values: .acceptEncoding])
            var answer = PreparedAnswer(
                ifNoneMatch: requestHeaders[.ifNoneMatch], acceptsGzip: acceptsGzip, body: body, gzipped: gzipped, isCompressible: gzipped != nil,
                etag: etag, gzipEtag: gzipEtag, cacheControl: WebAssets.cacheControl)
            answer.contentType = contentType
            return answer
        }
    }

    /// The file `/` answers with.
    static let pageName = "index.html"

    /// Sent with every file of the page: only this server's own files and answers, no inline script, no frames.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; font-src 'self'; "
        + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// Revalidated on every use: a 304 costs a round trip and no bytes, and a new binary's page is never mixed with an old script.
    static let cacheControl = "no-cache"

    /// The files by name (`app.js`).
    let files: [String: File]

    /// The files bundled with the server; none when the bundle lacks them (`/` then answers 404).
    static let bundled: WebAssets = {
        guard let directory = Bundle.module.url(forResource: "web", withExtension: nil), let assets = try? WebAssets(directory: directory) else {
            return WebAssets(files: [:])
        }
        return assets
    }()

    /// Media types by file extension; files of other kinds are not served.
    static let mediaTypes = [
        "html": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml",
    ]
}

extension WebAssets {
    /// Reads and prepares every file in `directory` with a known media type.
    ///
    /// - Throws: When the directory or a file cannot be read.
    init(directory: URL) throws {
        var files: [String: File] = [:]
        for url in try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil) {
            guard let contentType = Self.mediaTypes[url.pathExtension] else { continue }
            let body = ByteBuffer(bytes: try Data(contentsOf: url))
            files[url.lastPathComponent] = File(
                contentType: contentType, body: body, gzipped: ResponseCache.Entry.gzipForm(of: body), etag: PreparedAnswer.contentTag(body))
        }
        self.files = files
    }
}
