import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange, reduced to what the sync engine reads.
struct HTTPExchange: Sendable {
    var status: Int
    /// Header values by lowercased name.
    var headers: [String: String]
    var body: Data

    init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// What an answer the app must act on means: `401`/`403` refused credentials, `404` no Rates Relay
    /// server at `server`, another `4xx` a rejected request (with its problem's detail), anything else an
    /// answer this client cannot read.
    func failure(server: URL) -> RatesClientError {
        switch status {
        case 401, 403: return .unauthorized(status: status)
        case 404: return .notARatesServer(server)
        case 400..<500: return .rejected(status: status, detail: problemDetail)
        default: return .invalidResponse("unexpected HTTP status \(status)")
        }
    }

    /// The `detail` of a problem+json body, or the status text.
    var problemDetail: String {
        struct Problem: Decodable {
            var title: String?
            var detail: String?
            var parameter: String?
        }
        let problem = try? JSONDecoder().decode(Problem.self, from: body)
        let text = problem?.detail ?? problem?.title ?? HTTPURLResponse.localizedString(forStatusCode: status)
        return problem?.parameter.map { "\(text) (parameter '\($0)')" } ?? text
    }

    /// `Retry-After` in seconds (the delay form; an HTTP date is ignored).
    var retryAfter: Duration? {
        guard let text = headers["retry-after"]?.trimmingCharacters(in: .whitespaces), let seconds = Int(text), seconds >= 0 else { return nil }
        return .seconds(seconds)
    }
}

/// How the client reaches the server; tests substitute a script.
struct HTTPTransport: Sendable {
    /// Sends one request; throws only when no response arrived.
    var send: @Sendable (URLRequest) async throws -> HTTPExchange
    /// Opens an event stream (`/v1/events`).
    var events: @Sendable (URLRequest) -> AsyncThrowingStream<EventStreamMessage, any Error>

    /// Requests through `session`; event streams through a session of the same configuration.
    static func urlSession(_ session: URLSession) -> HTTPTransport {
        HTTPTransport(send: send(through: session)) { request in
            EventStreamConnection.messages(for: request, configuration: session.configuration)
        }
    }

    private static func send(through session: URLSession) -> @Sendable (URLRequest) async throws -> HTTPExchange {
        { request in
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return HTTPExchange(status: http.statusCode, headers: headers, body: data)
        }
    }

    /// A short human description of a transport failure.
    static func describe(_ error: any Error, url: URL) -> String {
        let host = url.host.map { port in url.port.map { "\(port):\($0)" } ?? port } ?? url.absoluteString
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return String(describing: error) }
        switch nsError.code {
        case NSURLErrorCannotConnectToHost: return "could not connect to \(host)"
        case NSURLErrorTimedOut: return "\(host) did not answer in time"
        case NSURLErrorNotConnectedToInternet: return "no network connection"
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return "host \(url.host ?? host) not found"
        case NSURLErrorNetworkConnectionLost: return "the connection to \(host) was lost"
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate,
             NSURLErrorServerCertificateNotYetValid, NSURLErrorServerCertificateHasUnknownRoot:
            return "TLS connection to \(host) failed"
        case NSURLErrorBadServerResponse: return "\(host) sent a malformed HTTP response"
        default: return "\(nsError.localizedDescription) (\(host), code \(nsError.code))"
        }
    }

    /// Whether `error` is a cancellation rather than a network failure.
    static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        let nsError = error as NSError
        return nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorCancelled
    }
}
