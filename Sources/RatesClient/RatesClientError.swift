import Foundation
import RatesCore

/// What went wrong in a `RatesClient` call, and what to do about it.
///
/// Being offline is not an error: ``RatesClient/sync()`` reports it as
/// ``SyncReport/Outcome/offline(_:)`` and the cache keeps answering. These cases are for
/// things the app (or its user) must act on.
///
/// ```swift
/// do {
///     let conversion = try client.convert(100, from: CurrencyCode("USD")!, to: .euro)
///     print(conversion.result)
/// } catch RatesClientError.noData {
///     try await client.sync()   // first launch: fill the cache
/// } catch {
///     print(error)              // every case describes itself and the fix
/// }
/// ```
public enum RatesClientError: Error, Sendable, Equatable {
    // MARK: - Reading the cache

    /// The cache holds no rates yet: call ``RatesClient/sync()`` (or run `rates sync`) first.
    case noData
    /// The code has no rate anywhere in the cache: check the spelling, or list codes with ``RatesClient/currencies()``.
    case unknownCurrency(CurrencyCode)
    /// The currency exists in the cache but was not published on `day` (introduced later or withdrawn before).
    case noRate(CurrencyCode, on: Day)
    /// The requested day is before the first cached publication (`firstDate`); widen the cache's `window` to reach it.
    case dateBeforeData(requested: Day, firstDate: Day)
    /// The requested day has not happened yet anywhere on Earth.
    case dateInFuture(Day)
    /// A range whose start is after its end.
    case invalidRange(from: Day, through: Day)

    // MARK: - Talking to the server

    /// The server rejected the request (4xx): a bug in the app or a server of another version. `detail` is the server's explanation.
    case rejected(status: Int, detail: String)
    /// The server refused the credentials (401/403): check `Configuration.apiKey` and `apiKeyHeader`.
    case unauthorized(status: Int)
    /// The server has no sync endpoint (404): check `Configuration.server`, which must be the root of a Rates Relay server.
    case notARatesServer(URL)
    /// The server answered something this client cannot read: the server is probably of an incompatible version.
    case invalidResponse(String)
    /// A call that needs the server now (``RatesClient/providers()``) could not reach it; `reason` says why.
    /// Syncing reports the same as ``SyncReport/Outcome/offline(_:)`` instead.
    case serverUnreachable(reason: String)

    // MARK: - The cache file

    /// The cache file could not be opened, read or written; `reason` says why. Deleting the file is always safe: the next sync rebuilds it.
    case cacheUnavailable(path: String, reason: String)
}

extension RatesClientError: CustomStringConvertible, LocalizedError {
    /// What went wrong and what to do, for a person.
    ///
    /// ```swift
    /// print(RatesClientError.noData)   // No rates are cached yet: sync with the server first.
    /// ```
    public var description: String {
        switch self {
        case .noData:
            return "No rates are cached yet: sync with the server first."
        case .unknownCurrency(let code):
            return "\(code) has no rates in the cache; list the known currencies to check the code."
        case .noRate(let code, let day):
            return "\(code) has no published rate on \(day)."
        case .dateBeforeData(let requested, let first):
            return "No rates before \(first) are cached (asked for \(requested)); widen the cache window to reach older dates."
        case .dateInFuture(let day):
            return "\(day) is in the future: rates exist only up to today."
        case .invalidRange(let from, let through):
            return "The range starts (\(from)) after it ends (\(through))."
        case .rejected(let status, let detail):
            return "The server rejected the request (HTTP \(status)): \(detail)"
        case .unauthorized(let status):
            return "The server refused the credentials (HTTP \(status)): check the API key."
        case .notARatesServer(let url):
            return "\(url.absoluteString) has no /v1/sync endpoint: check the server address."
        case .invalidResponse(let reason):
            return "The server's answer could not be read (\(reason)); is it a compatible Rates Relay server?"
        case .serverUnreachable(let reason):
            return "The server could not be reached (\(reason)): the cached rates still answer; try again when it can be."
        case .cacheUnavailable(let path, let reason):
            return "The rates cache at \(path) could not be used (\(reason)); deleting it is safe, the next sync rebuilds it."
        }
    }

    /// The same text as ``description``, for `localizedDescription`.
    ///
    /// ```swift
    /// alert.message = error.localizedDescription
    /// ```
    public var errorDescription: String? { description }
}
