import Foundation
import Hummingbird
import HummingbirdTesting
import RatesServer
import RatesTestSupport
import Testing

@Suite("Error answers")
struct ErrorResponseTests {
    /// Requests a client can get wrong, the status they must get, the problem type and the parameter named.
    static let badRequests: [(uri: String, status: Int, type: String, parameter: String?)] = [
        ("/v1/latest?base=usd", 400, "invalid-parameter", "base"),
        ("/v1/latest?base=XYZ", 404, "unknown-currency", "base"),
        ("/v1/latest?symbols=USD,,GBP", 400, "invalid-parameter", "symbols"),
        ("/v1/latest?symbols=USD,XXX", 404, "unknown-currency", "symbols"),
        ("/v1/latest?symbols=RUB", 404, "unknown-currency", "symbols"),
        ("/v1/latest?amount=-5", 400, "invalid-parameter", "amount"),
        ("/v1/latest?amount=0", 400, "invalid-parameter", "amount"),
        ("/v1/latest?amount=1e5", 400, "invalid-parameter", "amount"),
        ("/v1/latest?amount=NaN", 400, "invalid-parameter", "amount"),
        ("/v1/latest?amount=1234567890123456", 400, "invalid-parameter", "amount"),
        ("/v1/latest?amount=1.123456789", 400, "invalid-parameter", "amount"),
        ("/v1/latest?base=USD&base=GBP", 400, "invalid-parameter", "base"),
        ("/v1/rates/0000-00-00", 400, "invalid-parameter", "date"),
        ("/v1/rates/2024-02-30", 400, "invalid-parameter", "date"),
        ("/v1/rates/yesterday", 400, "invalid-parameter", "date"),
        ("/v1/rates/2026-11-05", 400, "date-in-future", "date"),
        ("/v1/rates/1998-12-31", 404, "date-before-data", "date"),
        ("/v1/rates/%E2%82%AC%00%FF", 400, "invalid-parameter", "date"),
        ("/v1/timeseries", 400, "invalid-parameter", "start"),
        ("/v1/timeseries?start=2026-10-30&end=2026-10-01", 400, "invalid-range", "start"),
        ("/v1/timeseries?start=2026-10-01&end=2027-01-01", 400, "date-in-future", "end"),
        ("/v1/timeseries?start=1990-01-01&end=1990-02-01", 404, "date-before-data", "end"),
        ("/v1/timeseries?start=2024-01-01&end=2024-02-01&symbols=HRK", 404, "unknown-currency", "symbols"),
        ("/v1/convert?to=USD", 400, "invalid-parameter", "from"),
        ("/v1/convert?from=USD", 400, "invalid-parameter", "to"),
        ("/v1/convert?from=USD&to=EUR&amount=ten", 400, "invalid-parameter", "amount"),
        ("/v1/convert?from=USD&to=HRK", 404, "unknown-currency", "to"),
        ("/v1/convert?from=USD&to=EUR&date=2026-02-30", 400, "invalid-parameter", "date"),
        ("/v1/nothing-here", 404, "not-found", nil),
        ("/v2/latest", 404, "not-found", nil),
    ]

    @Test("every bad request gets a 4xx problem+json naming the parameter")
    func badRequestsAreProblems() async throws {
        try await withSeededServer { client in
            for bad in Self.badRequests {
                let response = try await client.request(bad.uri)
                #expect(Int(response.status.code) == bad.status, "\(bad.uri)")
                #expect(response.headers[.contentType] == "application/problem+json", "\(bad.uri)")
                let problem = response.json
                #expect(problem["type"] as? String == "urn:rates-relay:problem:\(bad.type)", "\(bad.uri)")
                #expect(problem["status"] as? Int == bad.status, "\(bad.uri)")
                #expect(problem["parameter"] as? String == bad.parameter, "\(bad.uri)")
                #expect((problem["detail"] as? String)?.isEmpty == false, "\(bad.uri)")
            }
        }
    }

    @Test("odd methods, long and garbled queries never produce a 5xx")
    func nothingProducesServerErrors() async throws {
        let longQuery = "/v1/latest?" + Array(repeating: "symbols=USD", count: 300).joined(separator: "&")
        let garbage = "/v1/latest?base=%ZZ%&symbols=%00&amount=%FF%FE&x=" + String(repeating: "%41", count: 500)
        try await withSeededServer { client in
            for uri in [longQuery, garbage, "/v1/latest?=&&&=&", "/v1/convert?from=&to=&amount=", "/v1/rates/", "/v1/rates/2020-01-02/extra"] {
                let response = try await client.request(uri)
                #expect(response.status.code < 500, "\(uri)")
            }
            let methods: [HTTPRequest.Method] = [.post, .put, .delete, .patch, .trace, .options, HTTPRequest.Method("QUERY")!]
            for (path, method) in methods.map({ ("/v1/latest", $0) }) + [("/v1/rates/2020-01-02", .put)] {
                let response = try await client.request(path, method: method)
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.headers[.allow] == "GET, HEAD")
                #expect(response.headers[.contentType] == "application/problem+json")
            }
            for method: HTTPRequest.Method in [.get, .head] {
                let wrong = try await client.request("/v1/admin/refresh", method: method)
                #expect(wrong.status == .methodNotAllowed && wrong.headers[.allow] == "POST", "\(method)")
            }
            #expect(try await client.request("/v1/nothing/here", method: .put).status == .notFound)
        }
    }

    @Test("the admin endpoint refuses a missing or wrong token and does nothing")
    func adminNeedsToken() async throws {
        try await withSeededServer { client in
            let missing = try await client.request("/v1/admin/refresh", method: .post)
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            let wrong = try await client.refresh(token: "test-tokem")
            #expect(wrong.status == .unauthorized)
            let prefix = try await client.refresh(token: "test")
            #expect(prefix.status == .unauthorized)
            #expect(try await client.request("/v1/status").json["lastFetch"] is NSNull, "no fetch was attempted")
        }
    }

    @Test("without a configured token the admin endpoint does not exist")
    func adminOff() async throws {
        try await withSeededServer(configure: { $0.adminToken = nil }) { client in
            let response = try await client.refresh()
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "application/problem+json")
        }
    }

    @Test("a request body over 64 KB gets 413 problem+json and the connection is closed, announced or chunked; a small one is ignored")
    func bodyLimit() async throws {
        let chunk = String(repeating: "x", count: 70_000)
        let oversized = [
            "POST /v1/admin/refresh HTTP/1.1\r\nHost: test\r\nContent-Length: 100000000\r\n\r\nabc",
            "GET /v1/latest HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n\(String(chunk.utf8.count, radix: 16))\r\n\(chunk)\r\n",
        ]
        try await withSeededServer { client in
            let port = try #require(client.port)
            for request in oversized {
                let (text, closed) = try await onOwnThread {
                    let connection = try RawConnection(port: port)
                    try connection.send(request)
                    return connection.readToEnd()
                }
                #expect(text.hasPrefix("HTTP/1.1 413 "), "\(text.prefix(200))")
                #expect(text.contains("application/problem+json") && text.contains("urn:rates-relay:problem:content-too-large"))
                #expect(closed, "the rest of the body is not waited for")
            }
            let small = try await rawExchange(port: port, "GET /v1/latest HTTP/1.1\r\nHost: test\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
            #expect(small.hasPrefix("HTTP/1.1 200 OK"))
        }
    }
}
