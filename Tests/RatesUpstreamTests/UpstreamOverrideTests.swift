import AsyncHTTPClient
import Logging
import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("Upstream overrides: a provider's requests sent to a server standing in for it")
struct UpstreamOverrideTests {
    @Test("a request keeps its path and query, takes the override's scheme, host and port, and has its path prefixed", arguments: [
        ("http://127.0.0.1:8081/nbp", "https://api.nbp.pl/api/exchangerates/tables/A/?format=json",
         "http://127.0.0.1:8081/nbp/api/exchangerates/tables/A/?format=json"),
        ("http://127.0.0.1:8081/nbp/", "https://api.nbp.pl/api/exchangerates/tables/A/?format=json",
         "http://127.0.0.1:8081/nbp/api/exchangerates/tables/A/?format=json"),
        ("https://mirror.example", "https://www.cbr.ru/scripts/XML_daily.asp", "https://mirror.example/scripts/XML_daily.asp"),
        ("http://[::1]:9000/a/b", "https://www.ecb.europa.eu:443/stats/eurofxref/eurofxref-daily.xml",
         "http://[::1]:9000/a/b/stats/eurofxref/eurofxref-daily.xml"),
        ("HTTP://LOCALHOST:1/x", "https://api.statbank.dk?lang=en", "http://LOCALHOST:1/x/?lang=en"),
    ])
    func rewrites(override: String, url: String, expected: String) throws {
        #expect(try UpstreamOverride(override).apply(to: url) == expected)
    }

    @Test("an override that is not an http or https URL with a host, or that has a query, user or fragment, is refused", arguments: [
        "", "127.0.0.1:8081", "ftp://127.0.0.1/nbp", "http://", "http:///nbp", "http://127.0.0.1/nbp?x=1", "http://user@127.0.0.1/",
        "http://127.0.0.1/#top", "not a url",
    ])
    func refuses(text: String) {
        #expect(throws: UpstreamOverride.Invalid.self) { try UpstreamOverride(text) }
    }

    @Test("every request of a fetch goes to the override, and the adapter reads each answer as the answer to its own request")
    func providerClientUsesTheOverride() async throws {
        let upstream = FakeProviderUpstream()
        upstream.serve("/stand-in/api/exchangerates/tables/A/", .fixture("nbp-poland/tables_A_2026-03-01_2026-03-05.json"))
        upstream.serve("/stand-in/api/exchangerates/tables/B/", .fixture("nbp-poland/tables_B_2026-03-01_2026-03-05.json"))
        upstream.serve("/stand-in/api/cenyzlota/", .fixture("nbp-poland/cenyzlota_2026-03-01_2026-03-05.json"))
        let publications = try await upstream.run { root in
            // The adapter names its real endpoint; only the override keeps the fetch on loopback.
            let client = ProviderClient(
                provider: NBPProvider(), httpClient: ProviderClientTests.httpClient, timeout: .seconds(20),
                override: try UpstreamOverride(root + "/stand-in"))
            return try await client.fetch(.latest, logger: Logger(label: "test.override")).publications
        }
        #expect(Set(upstream.received.map(\.target)) == [
            "/stand-in/api/exchangerates/tables/A/?format=json", "/stand-in/api/exchangerates/tables/B/?format=json",
            "/stand-in/api/cenyzlota/?format=json",
        ])
        let wednesday = try #require(publications?.first { $0.day == Day("2026-03-04") })
        #expect(wednesday["AFN"] == quote("AFN", "0.056626"), "table B, read as table B's answer")
    }
}
