import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// One HTTP exchange with an upstream server, as every upstream client makes it: sent to the
/// provider's ``UpstreamOverride`` when it has one, bounded in time (body included), bounded in
/// size, error statuses and client failures turned into ``UpstreamError``.
///
/// The client's own settings (connect and read timeouts, redirects, decompression) come from
/// ``ProviderClient/makeHTTPClient()``.
struct UpstreamHTTP: Sendable {
    /// What one request brought back: the status, the headers and, unless 304, the whole body.
    struct Exchange: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: ByteBuffer?
    }

    let httpClient: HTTPClient
    /// Limit for one whole request, body included.
    let timeout: Duration
    /// Largest body accepted.
    let maxBodyBytes: Int
    /// Where the provider's requests go instead of its own servers, if anywhere.
    let override: UpstreamOverride?

    /// Sends `request` and reads the whole answer: 200 with its body, or 304 without.
    ///
    /// - Throws: `UpstreamError`: `.httpStatus` for any other status (with `Retry-After` in seconds),
    ///   `.timeout`, `.bodyTooLarge`, `.transport` for everything else (refused, reset, redirect loop).
    func exchange(_ request: HTTPClientRequest, logger: Logger) async throws(UpstreamError) -> Exchange {
        var request = request
        if let override { request.url = override.apply(to: request.url) }
        do {
            // The client's own deadline ends at the response head; the race bounds the body too.
            return try await withThrowingTaskGroup(of: Exchange.self) { group in
                group.addTask { [request] in try await self.send(request, logger: logger) }
                group.addTask {
                    try await Task.sleep(for: self.timeout)
                    throw UpstreamError.timeout
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        } catch let error as UpstreamError {
            throw error
        } catch is NIOTooManyBytesError {
            throw .bodyTooLarge(limit: maxBodyBytes)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timeout
        } catch let error as HTTPClientError where error == .redirectCycleDetected {
            throw .transport("redirected in a loop")
        } catch let error as HTTPClientError where error == .redirectLimitReached {
            throw .transport("redirected more than \(ProviderClient.maxRedirects) times")
        } catch let error as IOError {
            // The system's words ("Connection refused"), not NIO's wrapping of them.
            throw .transport(String(cString: strerror(error.errnoCode)))
        } catch {
            throw .transport(String(describing: error))
        }
    }

    /// Sends `request` and reads the whole answer.
    ///
    /// - Throws: `UpstreamError.httpStatus` for a status other than 200 or 304, and whatever the client throws.
    private func send(_ request: HTTPClientRequest, logger: Logger) async throws -> Exchange {
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
