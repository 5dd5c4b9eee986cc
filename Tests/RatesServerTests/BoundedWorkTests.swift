import AsyncHTTPClient
import CompressNIO
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import RatesServer
import RatesTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// One request never takes the server past a bound: long answers stream with a constant memory
/// cost, a request for more than one answer carries is refused saying how to page, heavy answers
/// run under a few permits (503 past them) while cheap ones stay answered, and event streams have a cap.
///
/// Nothing here times the machine: the memory test reads the kernel's count of the server's peak
/// resident memory, the others count answers and statuses.
@Suite("Bounded work per request", .serialized)
struct BoundedWorkTests {
    @Test("a whole-history answer streams: the server's peak memory grows by a small part of the 15 MB it sends, and by as little for providers expanded")
    func streamedAnswersHoldLittleMemory() async throws {
        try await TestServer.withSeededDatabase { database in
            let server = try Child.launch(
                "rates-relay", ["serve", "--db", database, "--host", "127.0.0.1", "--port", "0", "--no-seed", "--no-schedule", "--providers", "none"])
            do {
                try await Self.measureStreaming(server)
            } catch {
                _ = try? await server.kill()
                throw error
            }
            _ = try await server.kill()
        }
    }

    /// Streams two long answers from `server` and checks its peak memory while it sends them.
    static func measureStreaming(_ server: Child) async throws {
        try await waitUntil("the server answers") { try server.expectRunning(); return server.listeningPort != nil }
        try await waitUntil("the server is ready") { try server.expectRunning(); return try await server.get("/readyz").status == 200 }
        let pid = server.process.processIdentifier
        let base = "http://127.0.0.1:\(try #require(server.listeningPort))"
        // Every code path warmed up on shorter streamed answers, then the peak reset to what is resident now.
        _ = try await Self.streamed(base + "/v2/rates?from=2024-01-01&base=CHF")
        _ = try await Self.streamed(base + "/v2/rates?from=2026-01-01&expand=providers", accept: "application/x-ndjson")
        let resident = try Self.memory(of: pid, "VmRSS")
        let peak = try #require(FileHandle(forWritingAtPath: "/proc/\(pid)/clear_refs"))
        try peak.write(contentsOf: Data("5".utf8))
        try peak.close()

        let history = try await Self.streamed(base + "/v2/rates?from=1999-01-04&base=USD")
        let expanded = try await Self.streamed(base + "/v2/rates?from=2025-01-01&expand=providers", accept: "application/x-ndjson")
        let growth = try Self.memory(of: pid, "VmHWM") - resident

        #expect(history.chunked && expanded.chunked, "both answers are streamed (no Content-Length)")
        #expect(history.bytes > 14_000_000, "\(history.bytes) bytes")
        #expect(history.lastRecord.contains(#""date":"2026-10-30""#), "the history runs to its last day: \(history.lastRecord)")
        #expect(expanded.lastRecord.contains(#""providers":[{"key":"ECB""#), "each NDJSON record names its providers: \(expanded.lastRecord)")
        // A server that made the answer whole would hold all of it, and more for its buffer's growth.
        #expect(growth < 6 << 20, "the peak grew by \(growth >> 10) KiB for answers of \(history.bytes >> 10) and \(expanded.bytes >> 10) KiB")
        print("BoundedWorkTests: peak resident memory grew by \(growth >> 10) KiB while \(history.bytes >> 10) KiB and \(expanded.bytes >> 10) KiB were streamed")
    }

