import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RatesTestSupport
import Testing

/// The parts of Frankfurter v2 that name providers or choose a format: `expand=providers`,
/// `/v2/providers/{key}` and its rates, and NDJSON or CSV chosen by `Accept`.
@Suite("Frankfurter v2: expand=providers, one provider, NDJSON and CSV by Accept", .serialized)
struct FrankfurterV2ProvidersTests {
    /// A v2 JSON array's elements.
    static func elements(_ answer: TestResponse) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(answer.body.readableBytesView)) as? [[String: Any]], "\(answer.text)")
    }

    /// The record of `quote` in a v2 array.
    static func record(_ quote: String, in answer: TestResponse) throws -> [String: Any] {
        try #require(try elements(answer).first { $0["quote"] as? String == quote }, "no \(quote) in \(answer.text.prefix(300))")
    }

    /// A `/v1` answer's rate of `code`, as v2's JSON reader reads the same text.
    static func v1Rate(_ client: any TestClientProtocol, _ target: String, _ code: String) async throws -> Double {
        let answer = try await client.request(target)
        return try #require(answer.decimalText("rates", code).flatMap(Double.init), "\(target): \(answer.text)")
    }

    @Test("expand=providers lists every provider's value of the pair with its own date, the served one first; a peg's record lists none")
    func expandProviders() async throws {
        try await ProviderAnswersTests.withServer { client in
            // 2026-03-04: the ECB's figures and the NBP's tables A and B of that day.
            let answer = try await client.request("/v2/rates?date=2026-03-04&quotes=USD,AFN,FKP&expand=providers")
            #expect(answer.status == .ok, "\(answer.text)")
            let dollar = try Self.record("USD", in: answer)
            let providers = try #require(dollar["providers"] as? [[String: Any]])
            #expect(providers.first?["key"] as? String == "ECB" && providers.first?["rate"] as? Double == dollar["rate"] as? Double,
                    "the served value's provider first: \(providers)")
            let poland = try #require(providers.first { $0["key"] as? String == "NBP" })
            #expect(poland["date"] as? String == "2026-03-04" && poland["excluded"] == nil)
            #expect(poland["rate"] as? Double == (try await Self.v1Rate(client, "/v1/rates/2026-03-04?providers=NBP&symbols=USD", "USD")),
                    "the NBP's own value of the dollar per EUR")
            let afghani = try #require(try Self.record("AFN", in: answer)["providers"] as? [[String: Any]])
            #expect(afghani.map { $0["key"] as? String } == ["NBP"], "only table B quotes the afghani")
            #expect(try Self.record("FKP", in: answer)["providers"] == nil, "a peg is no provider's figure")

            // Another base: each provider's own cross rate, from its own figures.
            let zloty = try await client.request("/v2/rates?date=2026-03-04&base=PLN&quotes=USD&expand=providers")
            let fromZloty = try #require(try Self.record("USD", in: zloty)["providers"] as? [[String: Any]])
            #expect(fromZloty.first { $0["key"] as? String == "NBP" }?["rate"] as? Double
                == (try await Self.v1Rate(client, "/v1/rates/2026-03-04?providers=NBP&base=PLN&symbols=USD", "USD")))

            let pair = try await client.request("/v2/rate/EUR/USD?date=2026-03-04&expand=providers")
            #expect(pair.status == .ok && (pair.json["providers"] as? [[String: Any]])?.count == providers.count, "\(pair.text)")
            let plain = try await client.request("/v2/rates?date=2026-03-04&quotes=USD")
            #expect(!plain.text.contains("providers"), "providers only when asked for")
            let unknown = try await client.request("/v2/rates?expand=sources")
            #expect(unknown.status == .unprocessableContent && unknown.json["message"] as? String == "invalid expand: sources")
        }
    }

    @Test("/v2/providers/{key} describes one provider; its /rates are /v2/rates of that provider alone")
    func oneProvider() async throws {
        try await ProviderAnswersTests.withServer { client in
            let poland = try await client.request("/v2/providers/nbp")
            #expect(poland.status == .ok, "\(poland.text)")
            #expect(poland.json["key"] as? String == "NBP" && poland.json["pivot_currency"] as? String == "PLN")
            let listed = try Self.elements(try await client.request("/v2/providers")).first { $0["key"] as? String == "NBP" }
            #expect((listed?["end_date"] as? String) == poland.json["end_date"] as? String)

            let rates = try await client.request("/v2/providers/NBP/rates?date=2026-03-04&quotes=USD,AFN")
            let pinned = try await client.request("/v2/rates?providers=NBP&date=2026-03-04&quotes=USD,AFN")
            #expect(rates.status == .ok && rates.text == pinned.text, "\(rates.text)")

            for target in ["/v2/providers/XYZ", "/v2/providers/XYZ/rates", "/v2/providers/BOC"] {
                let missing = try await client.request(target)
                #expect(missing.status == .notFound && missing.json["status"] as? Int == 404, "\(target): \(missing.text)")
            }
            #expect(try await client.request("/v2/providers/NBP/rates?providers=CBR").status == .unprocessableContent)
        }
    }

    @Test("Accept: text/csv and application/x-ndjson choose the format of /v2/rates; each is prepared apart and says Vary: Accept")
    func formatsByAccept() async throws {
        try await ProviderAnswersTests.withServer { client in
            let target = "/v2/rates?date=2026-03-04&quotes=USD,PLN,AFN"
            let json = try await client.request(target)
            let csv = try await client.request(target, headers: [.accept: "text/csv"])
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(csv.text == (try await client.request("/v2/rates.csv?date=2026-03-04&quotes=USD,PLN,AFN")).text)
            let shouted = try await client.request(target, headers: [.accept: "TEXT/CSV"])
            #expect(shouted.text == csv.text && shouted.headers[.contentType] == "text/csv; charset=utf-8", "media types in any letter case")
            let ndjson = try await client.request(target, headers: [.accept: "application/x-ndjson"])
            #expect(ndjson.headers[.contentType] == "application/x-ndjson")
            let lines = ndjson.text.split(separator: "\n").map(String.init)
            #expect(ndjson.text.hasSuffix("\n") && "[" + lines.joined(separator: ",") + "]" == json.text, "one record per line")
            // A client preferring JSON gets it, after the other forms were prepared for the same target.
            for accept in ["application/json", "*/*", "text/csv;q=0.5, application/json"] {
                let again = try await client.request(target, headers: [.accept: accept])
                #expect(again.text == json.text && again.headers[.contentType] == "application/json", "\(accept)")
            }
            for answer in [json, csv, ndjson] { #expect(answer.headers[.vary]?.contains("Accept") == true) }
        }
    }

    @Test("/v2/currencies?scope=all lists the currencies only a peg values, named as the peg's")
    func peggedCurrencies() async throws {
        try await ProviderAnswersTests.withServer { client in
            let all = try Self.elements(try await client.request("/v2/currencies?scope=all"))
            let falklands = try #require(all.first { $0["iso_code"] as? String == "FKP" }, "FKP")
            #expect(falklands["providers"] as? [String] == ["PEG"])
        }
    }
}
