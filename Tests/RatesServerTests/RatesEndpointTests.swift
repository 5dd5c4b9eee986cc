import CompressNIO
import Foundation
import Hummingbird
import HummingbirdTesting
import RatesCore
import RatesServer
import RatesTestFixtures
import RatesTestSupport
import Testing

/// Runs `body` against a server holding the ECB's real history (1999-01-04 to 2026-10-30), clock at 2026-10-30 18:00 UTC.
func withSeededServer(
    configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: @Sendable (any TestClientProtocol) async throws -> Void
) async throws {
    try await TestServer.withSeededDatabase { database in
        var configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/")
        configure(&configuration)
        let app = try buildApplication(configuration, logger: TestServer.logger)
        try await app.test(.live) { client in try await body(client) }
    }
}

/// The exact decimal rate(from→to) on `day`, computed here from the ECB's history independently of the server.
func independentRate(from: String, to: String, on day: String) throws -> Decimal {
    let rates = try #require(FakeUpstream.history.first { $0.day.description == day }).rates
    func euroRate(_ code: String) throws -> Decimal {
        if code == "EUR" { return 1 }
        let text = try #require(rates[CurrencyCode(code)!])
        return try #require(Decimal(string: text, locale: nil))
    }
    return roundedToEightSignificantDigits(try euroRate(to) / euroRate(from))
}

@Suite("Rates endpoints")
struct RatesEndpointTests {
    @Test("published values come back exactly as the ECB wrote them")
    func publishedValuesExact() async throws {
        try await withSeededServer { client in
            let first = try await client.request("/v1/rates/1999-01-04?symbols=USD")
            #expect(first.status == .ok)
            #expect(first.decimalText("rates", "USD") == "1.1789")
            let latest = try await client.request("/v1/latest")
            #expect(latest.json["date"] as? String == "2026-10-30")
            #expect(latest.json["base"] as? String == "EUR")
            #expect(latest.decimalText("rates", "GBP") == "0.8338")
            #expect(latest.decimalText("rates", "ISK") == "136")
            #expect((latest.json["rates"] as? [String: Any])?.count == 29)
        }
    }

    @Test("cross rates and conversions equal an independent Decimal computation", arguments: [
        ("USD", "JPY", "2020-03-16"), ("GBP", "USD", "2026-10-30"), ("JPY", "IDR", "2008-10-24"), ("CHF", "EUR", "2015-01-15"),
        ("ZAR", "KRW", "1999-01-04"), ("TRY", "HUF", "2018-08-13"),
    ])
    func crossRates(from: String, to: String, day: String) async throws {
        let expected = try independentRate(from: from, to: to, on: day)
        try await withSeededServer { client in
            let rates = try await client.request("/v1/rates/\(day)?base=\(from)&symbols=\(to)")
            #expect(rates.status == .ok)
            #expect(rates.decimalText("rates", to).flatMap { Decimal(string: $0, locale: nil) } == expected)

            let converted = try await client.request("/v1/convert?from=\(from)&to=\(to)&amount=250.5&date=\(day)")
            #expect(converted.status == .ok)
            #expect(converted.decimalText("info", "rate").flatMap { Decimal(string: $0, locale: nil) } == expected)
            #expect(converted.decimalText("result").flatMap { Decimal(string: $0, locale: nil) } == expected * Decimal(string: "250.5")!)
            #expect(converted.json["historical"] as? Bool == true)
            #expect(converted.json["date"] as? String == day)
        }
    }

    @Test("a weekend or holiday answers with the nearest earlier publication and says which")
    func nearestEarlier() async throws {
        try await withSeededServer { client in
            let saturday = try await client.request("/v1/rates/2026-10-24?symbols=USD")
            #expect(saturday.json["date"] as? String == "2026-10-23")
            #expect(saturday.json["requestedDate"] as? String == "2026-10-24")
            let goodFriday = try await client.request("/v1/convert?from=EUR&to=USD&date=2026-04-03")
            #expect(goodFriday.json["date"] as? String == "2026-04-02")
            let publicationDay = try await client.request("/v1/rates/2026-10-23?symbols=USD")
            #expect(publicationDay.json["requestedDate"] == nil)
        }
    }

