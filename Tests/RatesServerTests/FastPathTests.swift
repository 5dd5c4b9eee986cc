import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RatesCore
import RatesServer
import RatesTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// One client TCP connection to the loopback server, for exchanges below the HTTP client's level.
///
/// Its calls block, so tests make them through ``onOwnThread(_:)``: a test blocked on a socket
/// must not hold a thread the server's application needs to answer it.
final class RawConnection: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let socket: Int32

    /// How long a read waits for a byte before giving up: a deadline for a server that never
    /// answers or never closes, generous enough that a slow one on a loaded machine is not mistaken for it.
    static let patience = 60

    /// Connects to `port` on loopback; `receiveBuffer` (bytes) shrinks the socket's receive buffer,
    /// so that a large answer cannot be taken by the socket at once and the server must wait for the reader.
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "no socket") }
        var timeout = timeval(tv_sec: Self.patience, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer { setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw Failure(description: "cannot connect to port \(port)")
        }
    }

    deinit { close(socket) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw Failure(description: "sent \(sent) of \(bytes.count) bytes") }
    }

    /// The `Content-Length` an answer's head gives, or `nil` when it gives none.
    static func contentLength(inHead head: some StringProtocol) -> Int? {
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    }

    /// Ends this side of the connection (a half-close): the server reads the end of its requests
    /// and can still answer them.
    func finishSending() { shutdown(socket, Int32(SHUT_WR)) }

    /// Whether bytes (or the end of the stream) can be read, waiting up to `milliseconds` for them.
    func isReadable(waiting milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) == 1
    }

    /// What arrives until the server closes the connection (`closed`), or until ``patience`` seconds pass without a byte.
    ///
    /// A reset counts as closed: a server that closes while bytes it has not read are waiting
    /// (a client still sending) makes the kernel send a reset instead of an orderly end.
    func readToEnd() -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return (String(decoding: received, as: UTF8.self), count == 0 || errno == ECONNRESET) }
            received += buffer[0..<count]
        }
    }

    /// The next response, read by its `Content-Length`; `nil` when the server closed the connection first.
    func readResponse() throws -> String? {
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while !received.suffix(4).elementsEqual("\r\n\r\n".utf8) {
            guard recv(socket, &byte, 1, 0) == 1 else { return nil }
            received.append(byte)
        }
        let head = String(decoding: received, as: UTF8.self)
        let length = Self.contentLength(inHead: head) ?? 0
        var body = [UInt8](repeating: 0, count: length)
        var read = 0
        while read < length {
            let count = body[read...].withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            read += count
        }
        return head + String(decoding: body, as: UTF8.self)
    }
}

/// Sends `request` bytes on one new loopback TCP connection and returns everything read until the server closes it.
func rawExchange(port: Int, _ request: String) async throws -> String {
    try await onOwnThread {
        let connection = try RawConnection(port: port)
        try connection.send(request)
        return connection.readToEnd().text
    }
}

/// The result of blocking `work`, run on a thread of its own rather than one of Swift concurrency's few.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