    @Test("the streamed answer is the same bytes as its year-long pages joined, and its gzip form inflates to them")
    func streamedAnswerEqualsItsPages() async throws {
        try await withSeededServer { client in
            let whole = try await client.request("/v2/rates?from=2016-01-01&to=2026-10-30&base=GBP")
            #expect(whole.status == .ok)
            #expect(whole.headers[.contentLength] == nil, "a large answer is streamed")
            var pages: [String] = []
            for year in 2016...2026 {
                let page = try await client.request("/v2/rates?from=\(year)-01-01&to=\(year == 2026 ? "2026-10-30" : "\(year)-12-31")&base=GBP")
                #expect(page.status == .ok)
                pages.append(String(String(buffer: page.body).dropFirst().dropLast()))
            }
            #expect(String(buffer: whole.body) == "[" + pages.joined(separator: ",") + "]")

            let gzipped = try await client.request("/v2/rates?from=2016-01-01&to=2026-10-30&base=GBP", headers: [.acceptEncoding: "gzip"])
            #expect(gzipped.headers[.contentEncoding] == "gzip")
            #expect(gzipped.headers[.eTag] != whole.headers[.eTag], "the compressed form has its own tag")
            var compressed = gzipped.body
            let inflated = try compressed.decompress(with: .gzip())
            #expect(inflated == whole.body, "\(inflated.readableBytes) bytes inflated, \(whole.body.readableBytes) sent plain")
            let again = try await client.request("/v2/rates?from=2016-01-01&to=2026-10-30&base=GBP", headers: [.ifNoneMatch: try #require(whole.headers[.eTag])])
            #expect(again.status == .notModified, "the client holding it gets 304, as for a prepared answer")
        }
    }

    @Test("a request for more values than one answer carries is refused with 422, saying how to page; each page is answered")
    func tooLargeIsRefusedWithPaging() async throws {
        try await withSeededServer(configure: { $0.maxAnswerValues = 50_000 }) { client in
            for uri in ["/v2/rates?from=1999-01-04&expand=providers", "/v1/timeseries?start=1999-01-04", "/v1/1999-01-04..2026-10-30"] {
                let refused = try await client.request(uri)
                #expect(refused.status == .unprocessableContent, "\(uri)")
                // Frankfurter's routes answer in their clients' shape: a message, not a problem document.
                #expect(refused.headers[.contentType] == (uri.hasPrefix("/v1/timeseries") ? "application/problem+json" : "application/json"), "\(uri)")
                let text = String(buffer: refused.body)
                #expect(text.contains("50000") && text.contains("pages"), "\(uri): \(text)")
            }
            let problem = String(buffer: try await client.request("/v2/rates?from=1999-01-04").body)
            #expect(problem.contains("at most 50000"), "v2 says it in its own shape: \(problem)")
            // A year of every currency is under the bound.
            #expect(try await client.request("/v2/rates?from=2025-01-01&to=2025-12-31").status == .ok)
            #expect(try await client.request("/v1/timeseries?start=1999-01-04&symbols=USD").status == .ok, "one currency over the history")
        }
    }

    @Test("with every heavy-answer permit out, a heavy request gets 503 with Retry-After while cheap ones are answered; once it is back, it is answered")
    func heavyAnswersAreBoundedByPermits() async throws {
        try await withSeededServer(configure: { $0.heavyAnswerConcurrency = 1 }) { client in
            let port = try #require(client.port)
            // A client that reads a few bytes of a 15 MB answer and stops: the server waits for it, holding its permit.
            let stalled = try RawConnection(port: port, receiveBuffer: 4096)
            try stalled.send("GET /v2/rates?from=1999-01-04&base=JPY HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            #expect(stalled.isReadable(waiting: 60_000), "the streamed answer starts")

            let refused = try await client.request("/v1/timeseries?start=2000-01-01&base=USD")
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers[.retryAfter] == "2")
            #expect(String(buffer: refused.body).contains("urn:rates-relay:problem:busy"))
            for uri in ["/v1/latest", "/v1/rates/2020-03-16?base=USD", "/v1/timeseries?start=2026-10-01"] {
                #expect(try await client.request(uri).status == .ok, "\(uri) is cheap: answered while the heavy one runs")
            }
            let metrics = String(buffer: try await client.request("/metrics").body)
            #expect(metrics.contains(#"rates_relay_refusals_total{reason="busy"} 1"#), "the refusal is counted")
            #expect(metrics.contains("rates_relay_heavy_answers 1.0"), "the heavy answer in progress is shown")

            let (text, closed) = try await onOwnThread { stalled.readToEnd() }
            #expect(closed && text.hasSuffix("]\r\n0\r\n\r\n"), "the stalled client gets the whole answer once it reads: \(text.suffix(40).debugDescription)")
            try await waitUntil("the permit is back") {
                try await client.request("/v1/timeseries?start=2000-01-01&base=USD").status == .ok
            }
        }
    }

    @Test("a client that stops reading a streamed answer is cut off after the idle timeout, and the permit it held serves the next")
    func stalledReaderLosesItsPermit() async throws {
        try await withSeededServer(configure: { $0.heavyAnswerConcurrency = 1; $0.idleTimeout = .seconds(2) }) { client in
            let port = try #require(client.port)
            let stalled = try RawConnection(port: port, receiveBuffer: 4096)
            try stalled.send("GET /v2/rates?from=1999-01-04&base=JPY HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(stalled.isReadable(waiting: 60_000), "the streamed answer starts")
            #expect(try await client.request("/v1/timeseries?start=2000-01-01&base=USD").status == .serviceUnavailable, "its permit is held")

            try await waitUntil("the stalled answer's permit serves another request") {
                try await client.request("/v1/timeseries?start=2000-01-01&base=USD").status == .ok
            }
            let (text, closed) = try await onOwnThread { stalled.readToEnd() }
            #expect(closed, "the server closed the stalled connection")
            #expect(!text.hasSuffix("0\r\n\r\n"), "the answer was cut short, not finished: \(text.count) bytes")
        }
    }

    @Test("past the cap on event streams a subscriber gets 503 with Retry-After, counted; a stream that ends makes room")
    func eventStreamsAreCapped() async throws {
        try await withSeededServer(configure: { $0.maxEventSubscribers = 2 }) { client in
            let port = try #require(client.port)
            let subscribe = { () throws -> RawConnection in
                let connection = try RawConnection(port: port)
                try connection.send("GET /v1/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
                return connection
            }
            var open = [try subscribe(), try subscribe()]
            for connection in open { #expect(connection.isReadable(waiting: 60_000), "the stream says it is connected") }
            let third = try await client.request("/v1/events")
            #expect(third.status == .serviceUnavailable)
            #expect(third.headers[.retryAfter] == "60")
            #expect(String(buffer: third.body).contains("/v1/sync"), "the refusal says to poll meanwhile")
            let metrics = String(buffer: try await client.request("/metrics").body)
            #expect(metrics.contains("rates_relay_event_streams 2"))
            #expect(metrics.contains(#"rates_relay_refusals_total{reason="event_streams"} 1"#))

            open.removeLast()   // closes that connection
            try await waitUntil("a subscriber fits again") {
                let text = String(buffer: try await client.request("/metrics").body)
                return text.contains("rates_relay_event_streams 1")
            }
            let fourth = try subscribe()
            #expect(fourth.isReadable(waiting: 60_000))
            try await waitUntil("the new subscriber is listening") {
                String(buffer: try await client.request("/metrics").body).contains("rates_relay_event_streams 2")
            }
        }
    }

    @Test("an open event stream costs the server a few kilobytes: 600 of them grow its resident memory by less than 8 KB each")
    func eventStreamsCostLittle() async throws {
        try await Self.withServer { server, port in
            let subscribe = { @Sendable () throws -> RawConnection in
                let connection = try RawConnection(port: port)
                try connection.send("GET /v1/events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
                return connection
            }
            // Every code path warmed up on a few streams, which stay open.
            let warm = try await onOwnThread { try (0..<20).map { _ in try subscribe() } }
            for connection in warm { #expect(try connection.readResponse()?.hasPrefix("HTTP/1.1 200 OK") == true) }
            let resident = try Self.memory(of: server.process.processIdentifier, "VmRSS")
            let count = 600
            let streams = try await onOwnThread { () throws -> [RawConnection] in
                let streams = try (0..<count).map { _ in try subscribe() }
                // Each stream's head is written once it is subscribed.
                for connection in streams { guard try connection.readResponse()?.hasPrefix("HTTP/1.1 200 OK") == true else { throw CancellationError() } }
                return streams
            }
            let each = (try Self.memory(of: server.process.processIdentifier, "VmRSS") - resident) / count
            #expect(streams.count == count)
            // With a task, an async channel and the framework's handlers for each connection, a stream cost 14.6 KB.
            #expect(each < 8 << 10, "each open stream grew the server by \(each) bytes")
            print("BoundedWorkTests: an open event stream grew the server's resident memory by \(each) bytes")
        }
    }

    @Test("a server shutting down closes an idle connection, a connection the application answered and an event stream, and exits, long before the idle timeout")
    func shutdownClosesEveryConnection() async throws {
        try await Self.withServer { server, port in
            let connections = try await onOwnThread { () throws -> [RawConnection] in
                let prepared = try RawConnection(port: port)
                try prepared.send("GET /v1/latest HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let application = try RawConnection(port: port)
                try application.send("GET /v1/no-such-route HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let stream = try RawConnection(port: port)
                try stream.send("GET /v1/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let heads = try [prepared, application, stream].map { try $0.readResponse() ?? "closed" }
                guard heads[0].hasPrefix("HTTP/1.1 200"), heads[1].hasPrefix("HTTP/1.1 404"), heads[2].hasPrefix("HTTP/1.1 200") else {
                    throw RawConnection.Failure(description: "unexpected answers: \(heads)")
                }
                return [prepared, application, stream]
            }
            _ = kill(server.process.processIdentifier, SIGTERM)
            // The idle timeout (60 s) would close the connections too: the exit must come well before it.
            #expect(try await server.waitForExit(within: .seconds(30)) == 0)
            let ends = try await onOwnThread { connections.map { $0.readToEnd().closed } }
            #expect(ends == [true, true, true], "each connection was closed")
        }
    }

    /// Runs `body` with a server spawned on a seeded database, given with its port, and kills it after.
    static func withServer(_ body: (Child, Int) async throws -> Void) async throws {
        try await TestServer.withSeededDatabase { database in
            let server = try Child.launch(
                "rates-relay", ["serve", "--db", database, "--host", "127.0.0.1", "--port", "0", "--no-seed", "--no-schedule", "--providers", "none"])
            do {
                try await waitUntil("the server answers") { try server.expectRunning(); return server.listeningPort != nil }
                try await body(server, try #require(server.listeningPort))
            } catch {
                _ = try? await server.kill()
                throw error
            }
            _ = try await server.kill()
        }
    }

    // MARK: - Helpers

    /// What a GET of `url` sent: its size, whether it came chunked, and its last record (a line, or
    /// an array's last object), read as it arrives without keeping it.
    static func streamed(_ url: String, accept: String = "application/json") async throws -> (bytes: Int, chunked: Bool, lastRecord: String) {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: accept)
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(600))
        #expect(response.status == .ok, "\(url)")
        var bytes = 0
        var tail = ""
        for try await chunk in response.body {
            bytes += chunk.readableBytes
            tail = String((tail + String(buffer: chunk)).suffix(2000))
        }
        let trimmed = tail.trimmingCharacters(in: CharacterSet(charactersIn: "\n]"))
        let last = trimmed.range(of: "{\"date\"", options: .backwards).map { String(trimmed[$0.lowerBound...]) } ?? trimmed
        return (bytes, response.headers["Content-Length"].isEmpty, last)
    }

    /// A memory figure of process `pid` in bytes, from `/proc/<pid>/status` (`VmRSS`, `VmHWM`: the peak).
    static func memory(of pid: Int32, _ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])) * 1024
    }
}
