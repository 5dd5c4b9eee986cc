import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RatesCore
@testable import RatesServer
import RatesTestSupport
import Testing

/// exchangerate.host's keyless API (before 2023) served at the root, checked against answers it gave
/// two client libraries' test suites (`Tests/Fixtures/exchangerate.host/`). Only one of them is an
/// ECB publication as published (2000-01-03, florianv/exchanger): its values must be ours exactly.
/// The others mixed other feeds into the ECB's (their 2020 and 2023 figures are not the ECB's, and
/// they list ~118–171 currencies), so for them we reproduce members, nesting and value types, and
/// check our values against the ECB's figures and our own `/v1` answers instead.
@Suite("exchangerate.host clients: same shapes, ECB values")
struct ExchangerateHostCompatibilityTests {
    /// A recorded answer, the request that reproduces it here, and the members ours adds.
    struct Recorded: CustomStringConvertible, Sendable {
        let file: String
        let target: String
        /// Members of ours that the recording lacks: Frankfurter's on the routes both APIs share.
        let extraMembers: Set<String>

        var description: String { file }

        /// The recorded object without `motd` (exchangerate.host's donation notice, not sent here).
        func answer() throws -> [String: Any] {
            var answer = try #require(try JSONSerialization.jsonObject(with: Fixtures.data("exchangerate.host/" + file)) as? [String: Any])
            answer["motd"] = nil
            return answer
        }
    }

    static let recorded = [
        Recorded(file: "benjaminmal-exchangeratehost-bundle/latest.json", target: "/latest", extraMembers: ["amount"]),
        Recorded(file: "florianv-exchanger/latest.json", target: "/latest", extraMembers: ["amount"]),
        Recorded(file: "benjaminmal-exchangeratehost-bundle/historical.json", target: "/2020-04-04", extraMembers: ["amount", "requestedDate"]),
        Recorded(file: "florianv-exchanger/historical.json", target: "/2000-01-03", extraMembers: ["amount"]),
        Recorded(file: "benjaminmal-exchangeratehost-bundle/convert.json", target: "/convert?from=USD&to=EUR&amount=1200", extraMembers: []),
        Recorded(file: "benjaminmal-exchangeratehost-bundle/convert_with_int.json", target: "/convert?from=USD&to=EUR&amount=1200&places=0", extraMembers: []),
        Recorded(file: "benjaminmal-exchangeratehost-bundle/timeseries.json", target: "/timeseries?start_date=2020-01-01&end_date=2020-01-04", extraMembers: []),
        Recorded(file: "benjaminmal-exchangeratehost-bundle/fluctuation.json", target: "/fluctuation?start_date=2020-01-01&end_date=2020-01-04", extraMembers: []),
        Recorded(file: "benjaminmal-exchangeratehost-bundle/symbols.json", target: "/symbols", extraMembers: []),
    ]

