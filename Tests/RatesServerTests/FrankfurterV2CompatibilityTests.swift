import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RatesCore
import RatesTestSupport
import Testing

/// Frankfurter's v2 API under `/v2`: v2's shapes and errors, the values of our own `/v1` answers
/// on the seeded ECB history (through 2026-10-30).
@Suite("Frankfurter v2 clients: v2's shapes, our values")
struct FrankfurterV2CompatibilityTests {
    /// One record of a v2 answer, its rate as the exact text written.
    struct Record: Equatable, CustomStringConvertible {
        var date: String
        var base: String
        var quote: String
        var rate: String

        var description: String { "\(date) \(base)/\(quote) \(rate)" }
    }

    /// The records of a v2 JSON array, read from the text so that rates keep their digits; each
    /// record must have exactly the four members, in v2's order.
    static func records(_ answer: TestResponse) throws -> [Record] {
        let array = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.readableBytesView)) as? [[String: Any]], "\(answer.text)")
        let pattern = try Regex(#"\{"date":"([0-9-]{10})","base":"([A-Z]{3})","quote":"([A-Z]{3})","rate":([0-9.]+)\}"#)
        let records = answer.text.matches(of: pattern).map { match in
            Record(date: String(match.output[1].substring!), base: String(match.output[2].substring!), quote: String(match.output[3].substring!),
                   rate: String(match.output[4].substring!))
        }
        #expect(records.count == array.count, "every element is a record of four members: \(answer.text.prefix(300))")
        return records
    }

    /// The records of a v2 CSV answer.
    static func csvRecords(_ answer: TestResponse) throws -> [Record] {
        var lines = answer.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "date,base,quote,rate")
        #expect(lines.last == "", "the last line ends with a newline")
        lines = Array(lines.dropFirst().dropLast())
        return try lines.map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count == 4, "\(line)")
            return Record(date: fields[0], base: fields[1], quote: fields[2], rate: fields[3])
        }
    }

    /// The records `/v1/rates/{date}` (or `/v1/latest`) implies for `base`: one per currency, the base at 1, by quote.
    static func v1Records(_ client: any TestClientProtocol, date: String?, base: String, symbols: [String]? = nil) async throws -> [Record] {
        let target = (date.map { "/v1/rates/" + $0 } ?? "/v1/latest") + "?base=\(base)" + (symbols.map { "&symbols=" + $0.joined(separator: ",") } ?? "")
        let answer = try await client.request(target)
        try #require(answer.status == .ok, "\(target): \(answer.text)")
        let day = try #require(answer.json["date"] as? String)
        let codes = try #require(answer.json["rates"] as? [String: Any]).keys
        var records = try codes.map { code in
            Record(date: day, base: base, quote: code, rate: try #require(answer.decimalText("rates", code)))
        }
        // /v1 lists the base only when asked for by name (at 1); v2 always has it.
        if symbols?.contains(base) ?? true, !codes.contains(base) { records.append(Record(date: day, base: base, quote: base, rate: "1")) }
        return records.sorted { $0.quote < $1.quote }
    }

    @Test("a date's records are /v1/rates/{date}'s values for the same base, one per pair, the base itself at 1, by quote; a weekend is Friday's")
    func oneDate() async throws {
        try await withSeededServer { client in
            for base in ["EUR", "USD", "JPY"] {
                let answer = try await client.request("/v2/rates?date=2025-06-13&base=\(base)")
                #expect(answer.status == .ok && answer.headers[.contentType] == "application/json")
                let records = try Self.records(answer)
                #expect(records.count > 30)
                #expect(records == (try await Self.v1Records(client, date: "2025-06-13", base: base)))
            }
            // Lower-case codes, and a Sunday: the Friday's publication, under its own date.
            let sunday = try Self.records(try await client.request("/v2/rates?date=2025-06-15&base=usd&quotes=jpy,eur,usd"))
            #expect(sunday == (try await Self.v1Records(client, date: "2025-06-13", base: "USD", symbols: ["EUR", "JPY", "USD"])))
            #expect(sunday.map(\.quote) == ["EUR", "JPY", "USD"])
            // The ECB's own figure, byte for byte.
            let dollar = try Self.records(try await client.request("/v2/rates?date=2025-06-13&quotes=USD"))
            let published = try await client.request("/v1/rates/2025-06-13?symbols=USD")
            #expect(dollar == [Record(date: "2025-06-13", base: "EUR", quote: "USD", rate: try #require(published.decimalText("rates", "USD")))])
        }
    }

    @Test("without a date the newest publication; before the first publication no records; a base without a rate that day no records")
    func latestAndEmpty() async throws {
        try await withSeededServer { client in
            let latest = try Self.records(try await client.request("/v2/rates?base=GBP"))
            #expect(latest == (try await Self.v1Records(client, date: nil, base: "GBP")))
            #expect(latest.first?.date == "2026-10-30")
            for target in ["/v2/rates?date=1998-12-31", "/v2/rates?date=2025-06-13&base=RUB", "/v2/rates?from=1990-01-01&to=1998-01-01"] {
                let empty = try await client.request(target)
                #expect(empty.status == .ok && empty.text == "[]", "\(target): \(empty.text)")
            }
            // RUB until the ECB stopped publishing it (2022-03-01).
            let rouble = try Self.records(try await client.request("/v2/rates?from=2022-02-25&to=2022-03-04&base=RUB&quotes=EUR"))
            #expect(rouble.map(\.date) == ["2022-02-25", "2022-02-28", "2022-03-01"])
        }
    }

    @Test("a range is each publication in it (a weekend start starts on Monday), by date then quote, each day /v1's values")
    func range() async throws {
        try await withSeededServer { client in
            let records = try Self.records(try await client.request("/v2/rates?from=2025-06-14&to=2025-06-20&base=USD&quotes=JPY,EUR,GBP"))
            let dates = ["2025-06-16", "2025-06-17", "2025-06-18", "2025-06-19", "2025-06-20"]
            #expect(records.map(\.date) == dates.flatMap { Array(repeating: $0, count: 3) })
            var expected: [Record] = []
            for date in dates { expected += try await Self.v1Records(client, date: date, base: "USD", symbols: ["EUR", "GBP", "JPY"]) }
            #expect(records == expected)
            // `to` after today ends today; `from` after `to` gives nothing.
            let open = try Self.records(try await client.request("/v2/rates?from=2026-10-26&to=2027-01-01&quotes=USD"))
            #expect(open.map(\.date) == ["2026-10-26", "2026-10-27", "2026-10-28", "2026-10-29", "2026-10-30"])
            #expect(try await client.request("/v2/rates?from=2025-06-20&to=2025-06-13").text == "[]")
        }
    }

    @Test("group=week|month answers each period's mean of the daily values /v1 serves, dated the week's Monday or the month's first day, rounded once to 8 digits")
    func grouping() async throws {
        try await withSeededServer { client in
            // June 2025: weeks from Mondays 2, 9, 16, 23, and Monday the 30th alone in the range.
            let weeks = try Self.records(try await client.request("/v2/rates?from=2025-06-01&to=2025-06-30&group=week&quotes=USD"))
            #expect(weeks.map(\.date) == ["2025-06-02", "2025-06-09", "2025-06-16", "2025-06-23", "2025-06-30"])
            let months = try Self.records(try await client.request("/v2/rates?from=2025-01-15&to=2025-06-30&group=month&base=USD&quotes=JPY"))
            #expect(months.map(\.date) == ["2025-01-01", "2025-02-01", "2025-03-01", "2025-04-01", "2025-05-01", "2025-06-01"])
            // Each is the mean of /v1's values on the period's days within the range.
            func mean(_ record: Record, through last: String, of days: (String) -> Bool) async throws -> String {
                let series = try await client.request("/v1/timeseries?start=\(record.date)&end=\(last)&base=\(record.base)&symbols=\(record.quote)")
                let served = try #require(series.json["rates"] as? [String: Any]).keys.filter(days).sorted()
                let values = try served.map { day in try #require(series.decimalText("rates", day, record.quote).flatMap(ExactDecimal.init)) }
                return try #require(ExactDecimal.mean(of: values)).description
            }
            for record in weeks {
                let sunday = try #require(Day(record.date)).adding(days: 6).description
                #expect(record.rate == (try await mean(record, through: min(sunday, "2025-06-30")) { $0 >= record.date && $0 <= sunday }))
            }
            for record in months {
                let month = record.date.prefix(7)
                #expect(record.rate == (try await mean(record, through: "2025-06-30") { $0.hasPrefix(month) && $0 >= "2025-01-15" }))
            }
            #expect(weeks[0].rate != (try await Self.v1Records(client, date: "2025-06-06", base: "EUR", symbols: ["USD"]))[0].rate, "a mean, not the last day's value")
            // A mean is a computed value: 8 significant digits at most.
            #expect(months.allSatisfy { $0.rate.filter(\.isNumber).drop { $0 == "0" }.count <= 8 })
            // expand=providers says how many days each mean is of, and whose figures they were.
            let expanded = try await client.request("/v2/rates?from=2025-06-01&to=2025-06-30&group=week&quotes=USD&expand=providers")
            let first = try #require((try JSONSerialization.jsonObject(with: Data(expanded.body.readableBytesView)) as? [[String: Any]])?.first)
            #expect(first["days"] as? Int == 5)
            #expect((first["providers"] as? [[String: Any]])?.map { [$0["key"] as? String, ($0["days"] as? Int).map(String.init)] } == [["ECB", "5"]])
            // A single date ignores group, as v2 does.
            let day = try Self.records(try await client.request("/v2/rates?date=2025-06-13&group=month&quotes=USD"))
            #expect(day.map(\.date) == ["2025-06-13"])
        }
    }

    @Test("/v2/rates.csv is the JSON answer's records as CSV under a date,base,quote,rate header, text/csv, prepared like the JSON")
    func csv() async throws {
        try await withSeededServer { client in
            for query in ["from=2025-06-02&to=2025-06-13&base=USD", "date=2025-06-13&quotes=USD,JPY", "from=2024-01-01&to=2025-06-30&group=month&base=CHF"] {
                let csv = try await client.request("/v2/rates.csv?" + query)
                #expect(csv.status == .ok && csv.headers[.contentType] == "text/csv; charset=utf-8", "\(query): \(csv.text.prefix(200))")
                let json = try await client.request("/v2/rates?" + query)
                let records = try Self.csvRecords(csv)
                let jsonRecords = try Self.records(json)
                #expect(!records.isEmpty && records == jsonRecords, "\(query)")
                let etag = try #require(csv.headers[.eTag])
                let again = try await client.request("/v2/rates.csv?" + query, headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified && again.body.readableBytes == 0)
            }
            let nothing = try await client.request("/v2/rates.csv?date=1990-01-01")
            #expect(nothing.status == .ok && nothing.text == "date,base,quote,rate\n")
            let invalid = try await client.request("/v2/rates.csv?group=day&from=2025-01-01")
            #expect(invalid.status == .unprocessableContent && invalid.headers[.contentType] == "application/json")
        }
    }

    @Test("/v2/rate/{base}/{quote} is that pair's record of /v2/rates, in any letter case; none is a 404 in v2's shape")
    func onePair() async throws {
        try await withSeededServer { client in
            let pair = try await client.request("/v2/rate/usd/JPY?date=2025-06-14")
            #expect(pair.status == .ok && pair.headers[.contentType] == "application/json")
            #expect(pair.text == #"{"date":"2025-06-13","base":"USD","quote":"JPY","rate":\#(try #require(try await client.request("/v1/rates/2025-06-13?base=USD&symbols=JPY").decimalText("rates", "JPY")))}"#)
            let latest = try await client.request("/v2/rate/EUR/USD")
            let newest = try await client.request("/v1/latest?symbols=USD")
            #expect(latest.json["date"] as? String == "2026-10-30" && latest.decimalText("rate") == newest.decimalText("rates", "USD"))
            let same = try await client.request("/v2/rate/GBP/GBP?date=2025-06-13")
            #expect(same.decimalText("rate") == "1")

            let none = try await client.request("/v2/rate/EUR/RUB?date=2025-06-13")
            #expect(none.status == .notFound && none.text == #"{"status":404,"message":"not found"}"#)
            for target in ["/v2/rate/EUR/XYZ", "/v2/rate/EU/USD", "/v2/rate/EUR/USD?from=2025-01-01", "/v2/rate/EUR/USD?date=2025-13-01"] {
                let invalid = try await client.request(target)
                #expect(invalid.status == .unprocessableContent, "\(target): \(invalid.text)")
                #expect(invalid.json.keys.sorted() == ["message", "status"] && invalid.json["status"] as? Int == 422, "\(target): \(invalid.text)")
            }
        }
    }

    @Test("/v2/currencies lists the newest publication's currencies (scope=all: every one ever published) with their dates, ISO numbers, symbols and providers")
    func currencies() async throws {
        try await withSeededServer { client in
            let active = try #require(try JSONSerialization.jsonObject(with: Data(try await client.request("/v2/currencies").body.readableBytesView)) as? [[String: Any]])
            let all = try #require(try JSONSerialization.jsonObject(with: Data(try await client.request("/v2/currencies?scope=all").body.readableBytesView)) as? [[String: Any]])
            let codes = active.compactMap { $0["iso_code"] as? String }
            let newest = try #require(try await client.request("/v1/latest").json["rates"] as? [String: Any]).keys
            #expect(codes == (Array(newest) + ["EUR"]).sorted())
            #expect(!codes.contains("RUB") && all.contains { $0["iso_code"] as? String == "RUB" })
            #expect(Set(codes).isSubset(of: all.compactMap { $0["iso_code"] as? String }))
            let names = try await client.request("/v1/currencies").json
            let dollar = try #require(active.first { $0["iso_code"] as? String == "USD" })
            #expect(dollar["iso_numeric"] as? String == "840" && dollar["name"] as? String == names["USD"] as? String && dollar["symbol"] as? String == "$")
            let symbols = Dictionary(uniqueKeysWithValues: all.compactMap { currency in (currency["iso_code"] as? String).map { ($0, currency["symbol"]) } })
            #expect(symbols["EUR"] as? String == "€" && symbols["JPY"] as? String == "¥" && symbols["PLN"] as? String == "zł")
            #expect(symbols["CHF"] is NSNull, "CHF is its own symbol")
            #expect(dollar["start_date"] as? String == "1999-01-04" && dollar["end_date"] as? String == "2026-10-30")
            #expect(dollar["providers"] as? [String] == ["ECB"])
            let rouble = try #require(all.first { $0["iso_code"] as? String == "RUB" })
            #expect(rouble["end_date"] as? String == "2022-03-01")

            let one = try await client.request("/v2/currency/usd")
            #expect(one.status == .ok && NSDictionary(dictionary: one.json).isEqual(to: dollar))
            let unknown = try await client.request("/v2/currency/XYZ")
            #expect(unknown.status == .notFound && unknown.text == #"{"status":404,"message":"not found"}"#)
            #expect(try await client.request("/v2/currencies?scope=every").status == .unprocessableContent)
            #expect(try await client.request("/v2/currencies?providers=0.5").status == .unprocessableContent)
            let pinned = try await client.request("/v2/currencies?providers=ecb")
            #expect(pinned.text == (try await client.request("/v2/currencies").text))
            #expect(try await client.request("/v2/currencies?providers=NBP").text == "[]")
        }
    }

    @Test("/v2/providers describes each provider holding rates in v2's shape, from the same holdings as /v1/providers")
    func providers() async throws {
        try await withSeededServer { client in
            let answer = try await client.request("/v2/providers")
            #expect(answer.status == .ok && answer.headers[.cacheControl] == "no-cache")
            let providers = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.readableBytesView)) as? [[String: Any]])
            #expect(providers.compactMap { $0["key"] as? String } == ["ECB"], "only the ECB holds rates here")
            let ecb = try #require(providers.first)
            let ours = try #require((try await client.request("/v1/providers/ECB")).json as [String: Any]?)
            #expect(ecb["name"] as? String == ours["name"] as? String && ecb["pivot_currency"] as? String == "EUR" && ecb["country_code"] as? String == "EU")
            #expect(ecb["start_date"] as? String == ours["firstDate"] as? String && ecb["end_date"] as? String == "2026-10-30")
            #expect(ecb["currencies"] as? [String] == ours["currencies"] as? [String] && ecb["publish_cadence"] as? String == "daily")
            let etag = try #require(answer.headers[.eTag])
            #expect(try await client.request("/v2/providers", headers: [.ifNoneMatch: etag]).status == .notModified)
        }
    }

    @Test("providers= pins the records: ECB alone gives the merged (ECB) records, an unknown key none, in any letter case")
    func providersPin() async throws {
        try await withSeededServer { client in
            let merged = try await client.request("/v2/rates?date=2025-06-13&base=USD")
            for keys in ["ECB", "ecb", "ECB,XYZ"] {
                let pinned = try await client.request("/v2/rates?date=2025-06-13&base=USD&providers=\(keys)")
                #expect(pinned.status == .ok && pinned.text == merged.text, "\(keys)")
            }
            let range = try await client.request("/v2/rates?from=2025-06-02&to=2025-06-13&quotes=USD&providers=ECB")
            #expect(try Self.records(range).map(\.date).count == 10)
            #expect(try await client.request("/v2/rates?date=2025-06-13&providers=XYZ").text == "[]")
            #expect(try await client.request("/v2/rate/EUR/USD?providers=NBP").status == .notFound)
        }
    }

    @Test("providers= pins to those providers' own figures: the Bank of Russia alone gives its RUB per USD")
    func providersPinSecondProvider() async throws {
        try await ProviderAnswersTests.withServer { client in
            let russia = try Self.records(try await client.request("/v2/rates?date=2026-04-25&providers=CBR&base=USD&quotes=RUB"))
            #expect(russia == [Record(date: "2026-04-25", base: "USD", quote: "RUB", rate: "75.5273")])
            let merged = try Self.records(try await client.request("/v2/rates?date=2026-04-25&base=USD&quotes=RUB"))
            #expect(merged == (try await Self.v1Records(client, date: "2026-04-25", base: "USD", symbols: ["RUB"])))
            #expect(merged.first?.rate != "75.5273", "the merged USD is the ECB's")
            let pair = try await client.request("/v2/rate/USD/RUB?date=2026-04-25&providers=cbr")
            #expect(pair.decimalText("rate") == "75.5273")
        }
    }

    @Test("input v2 cannot use is 422 {status, message} as application/json; nothing is 5xx")
    func errors() async throws {
        try await withSeededServer { client in
            let targets = [
                "/v2/rates?date=2025-02-30", "/v2/rates?date=yesterday", "/v2/rates?date=2025-06-13&from=2025-06-01", "/v2/rates?to=2025-06-01&date=2025-06-13",
                "/v2/rates?from=2025-01-01&group=day", "/v2/rates?base=XYZ", "/v2/rates?base=US", "/v2/rates?quotes=USD,XX1", "/v2/rates?quotes=",
                "/v2/rates?base=", "/v2/rates?amount=10", "/v2/rates?symbols=USD", "/v2/rates?base=USD&base=EUR", "/v2/rates?providers=,", "/v2/rates?providers=0.5",
                "/v2/rates?expand=sources", "/v2/rates.csv?date=x",
            ]
            for target in targets {
                let answer = try await client.request(target)
                #expect(answer.status == .unprocessableContent, "\(target): \(answer.status) \(answer.text)")
                #expect(answer.headers[.contentType] == "application/json", "\(target)")
                #expect(answer.json.keys.sorted() == ["message", "status"] && answer.json["status"] as? Int == 422, "\(target): \(answer.text)")
                #expect(!(answer.json["message"] as? String ?? "").isEmpty)
            }
            let unknown = try await client.request("/v2/rates?amount=10&foo=1")
            #expect(unknown.json["message"] as? String == "unknown parameter: amount, foo")
            // A path no v2 route takes stays our 404 problem.
            let nowhere = try await client.request("/v2/nowhere")
            #expect(nowhere.status == .notFound && nowhere.headers[.contentType] == "application/problem+json")
        }
    }

    @Test("v2 answers are prepared answers: ETag, 304, gzip, the same bytes from the fast path and the application")
    func prepared() async throws {
        try await withSeededServer { client in
            for target in ["/v2/rates?date=2025-06-13", "/v2/rates?from=2024-01-01&to=2025-06-30&base=USD", "/v2/rate/EUR/USD", "/v2/currency/JPY", "/v2/currencies?scope=all"] {
                let first = try await client.request(target)
                let second = try await client.request(target)
                #expect(first.status == .ok && first.text == second.text, "\(target)")
                let etag = try #require(first.headers[.eTag])
                #expect(first.headers[.cacheControl]?.hasPrefix("public, max-age=") == true)
                #expect(try await client.request(target, headers: [.ifNoneMatch: etag]).status == .notModified, "\(target)")
                if first.body.readableBytes >= 512 {
                    let gzipped = try await client.request(target, headers: [.acceptEncoding: "gzip"])
                    #expect(gzipped.headers[.contentEncoding] == "gzip", "\(target)")
                }
            }
        }
    }

    @Test("every v2 answer, errors included, follows openapi.yaml")
    func contract() async throws {
        let contract = try OpenAPIContract.repository()
        try await withSeededServer { client in
            for target in [
                "/v2/rates", "/v2/rates?date=2025-06-13&base=usd&quotes=JPY,eur", "/v2/rates?from=2025-06-01&to=2025-06-30&group=week",
                "/v2/rates?date=1990-01-01", "/v2/rates?base=XYZ", "/v2/rates.csv?date=2025-06-13", "/v2/rates.csv?group=x",
                "/v2/rate/EUR/USD", "/v2/rate/EUR/RUB", "/v2/rate/EUR/XYZ", "/v2/currencies", "/v2/currencies?scope=all", "/v2/currencies?scope=x",
                "/v2/currency/USD", "/v2/currency/XYZ", "/v2/providers",
            ] {
                let answer = try await client.request(target)
                #expect(answer.status.code < 500, "\(target)")
                let violations = contract.violations(
                    method: "GET", path: target, status: Int(answer.status.code), contentType: answer.headers[.contentType],
                    body: Array(answer.body.readableBytesView))
                #expect(violations.isEmpty, "\(target) → \(answer.status.code): \(violations)")
            }
        }
    }
}
