import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RatesTestSupport
import Testing

/// Frankfurter's v1 API served beside ours, checked against answers Frankfurter itself gave
/// (`Tests/Fixtures/frankfurter/`, recorded by a client library's test suite) on the same ECB data.
@Suite("Frankfurter v1 clients: same shapes, same values")
struct FrankfurterCompatibilityTests {
    /// A recorded answer and the request that produced it, from its file name:
    /// `rates/DATE-BASE[-SYMBOLS].json` or `conv/DATE-AMOUNT-BASE[-SYMBOLS].json`, DATE `latest` for the newest.
    struct Recorded: CustomStringConvertible {
        let file: String
        let answer: [String: Any]
        let date: String
        let query: String

        var description: String { file }

        init(_ file: String) throws {
            self.file = file
            answer = try #require(try JSONSerialization.jsonObject(with: Fixtures.data("frankfurter/" + file)) as? [String: Any])
            var parts = ((file as NSString).lastPathComponent as NSString).deletingPathExtension.components(separatedBy: "-")
            if parts[0] == "latest" {
                date = "latest"
                parts.removeFirst()
            } else {
                date = parts[0...2].joined(separator: "-")
                parts.removeFirst(3)
            }
            var query: [String] = []
            if file.hasPrefix("conv/") { query.append("amount=" + parts.removeFirst()) }
            query.append("from=" + parts.removeFirst())
            if let symbols = parts.first { query.append("to=" + symbols) }
            self.query = query.joined(separator: "&")
        }
    }

    static let recorded = [
        "rates/2025-06-13-EUR.json", "rates/2025-06-13-USD.json", "rates/2025-06-13-PHP.json", "rates/2025-06-13-EUR-EUR,USD.json",
        "rates/2025-06-13-USD-EUR,USD.json", "rates/2025-06-13-PHP-EUR,USD.json", "rates/latest-EUR.json", "rates/latest-USD-EUR,USD.json",
        "conv/2025-06-13-1234.56-EUR-USD.json", "conv/2025-06-13-12.3456-EUR.json", "conv/2025-06-13-1234.56-USD-CNY.json",
        "conv/2025-06-13-1234.56-CNY-PHP.json", "conv/latest-1234.56-PHP-CNY.json", "conv/latest-1234.56-EUR-USD,JPY,PHP,BYN.json",
    ]

