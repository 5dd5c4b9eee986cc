import Foundation
import HTTPTypes
import HummingbirdTesting
import RatesCore
import RatesServer
import RatesTestSupport
import Testing

@Suite("Answers from some providers, sources and provider health", .serialized)
struct ProviderAnswersTests {
    /// A server with the seeded ECB history, the NBP and the Bank of Russia fetched from their recorded answers.
    static func withServer(
        _ upstream: FakeProviderUpstream = ProvidersTests.upstream(), providers: [String] = ["NBP", "CBR"],
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await upstream.run { root in
            try await TestServer.withSeededDatabase { database in
                var configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/")
                configuration.schedule = true
                configuration.providers = providers
                configuration.upstreamOverrides = FakeProviderUpstream.overrides(root: root, providers)
                configuration.providerBackfillDays = 0
                try await buildApplication(configuration, logger: TestServer.logger).test(.live) { client in
                    try await waitUntil("the providers' publications are merged") {
                        let status = try await client.poll("/v1/providers").json["providers"] as? [[String: Any]] ?? []
                        return providers.allSatisfy { key in status.contains { $0["key"] as? String == key && $0["latestDate"] is String } }
                    }
                    try await body(client)
                }
            }
        }
    }

    @Test("expand=sources names each value's provider, that provider's own day and the figure it published")
    func expandNamesSources() async throws {
        try await Self.withServer { client in
            let answer = try await client.request("/v1/rates/2026-04-25?symbols=RUB,USD&expand=sources")
            #expect(answer.status == .ok)
            let sources = try #require(answer.json["sources"] as? [String: [String: Any]])
            #expect(Set(sources.keys) == ["RUB", "USD"], "EUR, the base, has no source of its own")
            // RUB is the Bank of Russia's pivot: its value per EUR is its EUR quote, 88,2826 RUB per 1 EUR.
            let rouble = try #require(sources["RUB"])
            #expect(rouble["provider"] as? String == "CBR" && rouble["date"] as? String == "2026-04-25")
            #expect(rouble["servedAs"] as? String == "issuer", "the Bank of Russia issues the rouble")
            let figure = try #require(rouble["published"] as? [String: Any])
            #expect(figure["currency"] as? String == "EUR" && figure["value"] as? String == "88.2826" && figure["pivot"] as? String == "RUB")
            #expect(figure["direction"] as? String == "pivot-per-units" && figure["unit"] as? Int == 1)
            // 2026-04-25 is a Saturday: USD is the ECB's Friday figure, carried forward and named so.
            let friday = try await client.request("/v1/rates/2026-04-24?symbols=USD")
            let dollar = try #require(sources["USD"])
            #expect(dollar["provider"] as? String == "ECB" && dollar["date"] as? String == "2026-04-24")
            #expect(dollar["servedAs"] as? String == "reference")
            #expect((dollar["published"] as? [String: Any])?["value"] as? String == friday.decimalText("rates", "USD"))

            let converted = try await client.request("/v1/convert?from=USD&to=RUB&date=2026-04-25&expand=sources")
            #expect(Set((converted.json["sources"] as? [String: Any])?.keys ?? [:].keys) == ["RUB", "USD"])
            let plain = try await client.request("/v1/rates/2026-04-25?symbols=RUB,USD")
            #expect(plain.json["sources"] == nil, "sources only when asked for")
        }
    }

    @Test("a pegged currency no source publishes is served at its anchor's value times the peg, named with its authority")
    func pegs() async throws {
        try await Self.withServer { client in
            let answer = try await client.request("/v1/rates/2026-04-25?symbols=GBP,FKP,GGP&expand=sources")
            #expect(answer.status == .ok)
            let pound = try #require(answer.decimalText("rates", "GBP"))
            #expect(answer.decimalText("rates", "FKP") == pound, "the Falkland Islands pound is at par with sterling")
            #expect(answer.decimalText("rates", "GGP") == pound)
            let falklands = try #require((answer.json["sources"] as? [String: [String: Any]])?["FKP"])
            #expect(falklands["provider"] as? String == "PEG" && falklands["servedAs"] as? String == "peg")
            #expect(falklands["authority"] as? String == "Falkland Islands Government" && falklands["since"] as? String == "1966-02-14")
            let figure = try #require(falklands["published"] as? [String: Any])
            #expect(figure["value"] as? String == "1.0" && figure["pivot"] as? String == "GBP" && figure["direction"] as? String == "units-per-pivot")

            let currencies = try await client.request("/v1/currencies").json
            #expect(currencies["GGP"] as? String == "Guernsey Pound" && currencies["FKP"] != nil && currencies["XOF"] != nil)
            let onlyCBR = try await client.request("/v1/rates/2026-04-25?providers=CBR&symbols=FKP")
            #expect(onlyCBR.status != .ok || onlyCBR.decimalText("rates", "FKP") == nil, "an answer of some providers has no pegs")
        }
    }

