import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RatesCore
import RatesTestSupport
import Synchronization
import Testing
@testable import RatesClient

// MARK: - Values

extension CurrencyCode {
    static let usd = CurrencyCode("USD")!
    static let jpy = CurrencyCode("JPY")!
    static let gbp = CurrencyCode("GBP")!
    static let chf = CurrencyCode("CHF")!
    static let bgn = CurrencyCode("BGN")!
}

func day(_ text: String) -> Day { Day(text)! }

/// How long a wait for something asynchronous may take before it counts as a failure: ``waitLimit``.
///
/// Waits end as soon as what they wait for happens, or can no longer happen. `waitUntil` counts only
/// the time the machine gave the wait (``WaitBudget``): on a two-core machine the suites running in
/// parallel can hold the cooperative pool for minutes (the server tests seed a full-history
/// database once, synchronously; the history comparison and the providers' parsing tests are
/// CPU-bound). The `rates` command's runs, in processes of their own, are bounded in wall time.
let patience = waitLimit

/// `["USD": "1.1172"]` → `[.usd: "1.1172"]`.
func rates(_ values: [String: String]) -> [CurrencyCode: String] {
    Dictionary(uniqueKeysWithValues: values.map { (CurrencyCode($0.key)!, $0.value) })
}

/// Three publications: Thu 2026-10-29, Fri 2026-10-30 (a weekend follows), Mon 2026-11-02.
let threeDays: [Day: [CurrencyCode: String]] = [
    day("2026-10-29"): rates(["USD": "1.1150", "JPY": "175.10", "GBP": "0.86900", "BGN": "1.9558"]),
    day("2026-10-30"): rates(["USD": "1.1172", "JPY": "175.68", "GBP": "0.87005"]),
    day("2026-11-02"): rates(["USD": "1.1200", "JPY": "176.00", "GBP": "0.87100"]),
]

// MARK: - A cache in a temporary folder

/// A fresh cache file in its own temporary folder, removed at deinit.
final class TemporaryCache: Sendable {
    let folder: URL
    var url: URL { folder.appendingPathComponent("rates.sqlite") }

    init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rates-client-tests-\(UUID().uuidString)")
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A configuration of this cache; without the bundled snapshot, so that a cache never synced is empty.
    func configuration(window: Day? = nil, maxAttempts: Int = 3, autoRefresh: Bool = false) -> RatesClient.Configuration {
        RatesClient.Configuration(
            server: URL(string: "http://rates.test/")!, cacheURL: url, apiKey: "secret", window: window,
            retry: RetryPolicy(maxAttempts: maxAttempts, baseDelay: .milliseconds(1), maxDelay: .milliseconds(20)), autoRefresh: autoRefresh,
            bundledRates: nil)
    }

    /// A client on this cache whose requests are answered by `server`, at the clock's time.
    func client(
        server: ScriptedServer = ScriptedServer(), clock: TestClock = TestClock(), window: Day? = nil, maxAttempts: Int = 3, autoRefresh: Bool = false
    ) throws -> RatesClient {
        try RatesClient(
            configuration: configuration(window: window, maxAttempts: maxAttempts, autoRefresh: autoRefresh), transport: server.transport, now: clock.now)
    }
}

/// A settable clock, 2026-11-02 18:00 UTC unless told otherwise.
final class TestClock: Sendable {
    private let date: Mutex<Date>

    init(_ text: String = "2026-11-02T18:00:00Z") { date = Mutex(SyncPage.instant(text)!) }

    var now: @Sendable () -> Date { { [self] in date.withLock { $0 } } }
    func set(_ text: String) { date.withLock { $0 = SyncPage.instant(text)! } }
}

// MARK: - Pages

func page(
    epoch: String = "e1", cursor: String, more: Bool = false, reset: Bool = false, latest: String? = nil, expected: String? = nil,
    stale: Bool? = nil, next: String = "2026-11-03T15:00:00Z", upserts: [Day: [CurrencyCode: String]] = [:], deletes: [Day: [CurrencyCode]] = [:]
) -> SyncPage {
    SyncPage(
        epoch: epoch, cursor: cursor, more: more, reset: reset, base: .euro, latestDate: latest.map(day) ?? upserts.keys.max(),
        expectedLatestDate: expected.map(day), stale: stale, nextUpdateAfter: SyncPage.instant(next), upserts: upserts, deletes: deletes)
}