    @Test("currencies are listed only for the dates they were published (RUB, HRK, BGN)")
    func currenciesComeAndGo() async throws {
        try await withSeededServer { client in
            #expect(try await client.request("/v1/rates/2022-03-01?symbols=RUB").decimalText("rates", "RUB") != nil)
            #expect(try await client.request("/v1/rates/2022-03-02?symbols=RUB").status == .notFound)
            #expect(try await client.request("/v1/rates/2022-12-30?symbols=HRK").status == .ok)
            #expect(try await client.request("/v1/rates/2023-01-02?symbols=HRK").status == .notFound)
            #expect(try await client.request("/v1/rates/2025-12-31?symbols=BGN").status == .ok)
            let latest = try await client.request("/v1/latest").json["rates"] as? [String: Any]
            #expect(latest?["BGN"] == nil && latest?["RUB"] == nil && latest?["HRK"] == nil)
            let series = try await client.request("/v1/timeseries?start=2022-12-29&end=2023-01-03&symbols=HRK,USD")
            let days = try #require(series.json["rates"] as? [String: [String: Any]])
            #expect(days["2022-12-30"]?["HRK"] != nil)
            #expect(days["2023-01-02"]?["HRK"] == nil && days["2023-01-02"]?["USD"] != nil)
        }
    }

    @Test("amount scales every rate exactly")
    func amount() async throws {
        try await withSeededServer { client in
            let response = try await client.request("/v1/latest?symbols=USD,GBP&amount=1000.25")
            #expect(response.decimalText("rates", "USD") == "1117.4793")
            #expect(response.decimalText("rates", "GBP") == "834.00845")
            #expect(response.decimalText("amount") == "1000.25")
        }
    }

    @Test("a time series holds every publication in the range, starting at the nearest earlier one")
    func timeseries() async throws {
        try await withSeededServer { client in
            let response = try await client.request("/v1/timeseries?start=2026-10-25&end=2026-10-30&base=USD&symbols=EUR,GBP")
            #expect(response.status == .ok)
            let rates = try #require(response.json["rates"] as? [String: [String: Any]])
            #expect(rates.keys.sorted() == ["2026-10-23", "2026-10-26", "2026-10-27", "2026-10-28", "2026-10-29", "2026-10-30"])
            #expect(response.json["start"] as? String == "2026-10-23")
            #expect(response.json["end"] as? String == "2026-10-30")
            let expected = try independentRate(from: "USD", to: "GBP", on: "2026-10-29")
            #expect(rates["2026-10-29"]?.count == 2)
            let text = response.text
            #expect(text.contains("\"2026-10-29\":{\"EUR\":\(try independentRate(from: "USD", to: "EUR", on: "2026-10-29")),\"GBP\":\(expected)}"))
        }
    }

    @Test("currencies are named from ISO 4217, the euro included")
    func currencies() async throws {
        try await withSeededServer { client in
            let names = try await client.request("/v1/currencies").json
            #expect(names["USD"] as? String == "US Dollar")
            #expect(names["EUR"] as? String == "Euro")
            #expect(names["HRK"] as? String == "Kuna")
            #expect(names.count == 42)
        }
    }

    @Test("currencies with expand=details give each one's name, symbol and ISO 4217 minor units; another expand is refused")
    func currencyDetails() async throws {
        try await withSeededServer { client in
            let details = try await client.request("/v1/currencies?expand=details").json
            let names = try await client.request("/v1/currencies").json
            #expect(Set(details.keys) == Set(names.keys))
            let yen = try #require(details["JPY"] as? [String: Any])
            #expect(yen["name"] as? String == "Yen" && yen["symbol"] as? String == "¥" && yen["minorUnits"] as? Int == 0)
            let pound = try #require(details["GBP"] as? [String: Any])
            #expect(pound["symbol"] as? String == "£" && pound["minorUnits"] as? Int == 2)
            let franc = try #require(details["CHF"] as? [String: Any])
            #expect(franc["symbol"] is NSNull && franc["minorUnits"] as? Int == 2)
            #expect(details.values.allSatisfy { ($0 as? [String: Any])?.keys.sorted() == ["minorUnits", "name", "symbol"] })
            #expect(try await client.request("/v1/currencies?expand=sources").status == .badRequest)
        }
    }