    @Test("providers= computes the answer from those providers' quotes only: one provider gives back its published figures")
    func providersPinTheAnswer() async throws {
        try await Self.withServer { client in
            // The Bank of Russia alone: RUB per USD is its own 75,5273, not the ECB's cross rate.
            let russia = try await client.request("/v1/rates/2026-04-25?providers=CBR&base=USD&symbols=RUB")
            #expect(russia.status == .ok)
            #expect(russia.decimalText("rates", "RUB") == "75.5273")
            let merged = try await client.request("/v1/rates/2026-04-25?base=USD&symbols=RUB")
            #expect(merged.decimalText("rates", "RUB") != "75.5273", "the merged USD is the ECB's: another cross rate")
            // The NBP alone: its newest table is of 2026-03-05, whatever the ECB published since.
            let poland = try await client.request("/v1/latest?providers=nbp&base=PLN&symbols=USD,EUR&expand=sources")
            #expect(poland.json["date"] as? String == "2026-03-05")
            #expect((poland.json["sources"] as? [String: [String: Any]])?["USD"]?["provider"] as? String == "NBP")
            // Table B (Wednesday's) stays in the merge on Thursday, when only table A is published, named with its own day.
            let thursday = try await client.request("/v1/rates/2026-03-05?symbols=AFN&expand=sources")
            #expect((thursday.json["sources"] as? [String: [String: Any]])?["AFN"]?["date"] as? String == "2026-03-04", "\(thursday.text)")
            let series = try await client.request("/v1/timeseries?start=2026-03-01&end=2026-03-10&providers=NBP&symbols=PLN")
            #expect((series.json["rates"] as? [String: Any])?.keys.sorted() == ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"])

            let unknown = try await client.request("/v1/latest?providers=NBP,XYZ")
            #expect(unknown.status == .badRequest && unknown.headers[.contentType] == "application/problem+json")
            #expect(unknown.text.contains("XYZ"))
            let before = try await client.request("/v1/rates/2026-02-01?providers=CBR")
            #expect(before.status == .notFound, "the Bank of Russia's recorded answer is its first publication here")
            #expect(try await client.request("/v1/latest?expand=everything").status == .badRequest)
            #expect(try await client.request("/v1/timeseries?start=2026-03-01&expand=sources").status == .badRequest)
        }
    }

    @Test("/v1/providers describes every provider: identity, pivot, currencies, schedule and the outcome of its last fetch")
    func providersDescribeThemselves() async throws {
        try await Self.withServer { client in
            let list = try await client.request("/v1/providers")
            #expect(list.status == .ok && list.headers[.eTag] != nil)
            let providers = try #require(list.json["providers"] as? [[String: Any]])
            #expect(providers.count >= 30)
            let poland = try #require(providers.first { $0["key"] as? String == "NBP" })
            #expect(poland["pivot"] as? String == "PLN" && poland["country"] as? String == "PL" && poland["enabled"] as? Bool == true)
            #expect(poland["issues"] as? [String] == ["PLN"] && poland["standing"] == nil, "the rank per currency is shown for one provider")
            let taiwan = try #require(providers.first { $0["key"] as? String == "CBC" })
            #expect(taiwan["pivot"] as? String == "USD" && taiwan["issues"] as? [String] == ["TWD"], "the issuer, whatever its pivot")
            #expect(poland["latestDate"] as? String == "2026-03-05")
            #expect((poland["currencies"] as? [String])?.contains("USD") == true)
            #expect((poland["lastFetch"] as? [String: Any])?["outcome"] as? String == "updated")
            #expect((poland["schedule"] as? [String: Any])?["timeZone"] as? String == "Europe/Warsaw")
            let england = try #require(providers.first { $0["key"] as? String == "BOE" })
            #expect(england["enabled"] as? Bool == false && england["lastFetch"] is NSNull && england["latestDate"] is NSNull)

            let one = try await client.request("/v1/providers/cbr")
            #expect(one.json["key"] as? String == "CBR" && one.json["latestDate"] as? String == "2026-04-25")
            #expect(one.json["issues"] as? [String] == ["RUB"] && one.json["standing"] is [String: Any])
            let revalidated = try await client.request("/v1/providers/CBR", headers: [.ifNoneMatch: one.headers[.eTag] ?? ""])
            #expect(revalidated.status == .notModified)
            // Every key the server knows, in any letter case, is a `providers=` value the contract allows.
            let contract = try await client.request("/openapi.yaml").text
            let pattern = try #require(contract.firstRange(of: "pattern: '^([A-Za-z]").map { String(contract[$0.lowerBound...].prefix { $0 != "\n" }) })
            let regex = try Regex(String(pattern.dropFirst("pattern: '".count).dropLast()))
            for key in providers.compactMap({ $0["key"] as? String }) {
                #expect(key.wholeMatch(of: regex) != nil && key.lowercased().wholeMatch(of: regex) != nil, "\(key)")
            }
            #expect("NBP,cnb".wholeMatch(of: regex) != nil)
            let unknown = try await client.request("/v1/providers/XYZ")
            #expect(unknown.status == .notFound && unknown.headers[.contentType] == "application/problem+json")
        }
    }

