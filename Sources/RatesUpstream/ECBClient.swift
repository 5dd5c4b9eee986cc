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
    private let timeout: TimeAmount
    private let maxBodyBytes: Int

    /// - Parameters:
    ///   - baseURL: Directory holding the ECB files (default `https://www.ecb.europa.eu/stats/eurofxref/`).
    ///   - httpClient: The shared HTTP client; its owner shuts it down.
    ///   - timeout: Limit for one whole request, body included.
    ///   - maxBodyBytes: Largest body accepted (the full history XML is about 6 MB).
    public init(baseURL: String, httpClient: HTTPClient, timeout: Duration = .seconds(60), maxBodyBytes: Int = 32 << 20) {
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.httpClient = httpClient
        self.timeout = .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        self.maxBodyBytes = maxBodyBytes
    }

    /// An HTTP client configured for upstream fetches: bounded connect and read timeouts, at most 5 redirects, no cycles.
    public static func makeHTTPClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(30))
        configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
        configuration.decompression = .enabled(limit: .ratio(20))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Fetches `file`, conditionally when validators are given, and validates its payload.
    ///
    /// - Parameters:
    ///   - etag: `ETag` of the last good answer for this file, sent as `If-None-Match`.
    ///   - lastModified: `Last-Modified` of the last good answer, sent as `If-Modified-Since`.
    ///   - notAfter: The newest day a valid payload may hold (tomorrow, to allow for time zones).
    /// - Throws: `UpstreamError` for transport failures, timeouts, error statuses, oversize and invalid bodies.
    public func fetch(_ file: ECBFile, etag: String?, lastModified: String?, notAfter: Day, logger: Logger) async throws(UpstreamError)
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
            let response = try await httpClient.execute(request, timeout: timeout, logger: logger)
            status = Int(response.status.code)
            headers = response.headers
            if status == 304 {
                return Response(httpStatus: status, batch: nil, etag: headers.first(name: "ETag") ?? etag,
                                lastModified: headers.first(name: "Last-Modified") ?? lastModified)
            }
            guard status == 200 else {
                throw UpstreamError.httpStatus(status, retryAfter: headers.first(name: "Retry-After").flatMap(Self.retryAfterSeconds))
            }
            body = try await response.body.collect(upTo: maxBodyBytes)
        } catch let error as UpstreamError {
            throw error
        } catch is NIOTooManyBytesError {
            throw .bodyTooLarge(limit: maxBodyBytes)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timeout
        } catch {
            throw .transport(String(describing: error))
        }

        do throws(UpstreamDataError) {
            let batch = try ECBXML.parse(body.readableBytesView)
            try RatesValidation.validate(batch, notAfter: notAfter)
            return Response(httpStatus: status, batch: batch, etag: headers.first(name: "ETag"), lastModified: headers.first(name: "Last-Modified"))
        } catch {
            throw .rejected(error, httpStatus: status)
        }
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
