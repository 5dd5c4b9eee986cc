import Foundation
import Hummingbird
import NIOCore
import RatesCore

/// A client-facing error, answered as `application/problem+json` (RFC 9457).
///
/// Every error the server answers goes through this type: handlers throw it, and
/// `ProblemMiddleware` maps anything else (unknown routes, wrong methods, framework errors) onto it.
public struct Problem: Error, Sendable, Equatable {
    /// The stable problem kinds; each is a `type` URI `urn:rates-relay:problem:<kind>`.
    public enum Kind: String, Sendable {
        case invalidParameter = "invalid-parameter"
        case dateInFuture = "date-in-future"
        case invalidRange = "invalid-range"
        case unknownCurrency = "unknown-currency"
        case dateBeforeData = "date-before-data"
        case notFound = "not-found"
        case methodNotAllowed = "method-not-allowed"
        case unauthorized = "unauthorized"
        case noData = "no-data"
        case notReady = "not-ready"
        case badRequest = "bad-request"
        case uriTooLong = "uri-too-long"
        case contentTooLarge = "content-too-large"
        case tooManyRequests = "too-many-requests"
        case answerTooLarge = "answer-too-large"
        case busy = "busy"
        case internalError = "internal-error"

        var status: HTTPResponse.Status {
            switch self {
            case .invalidParameter, .dateInFuture, .invalidRange, .badRequest: return .badRequest
            case .unknownCurrency, .dateBeforeData, .notFound: return .notFound
            case .methodNotAllowed: return .methodNotAllowed
            case .unauthorized: return .unauthorized
            case .noData, .notReady, .busy: return .serviceUnavailable
            case .answerTooLarge: return .unprocessableContent
            case .uriTooLong: return .uriTooLong
            case .contentTooLarge: return .contentTooLarge
            case .tooManyRequests: return .tooManyRequests
            case .internalError: return .internalServerError
            }
        }

        var title: String {
            switch self {
            case .invalidParameter: return "Invalid parameter"
            case .dateInFuture: return "Date in the future"
            case .invalidRange: return "Invalid date range"
            case .unknownCurrency: return "Unknown currency"
            case .dateBeforeData: return "No data for that date"
            case .notFound: return "Not found"
            case .methodNotAllowed: return "Method not allowed"
            case .unauthorized: return "Unauthorized"
            case .noData: return "No data yet"
            case .notReady: return "Not ready"
            case .badRequest: return "Bad request"
            case .uriTooLong: return "Request target too long"
            case .contentTooLarge: return "Request body too large"
            case .tooManyRequests: return "Too many requests"
            case .answerTooLarge: return "Answer too large"
            case .busy: return "Busy"
            case .internalError: return "Internal error"
            }
        }
    }

    public var kind: Kind
    /// What went wrong, for a human.
    public var detail: String
    /// The query or path parameter at fault.
    public var parameter: String?
    /// Extra headers (`Retry-After`, `WWW-Authenticate`).
    public var headers: HTTPFields = [:]

    public init(_ kind: Kind, _ detail: String, parameter: String? = nil, headers: HTTPFields = [:]) {
        self.kind = kind
        self.detail = detail
        self.parameter = parameter
        self.headers = headers
    }

    public static func invalid(_ parameter: String, _ detail: String) -> Problem {
        Problem(.invalidParameter, detail, parameter: parameter)
    }

    /// No rates are loaded yet (503 with `Retry-After`).
    static var noData: Problem {
        Problem(.noData, "No rates have been loaded yet; the first fetch is under way.", headers: [.retryAfter: "30"])
    }

    /// `what` could not be read from the database just now (503 with `Retry-After`).
    static func unreadable(_ what: String) -> Problem {
        Problem(.noData, "\(what) could not be read; try again shortly.", headers: [.retryAfter: "5"])
    }

    /// The database has not answered since `since`, and the publication of `expected` is due but
    /// not here: this replica cannot know whether another has stored it (503 with `Retry-After`).
    static func databaseUnreachable(since: Date, expected: Day) -> Problem {
        Problem(
            .notReady, "The database has not answered since \(since.formatted(.iso8601)) and the publication of \(expected) is due: this replica's rates may be stale.",
            headers: [.retryAfter: "5"])
    }

