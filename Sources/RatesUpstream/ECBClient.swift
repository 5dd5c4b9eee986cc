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

    /// - Parameters:
    ///   - baseURL: Directory holding the ECB files (default `https://www.ecb.europa.eu/stats/eurofxref/`).
    ///   - httpClient: The shared HTTP client; its owner shuts it down.
    ///   - timeout: Limit for one whole request, body included.
    ///   - maxBodyBytes: Largest body accepted (the full history XML is about 6 MB).
    public init(baseURL: String, httpClient: HTTPClient, timeout: Duration = .seconds(60), maxBodyBytes: Int = 32 << 20) {
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.httpClient = httpClient
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
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

        let status: Int
        let headers: HTTPHeaders
        let body: ByteBuffer
        do {
            // The client's own deadline ends at the response head; the race bounds the body too.
            let prepared = request
            let exchange = try await withThrowingTaskGroup(of: Exchange.self) { group in
                group.addTask { try await self.exchange(prepared, logger: logger) }
                group.addTask {
                    try await Task.sleep(for: self.timeout)
                    throw UpstreamError.timeout
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
            status = exchange.status
            headers = exchange.headers
            guard let received = exchange.body else {
                return Response(httpStatus: status, batch: nil, etag: headers.first(name: "ETag") ?? etag,
                                lastModified: headers.first(name: "Last-Modified") ?? lastModified)
            }
            body = received
        } catch let error as UpstreamError {
            throw error
        } catch is NIOTooManyBytesError {
            throw .bodyTooLarge(limit: maxBodyBytes)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timeout
        } catch let error as HTTPClientError where error == .redirectCycleDetected {
            throw .transport("redirected in a loop")
        } catch let error as HTTPClientError where error == .redirectLimitReached {
            throw .transport("redirected more than \(Self.maxRedirects) times")
        } catch let error as IOError {
            // The system's words ("Connection refused"), not NIO's wrapping of them.
            throw .transport(String(cString: strerror(error.errnoCode)))
        } catch {
            throw .transport(String(describing: error))
        }

        do throws(UpstreamDataError) {
            let batch = try ECBXML.parse(body.readableBytesView)
            return Response(httpStatus: status, batch: batch, etag: headers.first(name: "ETag"), lastModified: headers.first(name: "Last-Modified"))
        } catch {
            throw .rejected(error, httpStatus: status)
        }
    }

    /// What one request brought back: the status, the headers and, unless 304, the whole body.
    private struct Exchange: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: ByteBuffer?
    }

    /// Sends `request` and reads the whole answer.
    ///
    /// - Throws: `UpstreamError.httpStatus` for a status other than 200 or 304, and whatever the client throws.
    private func exchange(_ request: HTTPClientRequest, logger: Logger) async throws -> Exchange {
        let response = try await httpClient.execute(request, timeout: TimeAmount(timeout), logger: logger)
        let status = Int(response.status.code)
        if status == 304 { return Exchange(status: status, headers: response.headers) }
        guard status == 200 else {
            throw UpstreamError.httpStatus(status, retryAfter: response.headers.first(name: "Retry-After").flatMap(Self.retryAfterSeconds))
        }
        return Exchange(status: status, headers: response.headers, body: try await response.body.collect(upTo: maxBodyBytes))
    }

    /// `Retry-After` as seconds: either delta-seconds or an HTTP date.
    static func retryAfterSeconds(_ value: String) -> Double? {
        if let seconds = Double(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSinceNow) }
    }
}
