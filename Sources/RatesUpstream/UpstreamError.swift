/// Why a fetch from the upstream provider failed. The stored data is untouched in every case.
public enum UpstreamError: Error, Sendable, CustomStringConvertible {
    /// No HTTP answer: connection refused, DNS failure, TLS failure, reset, redirect loop.
    case transport(String)
    /// The request did not complete within the configured timeout.
    case timeout
    /// The provider answered with an error status; `retryAfter` carries its `Retry-After` in seconds.
    case httpStatus(Int, retryAfter: Double?)
    /// The body was larger than the configured limit.
    case bodyTooLarge(limit: Int)
    /// The body arrived but is not acceptable data; nothing from it was stored.
    case rejected(UpstreamDataError, httpStatus: Int)

    /// The HTTP status the provider answered with, if any.
    public var httpStatus: Int? {
        switch self {
        case .httpStatus(let status, _), .rejected(_, let status): return status
        case .transport, .timeout, .bodyTooLarge: return nil
        }
    }

    /// How long the provider asked us to wait before trying again, in seconds.
    public var retryAfter: Double? { if case .httpStatus(_, let retryAfter) = self { retryAfter } else { nil } }

    public var description: String {
        switch self {
        case .transport(let reason): return "upstream unreachable: \(reason)"
        case .timeout: return "upstream timed out"
        case .httpStatus(let status, _): return "upstream answered HTTP \(status)"
        case .bodyTooLarge(let limit): return "upstream body larger than \(limit) bytes"
        case .rejected(let reason, _): return "upstream data rejected: \(reason)"
        }
    }
}
