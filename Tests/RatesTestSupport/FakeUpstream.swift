import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import RatesCore
import RatesIngest
import RatesServer
import RatesUpstream
import Synchronization

/// A real HTTP server on loopback that publishes the ECB's files the way the ECB does.
///
/// It holds the ECB's real published history (the bundled `eurofxref-hist.zip`) and serves
/// `eurofxref-daily.xml`, `eurofxref-hist-90d.xml` and `eurofxref-hist.xml` in the ECB's XML
/// layout for the days published so far. Tests move the publication date forward, make it fail
/// on demand, and count what was asked.
package final class FakeUpstream: Sendable {
    /// A way to misbehave, for the next requests until cleared.
    package enum Fault: Sendable {
        /// Answer this status (with an optional `Retry-After`).
        case status(Int, retryAfter: String? = nil)
        /// Answer 200 with this body instead of the real file.
        case body(String)
        /// Answer 200 with the real file cut in half.
        case truncated
        /// Wait this long before answering normally.
        case delay(Duration)
        /// Answer 200 and send half of the real file, then stall before the rest: this long at most,
        /// and no longer than the fault is in force (``inject(_:)`` with another fault or `nil` ends the stall).
        case stallMidBody(Duration)
        /// Answer 302 pointing back at the file asked for, whatever is asked.
        case redirectLoop
    }

    private struct State {
        var publishedThrough: Day
        var fault: Fault?
        /// Counts calls to ``inject(_:)``, so that a stall can tell when its fault was lifted.
        var faultGeneration = 0
        var requests: [String] = []
        /// How many requests were answered `304 Not Modified`.
        var notModified = 0
        /// Days republished with other rates (corrections, withdrawals), in place of the real ones.
        var amendments: [Day: [CurrencyCode: String]] = [:]
        /// Counts amendments, so that files and their `ETag`s change with them.
        var revision = 0
        /// Requests wait before answering while this is set.
        var held = false
    }

    /// The ECB's real history, ascending.
    package static let history: [DailyRates] = {
        guard let url = SeedData.historyURL, let batch = try? ECBHistoryFile.read(contentsOf: url) else {
            fatalError("the bundled ECB history is missing")
        }
        return batch.days
    }()

    /// The ECB's currency order in its files.
    package static let currencyOrder = "USD JPY BGN CYP CZK DKK EEK GBP HUF LTL LVL MTL PLN ROL RON SEK SIT SKK CHF ISK NOK HRK RUB TRL TRY AUD BRL CAD CNY HKD IDR ILS INR KRW MXN MYR NZD PHP SGD THB ZAR"
        .split(separator: " ").compactMap(CurrencyCode.init)

    private let state: Mutex<State>
    private let bodies = Mutex<[String: ByteBuffer]>([:])
    /// The first day it ever published: tests that need no 1999 data start later and run faster.
    package let firstDay: Day

    package init(publishedThrough: Day, firstDay: Day = Day("1999-01-04")!) {
        state = Mutex(State(publishedThrough: publishedThrough))
        self.firstDay = firstDay
    }

    /// Publishes every real day up to and including `day`.
    package func publish(through day: Day) { state.withLock { $0.publishedThrough = day } }

    /// Republishes `day` with `rates` instead of the real ones: a correction, or a withdrawal when a currency is left out.
    package func amend(_ day: Day, rates: [CurrencyCode: String]) {
        state.withLock { state in
            state.amendments[day] = rates
            state.revision += 1
        }
    }

    /// The rates of `day` as published now (amended or real), `nil` when the day has no publication.
    package func published(_ day: Day) -> [CurrencyCode: String]? {
        let amended = state.withLock { $0.amendments[day] }
        return amended ?? Self.history.first { $0.day == day }?.rates
    }

    /// Holds every answer from now on until ``release()``: requests are received and counted, then wait.
    package func hold() { state.withLock { $0.held = true } }

    /// Lets held requests and every later one be answered.
    package func release() { state.withLock { $0.held = false } }

    /// Misbehaves from now on (`nil` to behave again).
    package func inject(_ fault: Fault?) {
        state.withLock { state in
            state.fault = fault
            state.faultGeneration += 1
        }
    }

    /// Paths requested so far, in order.
    package var requests: [String] { state.withLock { $0.requests } }

    /// How many requests were answered `304 Not Modified` (a conditional GET of a file that had not changed).
    package var notModifiedCount: Int { state.withLock { $0.notModified } }

    package func requestCount(_ file: ECBFile) -> Int { requests.filter { $0 == "/" + file.rawValue }.count }

    /// Runs the server on a free loopback port for the duration of `body`, passing its base URL.
    package func run<Value: Sendable>(_ body: @Sendable (String) async throws -> Value) async throws -> Value {
        // Parse the bundled history now, outside any request: done lazily inside the first answer, it
        // can take longer than the clients' timeouts on a loaded machine.
        _ = Self.history
        let router = Router()
        router.get("/:file") { request, context in try await self.respond(to: request, file: context.parameters.get("file") ?? "") }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.test(.live) { client in
            try await body("http://127.0.0.1:\(client.port!)/")
        }
    }

    private func respond(to request: Request, file name: String) async throws -> Response {
        let (through, fault, revision, generation) = state.withLock { state in
            state.requests.append(request.uri.path)
            return (state.publishedThrough, state.fault, state.revision, state.faultGeneration)
        }
        while state.withLock({ $0.held }) { try await Task.sleep(for: .milliseconds(5)) }
        guard let file = ECBFile(rawValue: name) else { return Response(status: .notFound) }
        let etag = "\"\(file.rawValue)-\(through)-\(revision)\""
        switch fault {
        case .status(let code, let retryAfter):
            var headers: HTTPFields = [:]
            if let retryAfter { headers[.retryAfter] = retryAfter }
            return Response(status: .init(code: code), headers: headers, body: .init(byteBuffer: ByteBuffer(string: "<html>error</html>")))
        case .body(let text):
            return Response(status: .ok, headers: [.contentType: "text/xml"], body: .init(byteBuffer: ByteBuffer(string: text)))
        case .truncated:
            var document = xml(file, through: through)
            document.moveWriterIndex(to: document.writerIndex / 2)
            return Response(status: .ok, headers: [.contentType: "text/xml"], body: .init(byteBuffer: document))
        case .delay(let duration):
            try await Task.sleep(for: duration)
        case .stallMidBody(let duration):
            var document = xml(file, through: through)
            let half = document.readSlice(length: document.readableBytes / 2)!
            let rest = document
            return Response(status: .ok, headers: [.contentType: "text/xml"], body: .init(contentLength: half.readableBytes + rest.readableBytes) { writer in
                try await writer.write(half)
                let end = ContinuousClock.now + duration
                while ContinuousClock.now < end, self.state.withLock({ $0.faultGeneration }) == generation { try await Task.sleep(for: .milliseconds(10)) }
                try await writer.write(rest)
                try await writer.finish(nil)
            })
        case .redirectLoop:
            return Response(status: .found, headers: [.location: request.uri.path])
        case nil:
            break
        }
        if request.headers[.ifNoneMatch] == etag {
            state.withLock { $0.notModified += 1 }
            return Response(status: .notModified, headers: [.eTag: etag])
        }
        return Response(status: .ok, headers: [.contentType: "text/xml", .eTag: etag], body: .init(byteBuffer: xml(file, through: through)))
    }

    /// The file as the ECB would publish it with data up to `through`.
    package func xml(_ file: ECBFile, through: Day) -> ByteBuffer {
        let (amendments, revision) = state.withLock { ($0.amendments, $0.revision) }
        let key = "\(file.rawValue)-\(through)-\(revision)"
        if let cached = bodies.withLock({ $0[key] }) { return cached }
        let published = Self.history.filter { $0.day >= firstDay && $0.day <= through }
            .map { DailyRates(day: $0.day, rates: amendments[$0.day] ?? $0.rates) }
        let days: ArraySlice<DailyRates> =
            switch file {
            case .daily: published.suffix(1)
            case .ninetyDays: published.drop { $0.day <= through.adding(days: -90) }
            case .history: published[...]
            }
        let body = ByteBuffer(string: Self.document(days: days.reversed()))
        bodies.withLock { $0[key] = body }
        return body
    }

    /// The ECB's XML layout: newest day first, currencies in the ECB's order.
    package static func document(days: some Sequence<DailyRates>) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
            \t<gesmes:subject>Reference rates</gesmes:subject>
            \t<gesmes:Sender>
            \t\t<gesmes:name>European Central Bank</gesmes:name>
            \t</gesmes:Sender>
            \t<Cube>

            """
        for day in days {
            xml += "\t\t<Cube time='\(day.day)'>\n"
            for code in currencyOrder { if let rate = day.rates[code] { xml += "\t\t\t<Cube currency='\(code)' rate='\(rate)'/>\n" } }
            xml += "\t\t</Cube>\n"
        }
        xml += "\t</Cube>\n</gesmes:Envelope>\n"
        return xml
    }
}