@Suite("Prepared answers from the connection's pipeline")
struct FastPathTests {
    @Test("pipelined requests are answered in order, prepared answers included")
    func pipelinedOrder() async throws {
        try await withSeededServer { client in
            // Prepare two answers, so the fast path holds them.
            for symbol in ["USD", "GBP"] { #expect(try await client.request("/v1/latest?symbols=\(symbol)").status == .ok) }
            let port = try #require(client.port)
            // /v1/status is never prepared: it goes to the application, and the prepared answers behind it must wait.
            let stream = try await rawExchange(port: port, """
                GET /v1/status HTTP/1.1\r\nHost: test\r\n\r\n\
                GET /v1/latest?symbols=USD HTTP/1.1\r\nHost: test\r\n\r\n\
                GET /v1/nope HTTP/1.1\r\nHost: test\r\n\r\n\
                GET /v1/latest?symbols=GBP HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n
                """)
            let statuses = stream.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
            #expect(statuses == ["200", "200", "404", "200"], "\(stream)")
            let status = try #require(stream.range(of: "\"source\""))
            let usd = try #require(stream.range(of: "\"USD\":1.1172"))
            let notFound = try #require(stream.range(of: "urn:rates-relay:problem:not-found"))
            let gbp = try #require(stream.range(of: "\"GBP\":0.8338"))
            #expect(status.lowerBound < usd.lowerBound && usd.lowerBound < notFound.lowerBound && notFound.lowerBound < gbp.lowerBound)
        }
    }

    @Test("a HEAD answer has no body, and the prepared answers after it on the same connection are framed right")
    func headBetweenPreparedAnswers() async throws {
        try await withSeededServer { client in
            #expect(try await client.request("/v1/latest?symbols=USD").status == .ok)
            let port = try #require(client.port)
            let stream = try await rawExchange(port: port, """
                GET /v1/latest?symbols=USD HTTP/1.1\r\nHost: test\r\n\r\n\
                HEAD /v1/latest?symbols=USD HTTP/1.1\r\nHost: test\r\n\r\n\
                HEAD /v1/currencies HTTP/1.1\r\nHost: test\r\n\r\n\
                GET /v1/latest?symbols=USD HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n
                """)
            let answers = Array(stream.components(separatedBy: "HTTP/1.1 ").dropFirst())
            #expect(answers.map { $0.prefix(3) } == ["200", "200", "200", "200"], "\(stream)")
            let bodies = answers.map { $0.components(separatedBy: "\r\n\r\n").dropFirst().joined() }
            #expect(bodies.count == 4 && bodies[0].hasPrefix("{") && bodies[3] == bodies[0], "\(stream)")
            #expect(bodies.count == 4 && bodies[1].isEmpty && bodies[2].isEmpty, "HEAD answers have no body: \(stream)")
            #expect(answers.first { $0.lowercased().contains("content-length: ") } != nil)
            #expect(answers.count == 4 && answers[1].lowercased().contains("content-length: 68"), "a HEAD answer says the length a GET would have")
        }
    }

    @Test("a prepared answer carries the same validators and headers as the first one, and a fresh request ID")
    func sameHeaders() async throws {
        try await withSeededServer { client in
            let first = try await client.request("/v1/latest?base=USD")
            let again = try await client.request("/v1/latest?base=USD")
            #expect(again.body == first.body)
            for name: HTTPField.Name in [.eTag, .cacheControl, .contentType, .server] { #expect(again.headers[name] == first.headers[name], "\(name)") }
            // The Date header is an RFC 9110 IMF-fixdate of now, weekday included.
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let date = try #require(again.headers[.date])
            let parsed = try #require(formatter.date(from: date), "\(date)")
            #expect(formatter.string(from: parsed) == date && abs(parsed.timeIntervalSinceNow) < 5)
            let ids = [first, again].compactMap { $0.headers[HTTPField.Name("X-Request-ID")!] }
            #expect(ids.count == 2 && ids[0] != ids[1])
            let notModified = try await client.request("/v1/latest?base=USD", headers: [.ifNoneMatch: try #require(first.headers[.eTag])])
            #expect(notModified.status == .notModified && notModified.body.readableBytes == 0)
        }
    }

    @Test("a request asked again after a publication gets the new day under a new tag, and a client holding the old tag gets it too")
    func repeatedAnswerFollowsPublication() async throws {
        let days = FakeUpstream.history.suffix(2).map(\.day)
        let upstream = FakeUpstream(publishedThrough: days[0], firstDay: days[0].adding(days: -10))
        try await TestServer.withEmptyDatabase { database in
            try await upstream.run { url in
                let configuration = TestServer.configuration(database: database, upstream: url)
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    #expect(try await client.refresh().json["outcome"] as? String == "updated")
                    let before = try await client.request("/v1/latest?base=USD")
                    let again = try await client.request("/v1/latest?base=USD")
                    #expect(before.json["date"] as? String == days[0].description)
                    #expect(again.body == before.body && again.headers[.eTag] == before.headers[.eTag])
                    let oldTag = try #require(before.headers[.eTag])
                    #expect(try await client.request("/v1/latest?base=USD", headers: [.ifNoneMatch: oldTag]).status == .notModified)

                    upstream.publish(through: days[1])
                    #expect(try await client.refresh().json["outcome"] as? String == "updated")
                    let after = try await client.request("/v1/latest?base=USD")
                    #expect(after.json["date"] as? String == days[1].description)
                    #expect(after.headers[.eTag] != oldTag)
                    let held = try await client.request("/v1/latest?base=USD", headers: [.ifNoneMatch: oldTag])
                    #expect(held.status == .ok && held.body == after.body)
                }
            }
        }
    }

    @Test("a connection used only for prepared answers stays open while in use and is closed once idle")
    func idleTimeoutCountsPreparedAnswers() async throws {
        let idleTimeout = Duration.seconds(2)
        try await withSeededServer(configure: { $0.idleTimeout = idleTimeout }) { client in
            // Raw connections only: the test client's own connection may sit idle and be closed.
            let port = try #require(client.port)
            let first = try await rawExchange(port: port, "GET /v1/latest HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            #expect(first.hasPrefix("HTTP/1.1 200 OK"))
            // Back-to-back requests on one connection, at least `answersPerAttempt` of them and for at
            // least three idle timeouts (a slow machine makes an attempt longer, never a failure),
            // then silence. A close while in use is the server's fault only if this client never
            // paused for long: a pause of half the idle timeout or more between two requests (a loaded
            // machine) makes the attempt void, and it is tried again on a new connection, up to
            // `maxAttempts` times.
            let answersPerAttempt = 20, maxAttempts = 5
            var attempts: [String] = []
            for _ in 0..<maxAttempts {
                let attempt = try await onOwnThread { () throws -> (answered: Int, longestPause: Duration, failure: String?) in
                    let connection = try RawConnection(port: port)
                    let opened = ContinuousClock.now
                    var answered = 0, longestPause = Duration.zero, lastSent = opened
                    while answered < answersPerAttempt || ContinuousClock.now - opened < idleTimeout * 3 {
                        let sending = ContinuousClock.now
                        longestPause = max(longestPause, sending - lastSent)
                        lastSent = sending
                        try connection.send("GET /v1/latest HTTP/1.1\r\nHost: test\r\n\r\n")
                        guard let response = try connection.readResponse(), response.hasPrefix("HTTP/1.1 200 OK"), response.contains("\"USD\":") else {
                            return (answered, longestPause, "closed or wrong after \(answered) answers")
                        }
                        answered += 1
                    }
                    let (rest, closed) = connection.readToEnd()
                    return (answered, longestPause, closed && rest.isEmpty ? nil : "not closed once idle")
                }
                attempts.append("\(attempt.answered) answers, longest pause \(attempt.longestPause): \(attempt.failure ?? "ok")")
                guard attempt.failure?.hasPrefix("closed") == true, attempt.longestPause >= idleTimeout / 2 else {
                    #expect(attempt.failure == nil && attempt.answered >= answersPerAttempt, "\(attempts)")
                    return
                }
            }
            Issue.record("each of \(maxAttempts) attempts had a long pause of this client's: \(attempts)")
        }
    }

    @Test("HTTP/1.0 and Connection: close requests get their whole answer and then the connection is closed")
    func closingRequestsClose() async throws {
        try await withSeededServer { client in
            #expect(try await client.request("/v1/latest").status == .ok)
            let port = try #require(client.port)
            // The long series is megabytes: more than the socket takes at once, so closing early would cut it.
            let requests = [
                "GET /v1/latest HTTP/1.0\r\n\r\n",
                "GET /v1/latest HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n",
                "GET /v1/timeseries?start=1999-01-04&end=2026-10-30 HTTP/1.0\r\n\r\n",
            ]
            for request in requests {
                let (text, closed) = try await onOwnThread {
                    // A small receive buffer: the server has most of a long answer still to write when
                    // its first bytes arrive, so a close that did not wait for the writes would cut it.
                    let connection = try RawConnection(port: port, receiveBuffer: 4096)
                    try connection.send(request)
                    guard connection.isReadable(waiting: Int32(RawConnection.patience * 1000)) else { return ("", false) }
                    return connection.readToEnd()
                }
                let parts = text.components(separatedBy: "\r\n\r\n")
                let length = RawConnection.contentLength(inHead: parts[0])
                #expect(text.contains(" 200 OK\r\n") && text.contains("\"USD\":"), "\(text.prefix(300))")
                #expect(closed, "\(request)")
                #expect(length != nil || request.contains("HTTP/1.0"), "an HTTP/1.1 answer says its length")
                if let length { #expect(parts.dropFirst().joined(separator: "\r\n\r\n").utf8.count == length, "the whole body arrived") }
            }
        }
    }

    @Test("a client that ends its side of the connection gets its whole answers, then the server closes at once, not at the idle timeout")
    func clientEndingItsSideIsClosed() async throws {
        try await withSeededServer(configure: { $0.idleTimeout = .seconds(3_600) }) { client in
            #expect(try await client.request("/v1/latest").status == .ok)
            let port = try #require(client.port)
            // A prepared answer, two pipelined, one of the application's, and a series of megabytes
            // that a small receive buffer makes the server write over many turns.
            let requests = [
                "GET /v1/latest HTTP/1.1\r\nHost: test\r\n\r\n",
                "GET /v1/latest HTTP/1.1\r\nHost: test\r\n\r\nGET /v1/latest?base=USD HTTP/1.1\r\nHost: test\r\n\r\n",
                "GET /v1/providers HTTP/1.1\r\nHost: test\r\n\r\n",
                "GET /v1/timeseries?start=1999-01-04&end=2026-10-30 HTTP/1.1\r\nHost: test\r\n\r\n",
            ]
            for request in requests {
                let (text, closed) = try await onOwnThread {
                    let connection = try RawConnection(port: port, receiveBuffer: 4096)
                    try connection.send(request)
                    connection.finishSending()
                    return connection.readToEnd()
                }
                #expect(closed, "closed within \(RawConnection.patience) s where the idle timeout is an hour: \(request)")
                let answers = text.components(separatedBy: "HTTP/1.1 200 OK\r\n").dropFirst()
                #expect(answers.count == request.components(separatedBy: "GET ").count - 1, "\(text.prefix(300))")
                if let last = answers.last {
                    let parts = last.components(separatedBy: "\r\n\r\n")
                    let length = RawConnection.contentLength(inHead: parts[0])
                    let body = parts.dropFirst().joined(separator: "\r\n\r\n")
                    #expect(length.map { body.utf8.count == $0 } ?? body.hasSuffix("\r\n0\r\n\r\n"), "the whole body arrived: \(request)")
                }
            }
        }
    }

    @Test("a request body trickled a byte at a time is cut off once the idle timeout has passed since its head")
    func trickledBodyIsCutOff() async throws {
        let idleTimeout = Duration.seconds(1)
        try await withSeededServer(configure: { $0.idleTimeout = idleTimeout }) { client in
            let port = try #require(client.port)
            // A byte every 0.2 s or more until the server ends the connection, at most `trickled` of the
            // body's 1000: at least 60 idle timeouts' worth. The verdict counts bytes, not seconds: a
            // server that let the trickle keep the request alive takes every one of them and still
            // waits for the rest; one that cuts it off takes fewer, however slowly this machine runs.
            let trickled = 300
            let (elapsed, closed, sent) = try await onOwnThread { () throws -> (Duration, Bool, Int) in
                let connection = try RawConnection(port: port)
                let start = ContinuousClock.now
                try connection.send("GET /v1/latest HTTP/1.1\r\nHost: test\r\nContent-Length: 1000\r\n\r\n")
                var sent = 0
                while sent < trickled, !connection.isReadable(waiting: 200), (try? connection.send("x")) != nil {
                    sent += 1
                }
                let closed = connection.readToEnd().closed
                return (ContinuousClock.now - start, closed, sent)
            }
            #expect(closed && sent < trickled, "closed: \(closed) after \(elapsed), \(sent) bytes of the body sent")
            #expect(elapsed >= idleTimeout, "not before the idle timeout: \(elapsed)")
        }
    }
}
