import Foundation
import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("Provider registry")
struct ProviderRegistryTests {
    @Test("has every adapter once, under its own key, tier by tier: the ECB first")
    func entries() throws {
        let keys = ProviderRegistry.keys
        #expect(Set(keys).count == keys.count)
        #expect(keys.first == "ECB" && ProviderRegistry.referenceKeys == ["ECB"])
        #expect(ProviderRegistry.entries.map(\.tier) == ProviderRegistry.entries.map(\.tier).sorted(), "entries are listed tier by tier")
        #expect(ProviderRegistry.entries.filter { $0.tier == .dollarSeries }.prefix(3).map(\.key) == ["FRED", "BOJ", "IMF"])
        #expect(ProviderRegistry.referenceSchedule == PublicationSchedule.ecbReferenceRates)
        for entry in ProviderRegistry.entries {
            let provider = try ProviderRegistry.make(key: entry.key, apiKey: "key")
            #expect(provider.key == entry.key)
            #expect(provider.needsAPIKey == entry.needsAPIKey)
        }
        #expect(try ProviderRegistry.make(key: "nbp", baseURL: "http://127.0.0.1:1").requests(for: .latest).first?.url == "http://127.0.0.1:1/tables/A/?format=json")
    }

    @Test("a provider needing an API key is refused without one, and left off a selection")
    func apiKeys() {
        #expect(ProviderRegistry.keysNeedingAPIKey == ["FRED", "BANXICO", "BOT", "BAM", "BCCH"])
        for key in ["FRED", "BANXICO", "BOT", "BAM", "BCCH"] {
            #expect(throws: ProviderConfigurationError.apiKeyMissing(provider: key)) { try ProviderRegistry.make(key: key) }
            #expect(throws: ProviderConfigurationError.apiKeyMissing(provider: key)) { try ProviderRegistry.make(key: key, apiKey: "") }
        }
        #expect(throws: ProviderConfigurationError.unknownProvider("XYZ")) { try ProviderRegistry.make(key: "XYZ") }

        let all = ProviderRegistry.select(apiKeys: ["FRED": "secret"])
        #expect(all.providers.map(\.key) == ProviderRegistry.keys.filter { !["BANXICO", "BOT", "BAM", "BCCH"].contains($0) })
        #expect(all.off.map(\.key) == ["BANXICO", "BOT", "BAM", "BCCH"])
        #expect("\(all.off[0].reason)" == "provider BANXICO needs an API key and none is configured: it stays off until one is")

        let chosen = ProviderRegistry.select(enabled: ["nbp", "ECB", "FRED", "NOPE", "NBP"])
        #expect(chosen.providers.map(\.key) == ["NBP", "ECB"], "in the order asked, each once")
        #expect(chosen.off.map(\.reason) == [.apiKeyMissing(provider: "FRED"), .unknownProvider("NOPE")])
    }

    @Test("docs/PROVIDERS.md has one row per source of the registry, with its name, pivot, country and time zone as the registry declares them")
    func documentedProviders() throws {
        let document = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/PROVIDERS.md"), encoding: .utf8)
        let table = try #require(document.components(separatedBy: "<!-- providers:begin -->").last?.components(separatedBy: "<!-- providers:end -->").first)
        // Each row's cells, the header's ("key") and the separator's left out.
        let rows = table.split(separator: "\n").compactMap { line -> [String]? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 6, ProviderKey.isWellFormed(cells[1]) else { return nil }
            return Array(cells.dropFirst())
        }
        let documented = rows.map { $0[0] }
        #expect(documented.count == Set(documented).count, "a key documented twice")
        #expect(Set(documented) == Set(ProviderRegistry.keys), "add or remove the rows of docs/PROVIDERS.md's table to match ProviderRegistry.entries")
        for row in rows {
            guard let identity = ProviderRegistry.entries.first(where: { $0.key == row[0] })?.identity else { continue }
            #expect(
                [row[1], row[2], row[3]] == [identity.name, identity.pivot.rawValue, identity.country ?? "—"],
                "\(row[0])'s name, pivot and country as ProviderRegistry.entries declares them")
            // A source whose history has ended says "none" and may name no zone.
            #expect(
                row[4].hasPrefix(identity.schedule.timeZone + ",") || row[4].hasPrefix("none"),
                "\(row[0])'s schedule starts with its time zone, \(identity.schedule.timeZone)")
        }
    }

    @Test("docs/PROVIDERS.md lists the declared pegs as FixedParity.pegs has them: currency, anchor, rate, day and authority")
    func documentedPegs() throws {
        let document = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/PROVIDERS.md"), encoding: .utf8)
        let table = try #require(document.components(separatedBy: "<!-- pegs:begin -->").last?.components(separatedBy: "<!-- pegs:end -->").first)
        let rows = table.split(separator: "\n").dropFirst(2).map { line in
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.prefix(5).joined(separator: " ")
        }
        let declared = FixedParity.pegs.map { peg in
            "\(peg.currency) \(peg.anchor) \(peg.rate) \(peg.since) [\(peg.authority)](\(peg.reference))"
        }
        #expect(rows == declared)
        #expect(declared.count == 21)
    }
}