    /// Frankfurter v1's rounding of a derived value (its `Roundable`): 0 to 6 decimals by size.
    static func frankfurterRounded(_ value: Decimal) -> Decimal {
        let places = value > 5000 ? 0 : value > 80 ? 2 : value > 20 ? 3 : value > 1 ? 4 : value > Decimal(string: "0.0001")! ? 5 : 6
        var value = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, places, .plain)
        return rounded
    }

    @Test("each recorded answer comes back from /v1/DATE (the recorded latest day for `latest`) with the same fields and currencies, values equal at Frankfurter's rounding", arguments: recorded)
    func recordedAnswers(file: String) async throws {
        try await withSeededServer { client in
            let recorded = try Recorded(file)
            let date = recorded.date == "latest" ? try #require(recorded.answer["date"] as? String) : recorded.date
            for prefix in ["/v1/", "/"] {
                let answer = try await client.request(prefix + date + "?" + recorded.query)
                #expect(answer.status == .ok, "\(prefix)\(date)?\(recorded.query): \(answer.text)")
                // At the root exchangerate.host's clients call the same paths: its members are added, Frankfurter's kept.
                let added: Set<String> = prefix == "/" ? ["success", "historical"] : []
                #expect(Set(answer.json.keys) == Set(recorded.answer.keys).union(added), "\(answer.text)")
                #expect(answer.json["base"] as? String == recorded.answer["base"] as? String)
                #expect(answer.json["date"] as? String == recorded.answer["date"] as? String)
                #expect((answer.json["amount"] as? NSNumber)?.doubleValue == (recorded.answer["amount"] as? NSNumber)?.doubleValue)
                let theirs = try #require(recorded.answer["rates"] as? [String: NSNumber])
                // BYN: the ECB never published it; Frankfurter answers without it, as we do.
                #expect(Set(try #require(answer.json["rates"] as? [String: Any]).keys) == Set(theirs.keys), "\(answer.text)")
                for (code, value) in theirs {
                    let ours = try #require(answer.decimalText("rates", code).flatMap { Decimal(string: $0, locale: nil) }, "\(code)")
                    let expected = try #require(Decimal(string: value.stringValue, locale: nil))
                    if recorded.answer["base"] as? String == "EUR", recorded.query.hasPrefix("from=") {
                        #expect(ours == expected, "\(code): the ECB's figure as published")
                    } else {
                        // Frankfurter rounds its inputs before dividing: at its precision ours may differ by its last digit.
                        let difference = abs(Self.frankfurterRounded(ours) - expected) / expected
                        #expect(difference <= Decimal(string: "0.0002")!, "\(code): ours \(ours), Frankfurter's \(expected)")
                    }
                }
            }
        }
    }

    @Test("a range is each publication's rates; one that starts without a publication starts at the nearest earlier; an open end is the newest")
    func ranges() async throws {
        try await withSeededServer { client in
            // 2025-06-14 is a Saturday: the range starts at Friday the 13th.
            let week = try await client.request("/v1/2025-06-14..2025-06-20?from=USD&to=EUR,JPY")
            #expect(week.status == .ok, "\(week.text)")
            #expect(week.json["start_date"] as? String == "2025-06-13" && week.json["end_date"] as? String == "2025-06-20")
            #expect(week.json["base"] as? String == "USD" && (week.json["amount"] as? NSNumber)?.doubleValue == 1)
            let days = try #require(week.json["rates"] as? [String: [String: Any]])
            #expect(days.keys.sorted() == ["2025-06-13", "2025-06-16", "2025-06-17", "2025-06-18", "2025-06-19", "2025-06-20"])
            #expect(days.values.allSatisfy { Set($0.keys) == ["EUR", "JPY"] })

            let open = try await client.request("/2026-10-26..?symbols=USD")
            #expect(open.json["start_date"] as? String == "2026-10-26" && open.json["end_date"] as? String == "2026-10-30", "\(open.text)")
            #expect((open.json["rates"] as? [String: Any])?.count == 5)
        }
    }

    @Test("errors are Frankfurter's on its routes ({\"message\"}, 404 not found, 422), problems with a message on ours, and other paths stay our 404")
    func errors() async throws {
        try await withSeededServer { client in
            let before = try await client.request("/v1/1998-06-01")
            let notFound = String(decoding: try Fixtures.data("frankfurter/not-found.json"), as: UTF8.self)
            #expect(before.status == .notFound && before.text == notFound)
            #expect(before.headers[.contentType] == "application/json")
            for target in ["/v1/2025-02-30", "/2025-06-13?from=EURO", "/v1/2099-01-01", "/v1/2025-06-20..2025-06-13", "/latest?amount=-1"] {
                let answer = try await client.request(target)
                #expect(answer.status == .unprocessableContent, "\(target): \(answer.text)")
                // At the root the error also carries exchangerate.host's members (ExchangerateHostCompatibilityTests).
                let members = target.hasPrefix("/v1/") ? ["message"] : ["error", "message", "success"]
                #expect(answer.json.keys.sorted() == members && !(answer.json["message"] as? String ?? "").isEmpty, "\(target): \(answer.text)")
            }
            let unknownCurrency = try await client.request("/latest?to=XYZ")
            #expect(unknownCurrency.status == .notFound && unknownCurrency.json["message"] as? String == "not found")

            // Our routes keep problem+json; the detail is also the message Frankfurter's clients read.
            let ours = try await client.request("/v1/latest?base=EURO")
            #expect(ours.status == .badRequest && ours.headers[.contentType] == "application/problem+json")
            #expect(ours.json["message"] as? String == ours.json["detail"] as? String && ours.json["message"] != nil)
            for path in ["/v1/nothing-here", "/nothing-here"] {
                let unknown = try await client.request(path)
                #expect(unknown.status == .notFound && unknown.headers[.contentType] == "application/problem+json", "\(path)")
            }
        }
    }

    @Test("Frankfurter's routes are prepared answers: an ETag, then 304 for it, gzip when asked")
    func preparedAnswers() async throws {
        try await withSeededServer { client in
            for target in ["/v1/2025-06-13?from=USD", "/latest", "/currencies", "/2025-06-02..2025-06-13"] {
                let first = try await client.request(target)
                let etag = try #require(first.headers[.eTag], "\(target)")
                let again = try await client.request(target, headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified, "\(target)")
                let gzipped = try await client.request(target, headers: [.acceptEncoding: "gzip"])
                #expect(gzipped.headers[.contentEncoding] == "gzip" || first.body.readableBytes < 512, "\(target)")
            }
            let currencies = try await client.request("/currencies")
            let ours = try await client.request("/v1/currencies")
            #expect(currencies.text == ours.text)
        }
    }
}
