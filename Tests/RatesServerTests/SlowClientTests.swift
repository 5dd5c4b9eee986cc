import Foundation
import Hummingbird
import HummingbirdTesting
import RatesServer
import RatesTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Many idle connections and slowloris clients (request headers trickled a byte at a time and
/// never finished) must not starve normal clients, and the server must close them once the idle
/// timeout has passed, so they cannot pile up.
///
/// Nothing here measures how fast the machine is: the first test counts the normal client's answers
/// while every slow connection is still held open, the second waits for each slow connection's close.
@Suite("Slow and idle clients")
struct SlowClientTests {
    /// How many connections of each kind to hold open: 500 idle and 200 slow, fewer when the
    /// descriptor limit is low (each connection costs two descriptors in this process: ours and the server's).
    static var connectionCounts: (idle: Int, slow: Int) {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let budget = max(40, (Int(limit.rlim_cur) - 512) / 4)  // leave half the limit to the suites running alongside
        return (min(500, budget * 5 / 7), min(200, budget * 2 / 7))
    }

    @Test("with hundreds of idle and slowloris connections open, a normal client is answered while all of them are still held")
    func slowClientsDoNotStarveNormalOnes() async throws {
        // An idle timeout far beyond the test: the slow connections stay open throughout, so a normal
        // client that got its answers only once they were dropped would get none.
        try await withSeededServer(configure: { $0.idleTimeout = .seconds(3600) }) { client in
            let port = try #require(client.port)
            let (idleCount, slowCount) = Self.connectionCounts
            let (idle, slow) = try await Self.openSlowConnections(port: port, idle: idleCount, slow: slowCount)
            let trickler = SlowTrickler(slow)

            let answered = try await onOwnThread { try Self.normalClient(port: port) }
            #expect(answered.failures.isEmpty, "\(answered.failures)")
            #expect(answered.count == 60)
            try await trickler.waitForRounds(2)
            // Every idle and slow connection is still open (nothing to read, not even its end), and the slow ones were trickling meanwhile.
            let stillOpen = (idle + slow).filter { !$0.isReadable(waiting: 0) }.count
            #expect(stillOpen == idleCount + slowCount, "\(idleCount + slowCount - stillOpen) connections ended early")
            try await trickler.stop()
            print("SlowClientTests: \(answered.count) answers to a normal client while \(idleCount) idle + \(slowCount) slowloris connections were held open")
        }
    }

    @Test("idle and slowloris connections are closed by the server once the idle timeout has passed, unanswered, and the server still answers")
    func slowClientsAreClosed() async throws {
        let idleTimeout = Duration.seconds(3)
        try await withSeededServer(configure: { $0.idleTimeout = idleTimeout }) { client in
            let port = try #require(client.port)
            let (idleCount, slowCount) = Self.connectionCounts
            let opened = ContinuousClock.now
            let (idle, slow) = try await Self.openSlowConnections(port: port, idle: idleCount, slow: slowCount)
            let trickler = SlowTrickler(slow)

            // Each read ends when the server closes the connection (0 bytes); a connection the server
            // left open would block its read for a minute: stop at the first one.
            let outcomes = try await onOwnThread {
                var outcomes: [(text: String, closed: Bool)] = []
                for connection in idle + slow {
                    outcomes.append(connection.readToEnd())
                    if outcomes.last?.closed == false { break }
                }
                return outcomes
            }
            let closedAfter = ContinuousClock.now - opened
            let rounds = try await trickler.stop()
            print("SlowClientTests: all \(outcomes.count) idle and slow connections closed by the server \(closedAfter) after opening (idle timeout \(idleTimeout))")
            #expect(outcomes.count == idleCount + slowCount && outcomes.allSatisfy(\.closed), "a connection was still open after a minute without a byte")
            #expect(outcomes.suffix(slowCount).allSatisfy { !$0.text.hasPrefix("HTTP/1.1 200") }, "a never-finished request is not answered")
            #expect(rounds >= 1, "the slow clients were trickling bytes while they waited")
            // The server cannot have closed them before the idle timeout, however fast or slow the machine.
            #expect(closedAfter >= idleTimeout, "closed \(closedAfter) after opening")

            // And the server still answers normally afterwards, on new connections.
            for uri in ["/v1/latest", "/v1/convert?from=USD&to=JPY&amount=5", "/healthz"] {
                let answer = try await rawExchange(port: port, "GET \(uri) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                #expect(answer.hasPrefix("HTTP/1.1 200"), "\(uri): \(answer.prefix(40))")
            }
        }
    }

    /// Opens `idle` connections that send nothing and `slow` ones that send the start of a request head.
    static func openSlowConnections(port: Int, idle: Int, slow: Int) async throws -> (idle: [RawConnection], slow: [RawConnection]) {
        let idleConnections = try await onOwnThread { try (0..<idle).map { _ in try RawConnection(port: port) } }
        let slowConnections = try await onOwnThread {
            try (0..<slow).map { index in
                let connection = try RawConnection(port: port)
                try connection.send("GET /v1/latest?slow=\(index) HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                return connection
            }
        }
        return (idleConnections, slowConnections)
    }

    /// What a normal client got: 50 sequential requests on one keep-alive connection and 10 on new connections.
    struct Answers {
        var count = 0
        var failures: [String] = []
    }

    static func normalClient(port: Int) throws -> Answers {
        var answers = Answers()
        let uris = ["/v1/latest", "/v1/convert?from=USD&to=JPY&amount=5", "/v1/rates/2020-03-02?symbols=GBP", "/v1/currencies", "/healthz"]
        let keepAlive = try RawConnection(port: port)
        for index in 0..<50 {
            let uri = uris[index % uris.count]
            try keepAlive.send("GET \(uri) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let response = try keepAlive.readResponse()
            if response?.hasPrefix("HTTP/1.1 200") == true { answers.count += 1 } else { answers.failures.append("\(uri): \(response?.prefix(40) ?? "closed")") }
        }
        for index in 0..<10 {
            let uri = uris[index % uris.count]
            let connection = try RawConnection(port: port)
            try connection.send("GET \(uri) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let response = connection.readToEnd().text
            if response.hasPrefix("HTTP/1.1 200") { answers.count += 1 } else { answers.failures.append("new connection \(uri): \(response.prefix(40))") }
        }
        return answers
    }
}

/// Trickles one header byte on each slowloris connection every 100 ms, on a thread of its own, until stopped.
final class SlowTrickler: Sendable {
    private final class Progress: Sendable {
        let stopping = Atomic(false)
        /// Rounds in which at least one connection took a byte.
        let rounds = Atomic(0)
    }

    private let progress = Progress()
    private let task: Task<Void, any Error>

    init(_ connections: [RawConnection]) {
        let progress = progress
        task = Task.detached {
            try await onOwnThread {
                while !progress.stopping.load(ordering: .relaxed) {
                    let took = connections.filter { (try? $0.send("X")) != nil }.count   // every connection, no short cut
                    if took > 0 { progress.rounds.add(1, ordering: .relaxed) }
                    usleep(100_000)
                }
            }
        }
    }

    /// Waits until `count` more rounds of bytes have gone out.
    func waitForRounds(_ count: Int) async throws {
        let target = progress.rounds.load(ordering: .relaxed) + count
        try await waitUntil("\(count) more rounds of trickled bytes") { progress.rounds.load(ordering: .relaxed) >= target }
    }

    /// Stops the trickle; returns the rounds in which bytes went out.
    @discardableResult
    func stop() async throws -> Int {
        progress.stopping.store(true, ordering: .relaxed)
        try await task.value
        return progress.rounds.load(ordering: .relaxed)
    }
}
