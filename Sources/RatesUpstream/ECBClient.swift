import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import RatesCore

/// Fetches and validates the ECB's published files over HTTP.
///
/// Requests are conditional when validators from the previous good answer are known, time
/// out, follow at most a few redirects (never a cycle) and cap the body size. A body is
/// parsed and validated whole before anything is returned.
public struct ECBClient: Sendable {
    /// The result of one successful request.
    public struct Response: Sendable {
        /// The HTTP status (200, or 304 for not modified).
        public var httpStatus: Int
        /// The parsed, validated payload; `nil` when the file has not changed (304).
        public var batch: RatesBatch?
        /// The `ETag` to send next time.
        public var etag: String?
        /// The `Last-Modified` to send next time.
        public var lastModified: String?
    }

    /// The directory the files are fetched from, ending in `/`.
    public let baseURL: String
    private let httpClient: HTTPClient
    private let timeout: Duration
    private let maxBodyBytes: Int
    private let override: UpstreamOverride?

    /// - Parameters:
    ///   - baseURL: Directory holding the ECB files (default `https://www.ecb.europa.eu/stats/eurofxref/`).
    ///   - httpClient: The shared HTTP client; its owner shuts it down.
    ///   - timeout: Limit for one whole request, body included.
    ///   - maxBodyBytes: Largest body accepted (the full history XML is about 6 MB).
    ///   - override: Where the requests for `baseURL`'s files go instead (`--upstream ECB=URL`), if anywhere.
    public init(
        baseURL: String, httpClient: HTTPClient, timeout: Duration = .seconds(60), maxBodyBytes: Int = 32 << 20, override: UpstreamOverride? = nil
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.httpClient = httpClient
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.override = override
    }

    /// Most redirects an upstream request follows.
    static let maxRedirects = 5

    /// An HTTP client configured for upstream fetches: bounded connect and read timeouts, no
    /// retries of failed connections, at most 5 redirects, no cycles.
    public static func makeHTTPClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(30))
        configuration.redirectConfiguration = .follow(max: maxRedirects, allowCycles: false)
        configuration.decompression = .enabled(limit: .ratio(20))
        // A failed connection fails the fetch at once, with its real reason ("Connection
        // refused"), instead of being retried inside the client until the fetch times out:
        // the scheduler already retries fetches, with backoff.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Fetches `file`, conditionally when validators are given, and parses its payload.
    ///
    /// The values are checked by the ingest (``RatesValidation``), with every other source's.
    /// - Parameters:
    ///   - etag: `ETag` of the last good answer for this file, sent as `If-None-Match`.
    ///   - lastModified: `Last-Modified` of the last good answer, sent as `If-Modified-Since`.
    /// - Throws: `UpstreamError` for transport failures, timeouts, error statuses, oversize and unparseable bodies.
    public func fetch(_ file: ECBFile, etag: String?, lastModified: String?, logger: Logger) async throws(UpstreamError)
        -> Response
    {
        var request = HTTPClientRequest(url: baseURL + file.rawValue)
        request.headers.add(name: "User-Agent", value: "rates-relay/1.0")
        request.headers.add(name: "Accept-Encoding", value: "gzip")
        if let etag { request.headers.add(name: "If-None-Match", value: etag) }
        if let lastModified { request.headers.add(name: "If-Modified-Since", value: lastModified) }

        let http = UpstreamHTTP(httpClient: httpClient, timeout: timeout, maxBodyBytes: maxBodyBytes, override: override)
        let exchange = try await http.exchange(request, logger: logger)
        guard let body = exchange.body else {
            return Response(httpStatus: exchange.status, batch: nil, etag: exchange.headers.first(name: "ETag") ?? etag,
                            lastModified: exchange.headers.first(name: "Last-Modified") ?? lastModified)
        }
        let (status, headers) = (exchange.status, exchange.headers)

        do throws(UpstreamDataError) {
            let batch = try ECBXML.parse(body.readableBytesView)
            return Response(httpStatus: status, batch: batch, etag: headers.first(name: "ETag"), lastModified: headers.first(name: "Last-Modified"))
        } catch {
            throw .rejected(error, httpStatus: status)
        }
    }
}