    @Test("ETag and If-None-Match: an unchanged dataset answers 304 with no body")
    func conditionalGet() async throws {
        try await withSeededServer { client in
            let first = try await client.request("/v1/latest?base=USD")
            let etag = try #require(first.headers[.eTag])
            #expect(etag.hasPrefix("\""))
            let cacheControl = try #require(first.headers[.cacheControl])
            // 2026-10-30 18:00 UTC → next publication 2026-11-02 16:00 CET (15:00 UTC) + 1 minute.
            #expect(cacheControl == "public, max-age=\(3 * 86_400 - 3 * 3600 + 60)")
            let again = try await client.request("/v1/latest?base=USD", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            #expect(again.headers[.eTag] == etag)
            let other = try await client.request("/v1/currencies", headers: [.ifNoneMatch: "\"something-else\", \(etag)"])
            #expect(other.status == .notModified)
            let stale = try await client.request("/v1/latest?base=USD", headers: [.ifNoneMatch: "\"old\""])
            #expect(stale.status == .ok && stale.body.readableBytes > 0)
        }
    }

    @Test("clients that accept gzip get the same JSON compressed, under its own ETag; q=0 refuses it")
    func gzip() async throws {
        try await withSeededServer { client in
            let month = "/v1/timeseries?start=2026-10-01&end=2026-10-30"
            let plain = try await client.request(month)
            let etag = try #require(plain.headers[.eTag])
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[.vary] == "Accept-Encoding")

            let compressed = try await client.request(month, headers: [.acceptEncoding: "br;q=1.0, gzip;q=0.8"])
            #expect(compressed.headers[.contentEncoding] == "gzip")
            #expect(compressed.headers[.vary] == "Accept-Encoding")
            let gzipTag = try #require(compressed.headers[.eTag])
            #expect(gzipTag != etag)
            #expect(compressed.body.readableBytes < plain.body.readableBytes / 2)
            var body = compressed.body
            #expect(try body.decompress(with: .gzip()) == plain.body)

            // Either tag proves the client holds the current answer.
            for tag in [etag, gzipTag] {
                let again = try await client.request(month, headers: [.acceptEncoding: "gzip", .ifNoneMatch: tag])
                #expect(again.status == .notModified && again.body.readableBytes == 0)
            }
            let refused = try await client.request(month, headers: [.acceptEncoding: "gzip;q=0, identity"])
            #expect(refused.headers[.contentEncoding] == nil && refused.body == plain.body)
            // Small answers are not worth compressing; the tag of a compressed answer still proves
            // the client holds this dataset version (sync clients send the last page's tag with the next cursor).
            let small = try await client.request("/v1/latest?symbols=USD", headers: [.acceptEncoding: "gzip"])
            #expect(small.headers[.contentEncoding] == nil && small.headers[.vary] == nil)
            let smallAgain = try await client.request("/v1/latest?symbols=USD", headers: [.acceptEncoding: "gzip", .ifNoneMatch: gzipTag])
            #expect(smallAgain.status == .notModified)
        }
    }

    @Test("HEAD answers like GET without a body")
    func head() async throws {
        try await withSeededServer { client in
            for uri in ["/v1/latest", "/v1/rates/2020-01-02", "/v1/currencies", "/v1/status", "/healthz", "/readyz", "/openapi.yaml"] {
                let get = try await client.request(uri)
                let head = try await client.request(uri, method: .head)
                #expect(head.status == get.status, "\(uri)")
                #expect(head.body.readableBytes == 0, "\(uri)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "\(uri)")
            }
        }
    }

    @Test("health, readiness, status and the contract are served")
    func operational() async throws {
        try await withSeededServer { client in
            #expect(try await client.request("/healthz").json["status"] as? String == "ok")
            let ready = try await client.request("/readyz")
            #expect(ready.status == .ok && ready.json["latestDate"] as? String == "2026-10-30")
            let status = try await client.request("/v1/status").json
            #expect(status["latestDate"] as? String == "2026-10-30")
            #expect(status["firstDate"] as? String == "1999-01-04")
            #expect(status["dataOrigin"] as? String == "seed")
            #expect(status["stale"] as? Bool == true, "seeded data is stale until the upstream confirms it")
            let contract = try await client.request("/openapi.yaml")
            #expect(contract.headers[.contentType] == "application/yaml")
            #expect(contract.text.hasPrefix("openapi: 3.1"))
            // The contract served is the repository's openapi.yaml, the one the checks read.
            let repository = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("openapi.yaml"), encoding: .utf8)
            #expect(contract.text == repository, "openapi.yaml at the root must be the served Sources/RatesServer/Resources/openapi.yaml")
        }
    }
}
