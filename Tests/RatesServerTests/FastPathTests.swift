import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RatesServer
import RatesTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Sends `request` bytes on one new loopback TCP connection and returns everything read until the server closes it.
func rawExchange(port: Int, _ request: String) throws -> String {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(socket >= 0)
    defer { close(socket) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    try #require(connected == 0)
    let bytes = Array(request.utf8)
    try #require(bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) } == bytes.count)
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { break }
        received += buffer[0..<count]
    }
    return String(decoding: received, as: UTF8.self)
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
            let stream = try rawExchange(port: port, """
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

    @Test("a prepared answer carries the same validators and headers as the first one, and a fresh request ID")
    func sameHeaders() async throws {
        try await withSeededServer { client in
            let first = try await client.request("/v1/latest?base=USD")
            let again = try await client.request("/v1/latest?base=USD")
            #expect(again.body == first.body)
            for name: HTTPField.Name in [.eTag, .cacheControl, .contentType, .server] { #expect(again.headers[name] == first.headers[name], "\(name)") }
            #expect(again.headers[.date] != nil)
            let ids = [first, again].compactMap { $0.headers[HTTPField.Name("X-Request-ID")!] }
            #expect(ids.count == 2 && ids[0] != ids[1])
            let notModified = try await client.request("/v1/latest?base=USD", headers: [.ifNoneMatch: try #require(first.headers[.eTag])])
            #expect(notModified.status == .notModified && notModified.body.readableBytes == 0)
        }
    }
}
