import RatesUpstream
import Testing

@Suite("Provider registry")
struct ProviderRegistryTests {
    @Test("has every adapter once, under its own key, the ECB first and BDI, IMF and FRED after the central banks")
    func entries() throws {
        let keys = ProviderRegistry.keys
        #expect(keys.count == 30)
        #expect(Set(keys).count == keys.count)
        #expect(keys.first == "ECB")
        #expect(Array(keys.suffix(3)) == ["BDI", "IMF", "FRED"])
        for entry in ProviderRegistry.entries {
            let provider = try ProviderRegistry.make(key: entry.key, apiKey: "key")
            #expect(provider.key == entry.key)
            #expect(provider.needsAPIKey == entry.needsAPIKey)
        }
        #expect(try ProviderRegistry.make(key: "nbp", baseURL: "http://127.0.0.1:1").requests(for: .latest).first?.url == "http://127.0.0.1:1/tables/A/?format=json")
    }

    @Test("a provider needing an API key is refused without one, and left off a selection")
    func apiKeys() {
        #expect(ProviderRegistry.keysNeedingAPIKey == ["FRED", "BANXICO", "BOT"])
        for key in ["FRED", "BANXICO", "BOT"] {
            #expect(throws: ProviderConfigurationError.apiKeyMissing(provider: key)) { try ProviderRegistry.make(key: key) }
            #expect(throws: ProviderConfigurationError.apiKeyMissing(provider: key)) { try ProviderRegistry.make(key: key, apiKey: "") }
        }
        #expect(throws: ProviderConfigurationError.unknownProvider("XYZ")) { try ProviderRegistry.make(key: "XYZ") }

        let all = ProviderRegistry.select(apiKeys: ["FRED": "secret"])
        #expect(all.providers.map(\.key) == ProviderRegistry.keys.filter { $0 != "BANXICO" && $0 != "BOT" })
        #expect(all.off.map(\.key) == ["BOT", "BANXICO"])
        #expect("\(all.off[0].reason)" == "provider BOT needs an API key and none is configured: it stays off until one is")

        let chosen = ProviderRegistry.select(enabled: ["nbp", "ECB", "FRED", "NOPE", "NBP"])
        #expect(chosen.providers.map(\.key) == ["NBP", "ECB"], "in the order asked, each once")
        #expect(chosen.off.map(\.reason) == [.apiKeyMissing(provider: "FRED"), .unknownProvider("NOPE")])
    }
}
