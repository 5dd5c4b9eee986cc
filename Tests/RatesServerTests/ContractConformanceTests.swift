import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RatesCore
import RatesServer
import RatesTestSupport
import Testing

@Suite("Responses follow openapi.yaml")
struct ContractConformanceTests {
    /// Requests covering every endpoint, every documented status and the error shapes.
    static let requests: [(method: HTTPRequest.Method, uri: String, headers: HTTPFields)] = [
        (.get, "/v1/latest", [:]),
        (.get, "/v1/latest?base=USD&symbols=EUR,GBP,JPY&amount=12.5", [:]),
        (.get, "/v1/latest?base=usd", [:]),
        (.get, "/v1/latest?symbols=XYZ", [:]),
        (.get, "/v1/rates/2026-10-24", [:]),
        (.get, "/v1/rates/2022-03-01?base=RUB", [:]),
        (.get, "/v1/rates/2026-12-24", [:]),
        (.get, "/v1/rates/1990-01-01", [:]),
        (.get, "/v1/rates/2024-02-30", [:]),
        (.get, "/v1/timeseries?start=2026-10-01&end=2026-10-30&base=GBP&symbols=USD,JPY", [:]),
        (.get, "/v1/timeseries?start=2026-10-30&end=2026-10-01", [:]),
        (.get, "/v1/timeseries?start=1999-01-04&base=USD&symbols=JPY&points=300", [:]),
        (.get, "/v1/timeseries?start=2026-10-01&points=1", [:]),
        (.get, "/v1/convert?from=USD&to=JPY&amount=100", [:]),
        (.get, "/v1/convert?from=USD&to=JPY&amount=100&date=2026-10-25", [:]),
        (.get, "/v1/convert?from=USD", [:]),
        (.get, "/v1/currencies", [:]),
        (.get, "/v1/sync?from=2026-10-01", [:]),
        (.get, "/v1/sync?cursor=not-ours", [:]),
        (.get, "/v1/sync?from=2026-10-01&cursor=MS5jLmFiYy4xMi4tLi0", [:]),
        (.get, "/v1/status", [:]),
        (.get, "/healthz", [:]),
        (.get, "/readyz", [:]),
        (.get, "/openapi.yaml", [:]),
        (.get, "/", [:]),
        (.get, "/web/app.js", [:]),
        (.get, "/web/style.css", [:]),
        (.get, "/web/icon.svg", [:]),
        (.get, "/web/missing.js", [:]),
        (.head, "/v1/latest", [:]),
        (.post, "/v1/admin/refresh", [:]),
        (.post, "/v1/admin/refresh", [.authorization: "Bearer wrong"]),
        (.post, "/v1/admin/refresh?providers=XYZ", [.authorization: "Bearer test-token"]),
        (.get, "/nowhere", [:]),
    ]

    @Test("every response of a server with data conforms to the contract")
    func withData() async throws {
        let contract = try OpenAPIContract.repository()
        try await withSeededServer { client in
            var checked = 0
            for request in Self.requests {
                let response = try await client.request(request.uri, method: request.method, headers: request.headers)
                if request.uri == "/nowhere" {
                    #expect(response.status == .notFound && response.headers[.contentType] == "application/problem+json")
                    continue
                }
                let violations = contract.violations(
                    method: request.method.rawValue, path: request.uri, status: Int(response.status.code),
                    contentType: response.headers[.contentType], body: Array(response.body.readableBytesView))
                #expect(violations.isEmpty, "\(request.method) \(request.uri) → \(response.status.code): \(violations)")
                checked += 1
            }
            // A conditional request that hits: 304.
            let etag = try #require(try await client.request("/v1/latest").headers[.eTag])
            let notModified = try await client.request("/v1/latest", headers: [.ifNoneMatch: etag])
            #expect(contract.violations(method: "GET", path: "/v1/latest", status: 304, contentType: notModified.headers[.contentType],
                                        body: Array(notModified.body.readableBytesView)).isEmpty)
            #expect(checked == Self.requests.count - 1)
        }
    }

    @Test("every operation's parameter examples in openapi.yaml, together, make a request the server accepts and answers as the contract says")
    func examplesAreAccepted() async throws {
        let contract = try OpenAPIContract.repository()
        // The event stream never ends: its examples are schemathesis' to send (Scripts/check-contract.sh).
        let requests = contract.exampleRequests().filter { !$0.target.hasPrefix("/v1/events") }
        #expect(requests.count >= 25, "\(requests)")
        // The examples name the NBP and the CNB beside the ECB: the seed and their recorded files, the NBP fetched (not scheduled).
        try await TestServer.withSeededDatabase { database in
            for (provider, files) in [
                ("NBP", ["tables_A_2026-03-01_2026-03-05.json", "tables_B_2026-03-01_2026-03-05.json"].map { "nbp-poland/" + $0 }),
                ("CNB", ["cnb-czech/cnbapi_exrates_daily-year_2026.json"]),
            ] {
                let run = try await ProviderImportTests.runImport(["--provider", provider] + files.map { Fixtures.url($0).path } + ["--db", database])
                #expect(run.status == 0, "\(run.output)")
            }
            var configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/")
            configuration.providers = ["NBP"]
            try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
            for request in requests {
                let method = HTTPRequest.Method(request.method.uppercased())!
                let headers: HTTPFields = method == .post ? [.authorization: "Bearer test-token"] : [:]
                let response = try await client.request(request.target, method: method, headers: headers)
                #expect((200..<400).contains(response.status.code), "\(request) → \(response.status.code): \(response.text.prefix(300))")
                let violations = contract.violations(
                    method: request.method, path: request.target, status: Int(response.status.code),
                    contentType: response.headers[.contentType], body: Array(response.body.readableBytesView))
                #expect(violations.isEmpty, "\(request): \(violations)")
            }
            }
        }
    }

    @Test("the answers of a server without data conform to the contract")
    func withoutData() async throws {
        let contract = try OpenAPIContract.repository()
        try await TestServer.withEmptyDatabase { database in
            let configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/")
            try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                for uri in ["/v1/latest", "/v1/rates/2020-01-02", "/v1/timeseries?start=2020-01-01", "/v1/convert?from=USD&to=EUR", "/v1/currencies",
                            "/v1/status", "/readyz", "/healthz"] {
                    let response = try await client.request(uri)
                    let violations = contract.violations(
                        method: "GET", path: uri, status: Int(response.status.code), contentType: response.headers[.contentType],
                        body: Array(response.body.readableBytesView))
                    #expect(violations.isEmpty, "\(uri) → \(response.status.code): \(violations)")
                }
                let refresh = try await client.refresh()
                let violations = contract.violations(
                    method: "POST", path: "/v1/admin/refresh", status: Int(refresh.status.code), contentType: refresh.headers[.contentType],
                    body: Array(refresh.body.readableBytesView))
                #expect(violations.isEmpty, "refresh → \(refresh.status.code): \(violations)")
                let status = try await client.request("/v1/status")
                #expect(contract.violations(method: "GET", path: "/v1/status", status: 200, contentType: status.headers[.contentType],
                                            body: Array(status.body.readableBytesView)).isEmpty, "status with a failed fetch")
            }
        }
    }
}
