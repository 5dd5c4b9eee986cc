import Foundation
import HTTPTypes
import HummingbirdTesting
import RatesCore
import RatesServer
import RatesTestSupport
import Testing

@Suite("Many providers")
struct ProvidersTests {
    /// The Bank of Russia's and the National Bank of Poland's recorded answers, as their endpoints
    /// serve them, under `/cbr` and `/nbp` (``FakeProviderUpstream/overrides(root:_:)``).
    static func upstream() -> FakeProviderUpstream {
        let upstream = FakeProviderUpstream()
        upstream.serve("/nbp/api/exchangerates/tables/A/", .fixture("nbp-poland/tables_A_2026-03-01_2026-03-05.json"))
        upstream.serve("/nbp/api/exchangerates/tables/B/", .fixture("nbp-poland/tables_B_2026-03-01_2026-03-05.json"))
        upstream.serve("/nbp/api/cenyzlota/*", .fixture("nbp-poland/cenyzlota_2026-03-01_2026-03-05.json"))
        upstream.serve("/cbr/scripts/XML_daily.asp", .fixture("cbr-russia/XML_daily_2026-04-25.xml"))
        upstream.serve("/cbr/scripts/xml_metall.asp", .fixture("cbr-russia/xml_metall_2026-03-01_2026-03-05.xml"))
        return upstream
    }

    @Test("providers fetched on their schedule join the merged dataset, each value per EUR through its provider's own EUR quote")
    func providersJoinTheDataset() async throws {
        let upstream = Self.upstream()
        try await upstream.run { root in
            try await TestServer.withSeededDatabase { database in
                var configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/")
                configuration.schedule = true
                configuration.providers = ["NBP", "CBR"]
                configuration.upstreamOverrides = FakeProviderUpstream.overrides(root: root, ["NBP", "CBR"])
                configuration.providerBackfillDays = 0
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    let before = try await client.request("/v1/rates/2026-03-04?symbols=USD,PLN")
                    try await waitUntil("both providers' publications are merged") {
                        let rouble = try await client.poll("/v1/rates/2026-04-25?symbols=RUB").status
                        let afghani = try await client.poll("/v1/rates/2026-03-04?symbols=AFN").status
                        return rouble == .ok && afghani == .ok
                    }
                    // RUB left the ECB in 2022: the Bank of Russia's EUR quote, 88,2826 RUB per 1 EUR.
                    let russia = try await client.request("/v1/rates/2026-04-25?symbols=RUB,UAH,USD")
                    #expect(russia.json["date"] as? String == "2026-04-25", "a Saturday the Bank of Russia dates its figures")
                    #expect(russia.decimalText("rates", "RUB") == "88.2826")
                    // UAH through the rouble: 88.2826 / (17.1638 / 10) = 51.43534648…, served with 8 significant digits.
                    #expect(russia.decimalText("rates", "UAH") == "51.435346")
                    // The afghani from the NBP's table B: 4.2685 / 0.056626 = 75.38056723…
                    let afghani = try await client.request("/v1/rates/2026-03-04?symbols=AFN,USD,PLN")
                    #expect(afghani.decimalText("rates", "AFN") == "75.380567")
                    // The ECB's own currencies keep the ECB's figures, whatever the NBP says of them.
                    #expect(afghani.decimalText("rates", "USD") == before.decimalText("rates", "USD"))
                    #expect(afghani.decimalText("rates", "PLN") == before.decimalText("rates", "PLN"))
                    let wide = try await client.request("/v1/rates/2026-03-04").json["rates"] as? [String: Any]
                    #expect((wide?.count ?? 0) > 140, "the ECB's 30 and the NBP's tables A and B")
                }
            }
        }
    }
}