    @Test("each recorded answer comes back with the same members, flags, nesting and value types", arguments: recorded)
    func recordedShapes(recorded: Recorded) async throws {
        try await withSeededServer { client in
            let theirs = try recorded.answer()
            let answer = try await client.request(recorded.target)
            #expect(answer.status == .ok, "\(recorded.target): \(answer.text)")
            let ours = answer.json
            #expect(Set(ours.keys) == Set(theirs.keys).union(recorded.extraMembers), "\(recorded.target): \(answer.text.prefix(300))")
            for flag in ["success", "historical", "timeseries", "fluctuation"] where theirs[flag] != nil {
                #expect(ours[flag] as? Bool == theirs[flag] as? Bool, "\(flag)")
            }
            for member in ["base", "start_date", "end_date"] where theirs[member] != nil {
                #expect(ours[member] as? String == theirs[member] as? String, "\(member)")
            }
            if let query = theirs["query"] as? [String: Any] {
                let ourQuery = try #require(ours["query"] as? [String: Any])
                #expect(Set(ourQuery.keys) == Set(query.keys))
                #expect(ourQuery["from"] as? String == query["from"] as? String && ourQuery["to"] as? String == query["to"] as? String)
                #expect(Set(try #require(ours["info"] as? [String: Any]).keys) == Set(try #require(theirs["info"] as? [String: Any]).keys))
                #expect(ours["result"] is NSNumber)
                if recorded.target.contains("places=0") {
                    #expect(answer.decimalText("result").map { !$0.contains(".") } == true, "an integer, as recorded: \(answer.text)")
                }
            }
            if let symbols = theirs["symbols"] as? [String: [String: Any]] {
                let ourSymbols = try #require(ours["symbols"] as? [String: [String: Any]])
                #expect(!ourSymbols.isEmpty)
                for (code, entry) in ourSymbols {
                    #expect(Set(entry.keys) == Set(try #require(symbols.first?.value).keys) && entry["code"] as? String == code, "\(code)")
                }
                // Currencies both list: the ECB's, named alike up to ISO 4217's wording.
                #expect(Set(ourSymbols.keys).isSuperset(of: ["USD", "JPY", "GBP", "CHF", "AUD", "CAD"]) && Set(symbols.keys).isSuperset(of: ["USD", "JPY"]))
            }
            guard let rates = theirs["rates"] as? [String: Any] else {
                #expect(ours["rates"] == nil, "\(recorded.target): theirs has no rates, so ours has none either")
                return
            }
            let ourRates = try #require(ours["rates"] as? [String: Any])
            switch rates.values.first {
            case is NSNumber:
                // One table: ours are the ECB's currencies of that day (theirs add other feeds' and list the base at 1).
                #expect(!ourRates.isEmpty && ourRates.values.allSatisfy { $0 is NSNumber })
                if recorded.target != "/latest" {
                    #expect(Set(ourRates.keys).isSubset(of: Set(rates.keys)), "\(Set(ourRates.keys).subtracting(rates.keys))")
                }
            case is [String: Any] where theirs["timeseries"] != nil:
                // A table per calendar day.
                #expect(Set(ourRates.keys) == Set(rates.keys))
                for (day, table) in ourRates {
                    let ourTable = try #require(table as? [String: Any], "\(day)")
                    let theirTable = try #require(rates[day] as? [String: Any])
                    #expect(!ourTable.isEmpty && ourTable.values.allSatisfy { $0 is NSNumber } && Set(ourTable.keys).isSubset(of: Set(theirTable.keys)), "\(day)")
                }
            case let entry as [String: Any]:
                // A movement per currency.
                #expect(!ourRates.isEmpty && Set(ourRates.keys).isSubset(of: Set(rates.keys)))
                for (code, movement) in ourRates {
                    let ourMovement = try #require(movement as? [String: Any], "\(code)")
                    #expect(Set(ourMovement.keys) == Set(entry.keys) && ourMovement.values.allSatisfy { $0 is NSNumber }, "\(code)")
                }
            default:
                Issue.record("unexpected rates in \(recorded.file)")
            }
        }
    }

    @Test("the recorded ECB publication (2000-01-03) comes back with the same currencies, each value as published")
    func ecbPublication() async throws {
        try await withSeededServer { client in
            let theirs = try Recorded(file: "florianv-exchanger/historical.json", target: "", extraMembers: []).answer()
            let theirRates = try #require(theirs["rates"] as? [String: NSNumber])
            for target in ["/2000-01-03", "/2000-01-03?base=EUR&places=4"] {
                let answer = try await client.request(target)
                #expect(answer.json["date"] as? String == "2000-01-03" && answer.json["base"] as? String == "EUR" && answer.json["historical"] as? Bool == true)
                let ours = try #require(answer.json["rates"] as? [String: Any])
                // The base is not listed in its own rates (theirs lists EUR at 1), as on every route of ours.
                #expect(Set(ours.keys) == Set(theirRates.keys).subtracting(["EUR"]), "\(answer.text)")
                for (code, value) in theirRates where code != "EUR" {
                    let text = try #require(answer.decimalText("rates", code))
                    #expect(Decimal(string: text, locale: nil) == Decimal(string: value.stringValue, locale: nil), "\(code): ours \(text), theirs \(value)")
                }
            }
        }
    }