    /// The rates held are the bundled seed's, through `latest`, and the fetches the server makes at
    /// start have not all ended: they may be weeks old, and those fetches are about to say (503 with `Retry-After`).
    static func seedAwaitingFirstFetch(latest: Day) -> Problem {
        Problem(
            .notReady,
            "The rates held are the bundled history, through \(latest), and the first fetch since the start is still out: ready once it has finished, whether it succeeds or fails.",
            headers: [.retryAfter: "5"])
    }

    /// Every permit for heavy answers is out (``AnswerPermits``): 503 with `Retry-After`; the
    /// same request a moment later, or a shorter one, is answered.
    static var busy: Problem {
        Problem(
            .busy, "The server is building as many long answers as it builds at once; retry shortly, or ask for fewer days or currencies.",
            headers: [.retryAfter: "2"])
    }

    /// The request asks for `values` values, more than the `limit` one answer carries (422): the
    /// detail says how to ask in pages. `parameter` names the range's parameter.
    static func answerTooLarge(values: Int, limit: Int, parameter: String) -> Problem {
        Problem(
            .answerTooLarge,
            "This asks for about \(values) values; one answer carries at most \(limit). Ask for fewer currencies, or for the range in pages of consecutive date ranges, each under the limit.",
            parameter: parameter)
    }

    /// Nothing answers `method` at `path` (404).
    static func noEndpoint(_ method: HTTPRequest.Method, _ path: String) -> Problem {
        Problem(.notFound, "No endpoint at \(method) \(path); see /openapi.yaml.")
    }

    /// `parameter` asks for `day`, which is after `today` (see ``ServerConfiguration/today``).
    static func dateInFuture(_ parameter: String, _ day: Day, today: Day) -> Problem {
        Problem(.dateInFuture, "'\(parameter)' \(day) is after today (\(today)).", parameter: parameter)
    }

    /// The problem document.
    var body: ByteBuffer {
        return JSONWriter.object { json in
            json.field("type", string: "urn:rates-relay:problem:\(kind.rawValue)")
            json.field("title", string: kind.title)
            json.field("status", number: String(kind.status.code))
            json.field("detail", string: detail)
            if let parameter { json.field("parameter", string: parameter) }
            // Frankfurter's clients read an error's `message`.
            json.field("message", string: detail)
        }
    }

    /// The problem as `route` answers it: on our routes ``response``; on another API's, as that API
    /// answers, with Frankfurter's statuses (422 for input it cannot use, where we say 400, else ours)
    /// and `message` (`"not found"` for a 404, else the detail):
    /// - Frankfurter v1's routes (``Route/isCompatibility``): `{"message": …}`.
    /// - Frankfurter v2's (``Route/isFrankfurterV2``): `{"status": …, "message": …}`.
    /// - The root routes both legacy APIs' clients read (``Route/answersExchangerateHost``): Frankfurter's
    ///   `message`, and exchangerate.host's `"success": false` with the `error` object its later clients
    ///   read (`code`: the status, `type`: the problem kind, `info`: what went wrong).
    func response(for route: Route) -> Response {
        guard route.isCompatibility || route.isFrankfurterV2 else { return response }
        let status = kind.status == .badRequest ? HTTPResponse.Status.unprocessableContent : kind.status
        return response(status, body: JSONWriter.object { json in
            if route.answersExchangerateHost { json.field("success", bool: false) }
            if route.isFrankfurterV2 { json.field("status", number: String(status.code)) }
            json.field("message", string: kind.status == .notFound ? "not found" : detail)
            guard route.answersExchangerateHost else { return }
            json.field("error") { json in
                json.field("code", number: String(status.code))
                json.field("type", string: kind.rawValue)
                json.field("info", string: detail)
            }
        })
    }

    /// The complete response.
    public var response: Response {
        response(kind.status, contentType: "application/problem+json", body: body)
    }

    /// An answer of `body` with `status` and the problem's headers, never stored.
    func response(_ status: HTTPResponse.Status, contentType: String = "application/json", body: ByteBuffer) -> Response {
        var fields = headers
        fields[.contentType] = contentType
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: body))
    }
}