/// A page as the server writes it; `expected` and `stale` are left out when `nil`, as servers before them do.
func pageJSON(
    epoch: String = "e1", cursor: String, more: Bool = false, reset: Bool = false, latest: String? = "2026-11-02", expected: String? = nil,
    stale: Bool? = nil, next: String = "2026-11-03T15:00:00Z", upserts: [String: [String: String]] = [:], deletes: [String: [String]] = [:]
) -> Data {
    struct Wire: Encodable {
        var epoch: String, cursor: String, more: Bool, reset: Bool, base: String, latestDate: String?, expectedLatestDate: String?, stale: Bool?
        var nextUpdateAfter: String, upserts: [String: [String: String]], deletes: [String: [String]]
    }
    return try! JSONEncoder().encode(Wire(
        epoch: epoch, cursor: cursor, more: more, reset: reset, base: "EUR", latestDate: latest, expectedLatestDate: expected, stale: stale,
        nextUpdateAfter: next, upserts: upserts, deletes: deletes))
}

/// A snapshot of `days` as a single tail page.
func snapshot(_ days: [Day: [CurrencyCode: String]], cursor: String = "c1", epoch: String = "e1") -> SyncPage {
    page(epoch: epoch, cursor: cursor, upserts: days)
}

// MARK: - A scripted server

/// Answers requests in order from a script and records them.
final class ScriptedServer: Sendable {
    typealias Handler = @Sendable (URLRequest) throws -> HTTPExchange
    private let state = Mutex<(script: [Handler], requests: [URLRequest])>(([], []))

    init(_ script: [Handler] = []) { state.withLock { $0.script = script } }

    func then(_ handler: @escaping Handler) { state.withLock { $0.script.append(handler) } }
    func then(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        then { _ in HTTPExchange(status: status, headers: headers, body: body) }
    }
    func thenJSON(_ body: Data, etag: String? = nil) {
        then(status: 200, headers: ["Content-Type": "application/json"].merging(etag.map { ["ETag": $0] } ?? [:]) { a, _ in a }, body: body)
    }
    func thenUnreachable() { then { _ in throw URLError(.cannotConnectToHost) } }

    var requests: [URLRequest] { state.withLock { $0.requests } }
    var remaining: Int { state.withLock { $0.script.count } }

    // MARK: Event streams

    private let streams = Mutex<[AsyncThrowingStream<EventStreamMessage, any Error>.Continuation]>([])

    /// Event-stream connections opened so far (each stays open until the client drops it).
    var eventConnections: Int { streams.withLock { $0.count } }

    /// Sends `message` on the newest event-stream connection.
    func send(_ message: EventStreamMessage) {
        _ = streams.withLock { $0.last }?.yield(message)
    }

    /// Waits (up to ``patience``) until `count` event-stream connections were opened.
    func waitForEventConnections(_ count: Int) async {
        await waitUntil { eventConnections >= count }
    }

    var transport: HTTPTransport {
        HTTPTransport(send: send, events: { [self] _ in
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: EventStreamMessage.self, throwing: (any Error).self)
            streams.withLock { $0.append(continuation) }
            return stream
        })
    }

    private var send: @Sendable (URLRequest) async throws -> HTTPExchange {
        { [self] request in
            let handler = state.withLock { state -> Handler? in
                state.requests.append(request)
                return state.script.isEmpty ? nil : state.script.removeFirst()
            }
            guard let handler else {
                Issue.record("unexpected request \(request.url?.absoluteString ?? "-")")
                throw URLError(.cannotConnectToHost)
            }
            return try handler(request)
        }
    }
}

extension URLRequest {
    /// A query parameter of the URL.
    func query(_ name: String) -> String? {
        url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?.queryItems?.first { $0.name == name }?.value
    }
}

// MARK: - Collecting a stream

/// Consumes a stream in the background, keeping what it yields.
final class Collected<Element: Sendable>: Sendable {
    private final class State: Sendable {
        let value = Mutex<(values: [Element], error: String?, finished: Bool)>(([], nil, false))
    }
    private let state = State()
    private let task: Task<Void, Never>

    init(_ stream: AsyncThrowingStream<Element, any Error>) {
        let state = state
        task = Task {
            do {
                for try await value in stream { state.value.withLock { $0.values.append(value) } }
                state.value.withLock { $0.finished = true }
            } catch {
                state.value.withLock {
                    $0.error = String(describing: error)
                    $0.finished = true
                }
            }
        }
    }

    var values: [Element] { state.value.withLock { $0.values } }
    var error: String? { state.value.withLock { $0.error } }

    /// Waits (up to `timeout`) until `count` values arrived; returns them.
    @discardableResult
    func wait(for count: Int, timeout: Duration = patience) async -> [Element] {
        await waitUntil(timeout: timeout) { values.count >= count || state.value.withLock { $0.finished } }
        return values
    }

    /// Whether the stream has ended (finished, failed or cancelled): its termination handler has run.
    var isFinished: Bool { state.value.withLock { $0.finished } }

    func cancel() { task.cancel() }
    deinit { task.cancel() }
}