    @Test("a time series lists every calendar day with the publication on or before it, each value the ECB's or /v1's")
    func timeseries() async throws {
        try await withSeededServer { client in
            let answer = try await client.request("/timeseries?start_date=2020-01-01&end_date=2020-01-04&symbols=USD,GBP")
            let rates = try #require(answer.json["rates"] as? [String: [String: Any]], "\(answer.text)")
            #expect(rates.keys.sorted() == ["2020-01-01", "2020-01-02", "2020-01-03", "2020-01-04"])
            // 2020-01-01 (a TARGET holiday) has 2019-12-31's figures, Saturday the 4th Friday's.
            let expected = ["2020-01-01": ("1.1234", "0.8508"), "2020-01-02": ("1.1193", "0.84828"), "2020-01-03": ("1.1147", "0.85115"), "2020-01-04": ("1.1147", "0.85115")]
            for (day, (usd, gbp)) in expected {
                #expect(answer.decimalText("rates", day, "USD") == usd && answer.decimalText("rates", day, "GBP") == gbp, "\(day): \(answer.text)")
            }
            // Another base: each day equals /v1/rates for that day.
            let crossed = try await client.request("/timeseries?start_date=2024-03-29&end_date=2024-04-02&base=USD&symbols=JPY,CHF&amount=10")
            let days = try #require(crossed.json["rates"] as? [String: Any])
            #expect(days.count == 5, "\(crossed.text)")
            for day in days.keys {
                let v1 = try await client.request("/v1/rates/\(day)?base=USD&symbols=JPY,CHF&amount=10")
                for code in ["JPY", "CHF"] { #expect(crossed.decimalText("rates", day, code) == v1.decimalText("rates", code), "\(day) \(code)") }
            }
            // Rounded to places: 1.1234 → 1.12.
            let rounded = try await client.request("/timeseries?start_date=2020-01-01&end_date=2020-01-01&symbols=USD&places=2")
            #expect(rounded.decimalText("rates", "2020-01-01", "USD") == "1.12", "\(rounded.text)")
        }
    }

    @Test("fluctuation: change is start − end and change_pct change / start to 6 places, as every recorded entry has it; ours from the ECB's figures")
    func fluctuation() async throws {
        // The recorded convention, entry by entry, through our exact arithmetic.
        let recorded = try Recorded(file: "benjaminmal-exchangeratehost-bundle/fluctuation.json", target: "", extraMembers: []).answer()
        let text = String(decoding: try Fixtures.data("exchangerate.host/benjaminmal-exchangeratehost-bundle/fluctuation.json"), as: UTF8.self)
        let entries = try #require(recorded["rates"] as? [String: [String: NSNumber]])
        #expect(entries.count == 118)
        for code in entries.keys {
            // The recorded numbers as written (JSONSerialization would pass them through Double).
            func number(_ name: String) throws -> String {
                let entry = try #require(text.range(of: "\"\(code)\": {"))
                let field = try #require(text.range(of: "\"\(name)\": ", range: entry.upperBound..<text.endIndex))
                return String(text[field.upperBound...].prefix { "-0123456789.".contains($0) })
            }
            let start = try #require(ExactDecimal(try number("start_rate")))
            let end = try #require(ExactDecimal(try number("end_rate")))
            let movement = try #require(RateFluctuation(start: start, end: end), "\(code)")
            #expect(Decimal(string: movement.change.description, locale: nil) == Decimal(string: try number("change"), locale: nil), "\(code) change")
            #expect(Decimal(string: movement.changePercent.description, locale: nil) == Decimal(string: try number("change_pct"), locale: nil), "\(code) change_pct")
        }

        try await withSeededServer { client in
            let answer = try await client.request("/fluctuation?start_date=2020-01-01&end_date=2020-01-04&symbols=USD,GBP,JPY")
            #expect(answer.status == .ok, "\(answer.text)")
            let expected = [
                "USD": ("1.1234", "1.1147", "0.0087", "0.007744"), "GBP": ("0.8508", "0.85115", "-0.00035", "-0.000411"),
                "JPY": ("121.94", "120.54", "1.4", "0.011481"),
            ]
            for (code, (start, end, change, percent)) in expected {
                let values = ["start_rate", "end_rate", "change", "change_pct"].map { answer.decimalText("rates", code, $0) ?? "" }
                #expect(values == [start, end, change, percent], "\(code): \(answer.text)")
            }
            // In another base the ends are /v1's rates of those days.
            let crossed = try await client.request("/fluctuation?start_date=2020-01-02&end_date=2020-01-03&base=GBP&symbols=CHF")
            let first = try await client.request("/v1/rates/2020-01-02?base=GBP&symbols=CHF")
            let last = try await client.request("/v1/rates/2020-01-03?base=GBP&symbols=CHF")
            #expect(crossed.decimalText("rates", "CHF", "start_rate") == first.decimalText("rates", "CHF"))
            #expect(crossed.decimalText("rates", "CHF", "end_rate") == last.decimalText("rates", "CHF"))
        }
    }

    @Test("convert is /v1/convert with success: the same query, rate, date and result; places rounds rate and result")
    func convert() async throws {
        try await withSeededServer { client in
            for query in ["from=USD&to=EUR&amount=1200&date=2023-04-25", "from=GBP&to=JPY&amount=12.5", "from=USD&to=CHF&date=2024-03-30"] {
                let ours = try await client.request("/convert?" + query)
                let v1 = try await client.request("/v1/convert?" + query)
                #expect(ours.json["success"] as? Bool == true && ours.json["historical"] as? Bool == query.contains("date="), "\(ours.text)")
                #expect(ours.decimalText("query", "amount") == v1.decimalText("query", "amount"), "\(query)")
                #expect(ours.decimalText("info", "rate") == v1.decimalText("info", "rate"), "\(query)")
                #expect(ours.decimalText("result") == v1.decimalText("result"), "\(query)")
                #expect(ours.json["date"] as? String == v1.json["date"] as? String)
            }
            let rounded = try await client.request("/convert?from=USD&to=EUR&amount=1200&date=2023-04-25&places=2")
            // 1 / 1.1022 = 0.90727636… ; 1200 × 0.90727636 = 1088.731632.
            #expect(rounded.decimalText("info", "rate") == "0.91" && rounded.decimalText("result") == "1088.73", "\(rounded.text)")
        }
    }

    @Test("the root routes both APIs share answer in both shapes: success and historical beside Frankfurter's members")
    func unionShape() async throws {
        try await withSeededServer { client in
            let latest = try await client.request("/latest?symbols=USD")
            #expect(Set(latest.json.keys) == ["success", "amount", "base", "date", "rates"] && latest.json["success"] as? Bool == true, "\(latest.text)")
            let day = try await client.request("/2026-10-30?symbols=USD")
            #expect(Set(day.json.keys) == ["success", "historical", "amount", "base", "date", "rates"] && day.json["historical"] as? Bool == true)
            #expect(day.decimalText("rates", "USD") == (try await client.request("/v1/rates/2026-10-30?symbols=USD")).decimalText("rates", "USD"))
            // Ours and Frankfurter's /v1 routes, and its ranges, are unchanged.
            for target in ["/v1/latest", "/v1/2026-10-30", "/2026-10-26..2026-10-30?symbols=USD"] {
                #expect(try await client.request(target).json["success"] == nil, "\(target)")
            }
        }
    }

    static let invalidTargets = [
        "/2025-02-30", "/2099-01-01", "/latest?base=EURO", "/latest?amount=-1", "/latest?places=x", "/latest?places=19", "/latest?source=crypto",
        "/2020-01-02?places=-1", "/convert?from=USD", "/convert", "/convert?from=USD&to=usd", "/convert?from=USD&to=JPY&date=2020-13-01",
        "/timeseries", "/timeseries?start_date=2020-13-01&end_date=2020-01-04", "/timeseries?start_date=2020-01-04&end_date=2020-01-01",
        "/timeseries?start_date=2019-01-01&end_date=2020-01-02", "/timeseries?start_date=2099-01-01", "/fluctuation?end_date=2020-01-04",
        "/fluctuation?start_date=2020-01-04&end_date=2020-01-01", "/fluctuation?start_date=2020-01-01&source=imf",
        "/timeseries?start_date=2020-01-01&start_date=2020-01-02", "/2025-01-02..2025-01-31?source=%C2%84", "/2025-01-02..?places=05",
    ]
    static let notFoundTargets = [
        "/1998-06-01", "/latest?base=XYZ", "/latest?symbols=XYZ", "/convert?from=USD&to=XYZ", "/convert?from=USD&to=RUB&date=2024-01-02",
        "/timeseries?start_date=1990-01-01&end_date=1990-02-01", "/timeseries?start_date=2020-01-01&end_date=2020-01-04&base=XYZ",
        "/fluctuation?start_date=1998-01-01&end_date=1998-06-01", "/fluctuation?start_date=2020-01-01&end_date=2020-01-04&symbols=RUB,XYZ&base=RUB",
    ]

    @Test("errors on the root routes carry both APIs' members: success false, message, error {code, type, info}; 422 or 404, never 5xx")
    func errors() async throws {
        try await withSeededServer { client in
            for (targets, status) in [(Self.invalidTargets, HTTPResponse.Status.unprocessableContent), (Self.notFoundTargets, .notFound)] {
                for target in targets {
                    let answer = try await client.request(target)
                    #expect(answer.status == status, "\(target): \(answer.text)")
                    #expect(answer.headers[.contentType] == "application/json" && answer.json.keys.sorted() == ["error", "message", "success"], "\(target): \(answer.text)")
                    #expect(answer.json["success"] as? Bool == false)
                    let error = try #require(answer.json["error"] as? [String: Any], "\(target)")
                    #expect((error["code"] as? NSNumber)?.intValue == Int(status.code) && !(error["info"] as? String ?? "").isEmpty && error["type"] is String, "\(target)")
                    #expect(answer.json["message"] as? String == (status == .notFound ? "not found" : error["info"] as? String), "\(target)")
                }
            }
            // Frankfurter's /v1 routes keep its own error alone.
            #expect(try await client.request("/v1/1998-06-01").json.keys.sorted() == ["message"])
            // A one-segment root path that is none of these routes stays our 404 problem.
            let unknown = try await client.request("/vat_rates")
            #expect(unknown.status == .notFound && unknown.headers[.contentType] == "application/problem+json")
        }
    }

    @Test("parameters exchangerate.host's clients send: source=ecb is accepted, unknown parameters are ignored, a span of 366 days is answered")
    func parameters() async throws {
        try await withSeededServer { client in
            let plain = try await client.request("/latest?symbols=USD")
            for target in ["/latest?symbols=USD&source=ecb", "/latest?symbols=USD&source=ECB&callback=&format=json", "/latest?symbols=USD&places=8"] {
                let answer = try await client.request(target)
                #expect(answer.status == .ok && answer.decimalText("rates", "USD") == plain.decimalText("rates", "USD"), "\(target): \(answer.text)")
            }
            let year = try await client.request("/timeseries?start_date=2024-01-01&end_date=2024-12-31&symbols=USD")
            #expect(year.status == .ok && (year.json["rates"] as? [String: Any])?.count == 366, "\(year.text.prefix(200))")
            // An end after today is today: 2026-10-31 in UTC+14 at the tests' clock (18:00 UTC on the 30th), with the 30th's rates.
            let open = try await client.request("/timeseries?start_date=2026-10-29&end_date=2099-01-01&symbols=USD")
            #expect(open.json["end_date"] as? String == "2026-10-31", "\(open.text)")
            #expect(open.decimalText("rates", "2026-10-31", "USD") == open.decimalText("rates", "2026-10-30", "USD") && open.decimalText("rates", "2026-10-31", "USD") != nil)
        }
    }

    @Test("the new routes are prepared answers (ETag, 304, gzip), known to the fast path, and follow openapi.yaml, errors included")
    func preparedAndContract() async throws {
        let contract = try OpenAPIContract.repository()
        for (path, route) in [("/convert", Route.exchangerateConvert), ("/timeseries", .exchangerateTimeseries), ("/fluctuation", .exchangerateFluctuation), ("/symbols", .exchangerateSymbols)] {
            #expect(DataAnswers.route(ofPath: path[...])?.route == route && route.isCompatibility && route.caching != nil && DataAnswers.routes.contains(route))
        }
        try await withSeededServer { client in
            let targets = [
                "/convert?from=USD&to=JPY&amount=100", "/timeseries?start_date=2026-10-01&end_date=2026-10-30&base=GBP&symbols=USD,JPY",
                "/fluctuation?start_date=2026-01-01&end_date=2026-10-30&places=3", "/symbols", "/latest?places=2", "/2024-03-30?base=USD&symbols=JPY",
            ]
            for target in targets {
                let first = try await client.request(target)
                let etag = try #require(first.headers[.eTag], "\(target)")
                #expect(try await client.request(target, headers: [.ifNoneMatch: etag]).status == .notModified, "\(target)")
                let gzipped = try await client.request(target, headers: [.acceptEncoding: "gzip"])
                #expect(gzipped.headers[.contentEncoding] == "gzip" || first.body.readableBytes < 512, "\(target)")
            }
            for target in targets + Self.invalidTargets + Self.notFoundTargets {
                let answer = try await client.request(target)
                let violations = contract.violations(
                    method: "GET", path: target, status: Int(answer.status.code), contentType: answer.headers[.contentType],
                    body: Array(answer.body.readableBytesView))
                #expect(violations.isEmpty, "\(target) → \(answer.status.code): \(violations)")
            }
        }
    }
}