    @Test("a crafted inverted quote is left out of the merge and reported in /v1/status, /v1/providers and /metrics")
    func invertedQuoteIsReported() async throws {
        // The NBP's table A with the dollar inverted (PLN per USD written as USD per PLN), as a
        // misread feed would: with the ECB's and the CNB's dollar there are three to compare.
        let fixture = try String(contentsOf: Fixtures.url("nbp-poland/tables_A_2026-03-01_2026-03-05.json"), encoding: .utf8)
        #expect(fixture.contains("\"code\":\"USD\",\"mid\":3.6056"))
        let crafted = fixture.replacingOccurrences(of: "\"code\":\"USD\",\"mid\":3.6056", with: "\"code\":\"USD\",\"mid\":0.27735")
        let upstream = FakeProviderUpstream()
        upstream.serve("/nbp/api/exchangerates/tables/A/*", .body(crafted))
        upstream.serve("/nbp/api/exchangerates/tables/B/*", .fixture("nbp-poland/tables_B_2026-03-01_2026-03-05.json"))
        upstream.serve("/nbp/api/cenyzlota/*", .fixture("nbp-poland/cenyzlota_2026-03-01_2026-03-05.json"))
        upstream.serve("/cnb" + ProviderIsolationTests.cnbDailyPath, .body(try Self.cnbDailyText(of: "2026-03-02")))
        try await Self.withServer(upstream, providers: ["NBP", "CNB"]) { client in
            let isDollarOf0302 = { (exclusion: [String: Any]) in exclusion["currency"] as? String == "USD" && exclusion["date"] as? String == "2026-03-02" }
            try await waitUntil("the inverted dollar is reported") {
                let exclusions = try await client.poll("/v1/status").json["consensusExclusions"] as? [[String: Any]] ?? []
                return exclusions.contains(where: isDollarOf0302)
            }
            let status = try await client.request("/v1/status")
            let exclusions = try #require(status.json["consensusExclusions"] as? [[String: Any]])
            let dollar = try #require(exclusions.first(where: isDollarOf0302))
            #expect(dollar["provider"] as? String == "NBP" && dollar["providerCount"] as? Int == 3)
            #expect((dollar["deviation"] as? Double ?? 0) > 0.9)
            let poland = try await client.request("/v1/providers/NBP")
            #expect((poland.json["exclusions"] as? [[String: Any]])?.isEmpty == false)
            let metrics = try await client.request("/metrics").text
            #expect(metrics.contains("rates_relay_consensus_exclusions{provider=\"NBP\"}"))
            #expect(!metrics.contains("rates_relay_consensus_exclusions{provider=\"NBP\"} 0"))
            // The merged dollar stays the ECB's.
            let merged = try await client.request("/v1/rates/2026-03-02?symbols=USD&expand=sources")
            #expect((merged.json["sources"] as? [String: [String: Any]])?["USD"]?["provider"] as? String == "ECB")
            // v2's expand=providers lists the NBP's inverted dollar, marked excluded; the others are not.
            let record = try await client.request("/v2/rate/EUR/USD?date=2026-03-02&expand=providers")
            let entries = try #require(record.json["providers"] as? [[String: Any]], "\(record.text)")
            #expect(entries.map { $0["key"] as? String } == ["ECB", "CNB", "NBP"], "the served value's provider first, then by key")
            #expect(entries.map { $0["excluded"] as? Bool } == [nil, nil, true])
        }
    }

    /// The CNB's daily text (`denni_kurz.txt`) of `day`, written from its recorded year of fixings:
    /// the same figures, in the layout its daily endpoint serves (three decimals, decimal comma).
    static func cnbDailyText(of day: String) throws -> String {
        let year = try JSONSerialization.jsonObject(with: Fixtures.data("cnb-czech/cnbapi_exrates_daily-year_2026.json")) as? [String: Any]
        let rates = (year?["rates"] as? [[String: Any]] ?? []).filter { $0["validFor"] as? String == day }
        let parts = day.split(separator: "-")
        var text = "\(parts[2]).\(parts[1]).\(parts[0]) #43\nzemě|měna|množství|kód|kurz\n"
        for rate in rates {
            let code = rate["currencyCode"] as? String ?? "", amount = rate["amount"] as? Int ?? 1, value = rate["rate"] as? Double ?? 0
            text += "\(code)|\(code)|\(amount)|\(code)|" + String(format: "%.3f", value).replacingOccurrences(of: ".", with: ",") + "\n"
        }
        return text
    }
}
