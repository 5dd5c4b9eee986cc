import Foundation
import Hummingbird
import HummingbirdTesting
import RatesCore
import RatesServer
import RatesStore
import RatesTestSupport
import Testing

/// What a careless or hostile client can send to every /v1 endpoint with parameters, and what it must get back:
/// a 4xx `application/problem+json` whose `detail` names the problem, never a 5xx, and a server that keeps answering.
/// (ErrorResponseTests covers the everyday mistakes; this suite covers the odd and the malicious.)
@Suite("Hostile input")
struct HostileInputTests {
    /// One request and the problem it must get: status, problem type, the parameter named, and text the detail must contain.
    struct Case: CustomTestStringConvertible, Sendable {
        let uri: String
        let status: Int
        let type: String
        let parameter: String?
        let detailMentions: String

        init(_ uri: String, _ status: Int, _ type: String, _ parameter: String?, mentions: String? = nil) {
            self.uri = uri
            self.status = status
            self.type = type
            self.parameter = parameter
            self.detailMentions = mentions ?? parameter.map { "'\($0)'" } ?? ""
        }

        var testDescription: String { uri.count > 80 ? "\(uri.prefix(77))..." : uri }
    }

    /// Checks that `response` is the problem `expected` describes.
    static func expectProblem(_ response: TestResponse, _ expected: Case) {
        let label = Comment(rawValue: expected.testDescription)
        #expect(Int(response.status.code) == expected.status, label)
        #expect(response.headers[.contentType] == "application/problem+json", label)
        let problem = response.json
        #expect(problem["type"] as? String == "urn:rates-relay:problem:\(expected.type)", label)
        #expect(problem["status"] as? Int == expected.status, label)
        #expect(problem["parameter"] as? String == expected.parameter, label)
        let detail = problem["detail"] as? String ?? ""
        #expect(detail.contains(expected.detailMentions), "\(label): detail '\(detail)'")
        #expect(detail.count < 300, "\(label): the detail quotes at most a short prefix of the input")
    }

    /// Sends each case to one server, then checks that the server still answers.
    static func expectProblems(_ cases: [Case]) async throws {
        try await withSeededServer { client in
            for expected in cases {
                expectProblem(try await client.request(expected.uri), expected)
            }
            #expect(try await client.request("/v1/latest?symbols=USD").status == .ok, "still answering afterwards")
        }
    }

    // MARK: Long and odd query strings

    @Test("a request target of exactly 2,048 bytes is served, one byte more is 414 problem+json, and the server keeps answering")
    func uriLengthLimit() async throws {
        let prefix = "/v1/latest?symbols=USD&padding="
        let atLimit = prefix + String(repeating: "x", count: 2048 - prefix.utf8.count)
        #expect(atLimit.utf8.count == 2048)
        try await withSeededServer { client in
            #expect(try await client.request(atLimit).status == .ok)
            for uri in [atLimit + "x", "/v1/timeseries?start=2024-01-01&end=2024-02-01&symbols=" + String(repeating: "USD,", count: 600),
                        "/v1/rates/" + String(repeating: "2024-01-02", count: 300)] {
                let response = try await client.request(uri)
                Self.expectProblem(response, Case(uri, 414, "uri-too-long", nil, mentions: "2048 bytes"))
            }
            #expect(try await client.request("/v1/latest?symbols=USD").status == .ok, "still answering afterwards")
        }
    }

    static let oddQueries: [Case] = [
        Case("/v1/latest?base=" + String(repeating: "A", count: 1900), 400, "invalid-parameter", "base"),
        Case("/v1/latest?symbols=" + String(repeating: ",", count: 1000), 400, "invalid-parameter", "symbols"),
        Case("/v1/latest?symbols=USD;GBP", 400, "invalid-parameter", "symbols"),
        Case("/v1/latest?symbols=USD%20GBP", 400, "invalid-parameter", "symbols"),
        Case("/v1/latest?base=%20USD", 400, "invalid-parameter", "base"),
        Case("/v1/convert?from=USD&to=GBP&amount=" + String(repeating: "9", count: 1500), 400, "invalid-parameter", "amount"),
        Case("/v1/timeseries?start=" + String(repeating: "2024-01-01", count: 100) + "&end=2024-02-01", 400, "invalid-parameter", "start"),
        Case("/v1/sync?from=" + String(repeating: "9", count: 1500), 400, "invalid-parameter", "from"),
    ]

    @Test("long or oddly shaped values of real parameters get 400 naming the parameter", arguments: oddQueries)
    func oddQueryValues(_ bad: Case) async throws {
        try await Self.expectProblems([bad])
    }

    // MARK: Repeated parameters

    /// Decision (README): a parameter given twice is 400, even with the same value; the server never silently picks one.
    static let repeated: [Case] = [
        Case("/v1/latest?base=USD&base=USD", 400, "invalid-parameter", "base", mentions: "given 2 times"),
        Case("/v1/latest?symbols=USD&symbols=GBP&symbols=JPY", 400, "invalid-parameter", "symbols", mentions: "given 3 times"),
        Case("/v1/latest?amount=1&amount=2", 400, "invalid-parameter", "amount", mentions: "given 2 times"),
        Case("/v1/latest?base=&base=USD", 400, "invalid-parameter", "base", mentions: "given 2 times"),
        Case("/v1/rates/2024-01-02?base=GBP&base=USD", 400, "invalid-parameter", "base", mentions: "given 2 times"),
        Case("/v1/timeseries?start=2024-01-01&start=2024-01-02&end=2024-02-01", 400, "invalid-parameter", "start", mentions: "given 2 times"),
        Case("/v1/timeseries?start=2024-01-01&end=2024-02-01&end=2024-03-01", 400, "invalid-parameter", "end", mentions: "given 2 times"),
        Case("/v1/convert?from=USD&from=GBP&to=JPY", 400, "invalid-parameter", "from", mentions: "given 2 times"),
        Case("/v1/convert?from=USD&to=GBP&to=JPY", 400, "invalid-parameter", "to", mentions: "given 2 times"),
        Case("/v1/convert?from=USD&to=GBP&date=2024-01-02&date=2024-01-03", 400, "invalid-parameter", "date", mentions: "given 2 times"),
        Case("/v1/sync?from=2026-10-01&from=2026-10-02", 400, "invalid-parameter", "from", mentions: "given 2 times"),
        Case("/v1/sync?cursor=abc&cursor=def", 400, "invalid-parameter", "cursor", mentions: "given 2 times"),
    ]

    @Test("a parameter given more than once gets 400 saying how often, on every endpoint", arguments: repeated)
    func repeatedParameters(_ bad: Case) async throws {
        try await Self.expectProblems([bad])
    }

    // MARK: Percent-encoded garbage

    static let percentGarbage: [Case] = [
        Case("/v1/latest?base=%ZZ", 400, "invalid-parameter", "base"),
        Case("/v1/latest?base=%00", 400, "invalid-parameter", "base"),
        Case("/v1/latest?base=US%00", 400, "invalid-parameter", "base"),
        Case("/v1/latest?base=%C3%28", 400, "invalid-parameter", "base"),
        Case("/v1/latest?symbols=USD,%FF", 400, "invalid-parameter", "symbols"),
        Case("/v1/latest?amount=%FF%FE", 400, "invalid-parameter", "amount"),
        Case("/v1/rates/2024-01-02?symbols=%E2%82%AC", 400, "invalid-parameter", "symbols"),
        Case("/v1/rates/2024-01-0%", 400, "invalid-parameter", "date"),
        Case("/v1/rates/%C3%28", 400, "invalid-parameter", "date"),
        Case("/v1/timeseries?start=%ZZ&end=2024-02-01", 400, "invalid-parameter", "start"),
        Case("/v1/timeseries?start=2024-01-01&end=2024-02-0%00", 400, "invalid-parameter", "end"),
        Case("/v1/convert?from=%25&to=USD", 400, "invalid-parameter", "from"),
        Case("/v1/convert?from=USD&to=%C3%28", 400, "invalid-parameter", "to"),
        Case("/v1/convert?from=USD&to=GBP&date=%FF", 400, "invalid-parameter", "date"),
        Case("/v1/sync?from=%ZZ", 400, "invalid-parameter", "from"),
        Case("/v1/sync?cursor=%FF%FE", 400, "invalid-parameter", "cursor"),
        Case("/v1/sync?cursor=%00", 400, "invalid-parameter", "cursor"),
    ]

    @Test("percent-encoded garbage (%ZZ, %00, invalid UTF-8) in a parameter gets 400 naming it", arguments: percentGarbage)
    func percentEncodedGarbage(_ bad: Case) async throws {
        try await Self.expectProblems([bad])
    }

    // MARK: Unknown parameters

    @Test("unknown parameters, even garbled ones, are ignored as the README says: the answer is the one without them")
    func unknownParametersIgnored() async throws {
        try await withSeededServer { client in
            let pairs = [
                ("/v1/latest?symbols=USD", "/v1/latest?symbols=USD&access_key=abc&callback=x"),
                ("/v1/latest", "/v1/latest?Base=USD&BASE=GBP"),
                ("/v1/rates/2024-01-02", "/v1/rates/2024-01-02?places=2&%ZZ=%FF"),
                ("/v1/timeseries?start=2024-01-01&end=2024-01-10", "/v1/timeseries?start=2024-01-01&end=2024-01-10&base_currency=USD"),
                ("/v1/convert?from=USD&to=GBP", "/v1/convert?from=USD&to=GBP&q=1&q=2"),
                ("/v1/currencies", "/v1/currencies?lang=de&%00=%00"),
                ("/v1/status", "/v1/status?verbose=1"),
                ("/v1/sync?from=2026-10-01", "/v1/sync?from=2026-10-01&since=0"),
            ]
            for (plain, withExtras) in pairs {
                let expected = try await client.request(plain)
                let response = try await client.request(withExtras)
                #expect(response.status == .ok, "\(withExtras)")
                #expect(response.text == expected.text, "\(withExtras)")
            }
            #expect(try await client.request("/v1/latest?Base=USD").json["base"] as? String == "EUR", "names are case-sensitive")
        }
    }

    // MARK: Huge and odd amounts

    static let oddAmounts = ["1e400", String(repeating: "9", count: 400), "-0", "0x10", "1,5", "NaN", "Infinity", "-Infinity", "+5", " 5", "5.", ".5",
                             "0.000000001", "0.00000000", "1_000", "١٢"]

    @Test("a huge, signed, hexadecimal, localized or non-finite amount gets 400 naming 'amount', on every endpoint that takes one",
          arguments: oddAmounts)
    func oddAmount(_ amount: String) async throws {
        let encoded = amount.addingPercentEncoding(withAllowedCharacters: Self.unreserved)!
        try await Self.expectProblems([
            "/v1/latest?amount=", "/v1/rates/2024-01-02?amount=", "/v1/timeseries?start=2024-01-01&end=2024-01-10&amount=",
            "/v1/convert?from=USD&to=GBP&amount=",
        ].map { Case($0 + encoded, 400, "invalid-parameter", "amount") })
    }

    @Test("the largest amount the contract allows is converted exactly, not rounded through a Double")
    func largestAmountIsExact() async throws {
        try await withSeededServer { client in
            let response = try await client.request("/v1/convert?from=EUR&to=EUR&amount=999999999999999.99999999")
            #expect(response.status == .ok)
            #expect(response.decimalText("result") == "999999999999999.99999999")
        }
    }

    // MARK: Impossible, odd and out-of-range dates

    /// Characters left as they are when a test value is put into a URI (RFC 3986 unreserved).
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static let badDates: [(date: String, status: Int, type: String)] = [
        ("0000-00-00", 400, "invalid-parameter"),
        ("2024-02-30", 400, "invalid-parameter"),
        ("2023-02-29", 400, "invalid-parameter"),
        ("2024-13-01", 400, "invalid-parameter"),
        ("2024-1-1", 400, "invalid-parameter"),
        ("20240101", 400, "invalid-parameter"),
        ("2024-01-01T00:00:00Z", 400, "invalid-parameter"),
        ("-2024-01-01", 400, "invalid-parameter"),
        ("9999-12-31", 400, "date-in-future"),
        ("1998-12-31", 404, "date-before-data"),
    ]

    @Test("impossible, misformatted, future and pre-euro dates get the right 4xx on every date parameter",
          arguments: badDates.map(\.date))
    func badDate(_ date: String) async throws {
        let bad = try #require(Self.badDates.first { $0.date == date })
        let encoded = date.addingPercentEncoding(withAllowedCharacters: Self.unreserved)!
        // A date before the data is named with the first day there is; every other problem names the parameter.
        let mentions = bad.type == "date-before-data" ? "1999-01-04" : nil
        var cases = [
            Case("/v1/rates/\(encoded)", bad.status, bad.type, "date", mentions: mentions),
            Case("/v1/convert?from=USD&to=GBP&date=\(encoded)", bad.status, bad.type, "date", mentions: mentions),
            Case("/v1/timeseries?start=1990-01-01&end=\(encoded)", bad.status, bad.type, "end", mentions: mentions),
        ]
        switch bad.type {
        case "invalid-parameter":
            cases.append(Case("/v1/timeseries?start=\(encoded)&end=2024-01-10", 400, bad.type, "start"))
            cases.append(Case("/v1/sync?from=\(encoded)", 400, bad.type, "from"))
        case "date-in-future":
            // A future start is after any valid end: the range is what is wrong.
            cases.append(Case("/v1/timeseries?start=\(encoded)&end=2024-01-10", 400, "invalid-range", "start"))
            cases.append(Case("/v1/sync?from=\(encoded)", 400, bad.type, "from"))
        default:
            // A start before the data is served from the first day, and a sync `from` before it means "everything": not errors.
            break
        }
        try await Self.expectProblems(cases)
    }

    @Test("29 February is a real date in a leap year: the check for 2023-02-29 is the calendar, not a blanket rule")
    func leapDayServed() async throws {
        try await withSeededServer { client in
            let response = try await client.request("/v1/rates/2024-02-29?symbols=USD")
            #expect(response.status == .ok)
            #expect(response.json["date"] as? String == "2024-02-29")
        }
    }

    // MARK: Cursors that are not ours

    static let foreignCursors: [(name: String, cursor: String)] = [
        ("random base64url", "q83vEjRWeJCrze8SNFZ4kA"),
        ("garbage", "!!not*a~cursor"),
        ("very long", String(repeating: "A", count: 1500)),
        ("base64url of plain text", Data("hello, world".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")),
        ("right shape, epoch not hex", Data("1.c.zzzz.5.-.-".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")),
        ("right shape, negative sequence", Data("1.c.0123abcd.-5.-.-".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")),
        ("right shape, impossible day", Data("1.s.0123abcd.5.2024-02-30.-".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")),
        ("version 2", Data("2.c.0123abcd.5.-.-".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")),
    ]

    @Test("a cursor this server could not have issued gets 400 naming 'cursor' and telling the client to start over",
          arguments: foreignCursors.map(\.name))
    func foreignCursor(_ name: String) async throws {
        let cursor = try #require(Self.foreignCursors.first { $0.name == name }).cursor
        let encoded = cursor.addingPercentEncoding(withAllowedCharacters: Self.unreserved)!
        try await Self.expectProblems([Case("/v1/sync?cursor=\(encoded)", 400, "invalid-parameter", "cursor", mentions: "start over")])
    }

    @Test("a well-formed cursor from another epoch is not an error: the contract answers it with reset and a fresh snapshot")
    func otherEpochCursorResets() async throws {
        try await withSeededServer { client in
            let first = try await client.request("/v1/sync?from=2026-10-01")
            let epoch = try #require(first.json["epoch"] as? String)
            let other = SyncCursor(epoch: epoch == "0123abcd" ? "4567cdef" : "0123abcd", sequence: 1, from: nil, position: .changes)
            let response = try await client.request("/v1/sync?cursor=\(other.encoded)")
            #expect(response.status == .ok)
            #expect(response.json["reset"] as? Bool == true)
            #expect(response.json["epoch"] as? String == epoch)
            let empty = try await client.request("/v1/sync?cursor=&from=2026-10-01")
            #expect(empty.status == .ok && empty.text == first.text, "an empty cursor means none, as the contract says")
        }
    }

    // MARK: Admin without the right token

    /// Authorization headers that must not open the admin endpoint whose token is `test-token`.
    static let wrongCredentials: [(name: String, authorization: String?)] = [
        ("no header", nil),
        ("empty header", ""),
        ("wrong token", "Bearer wrong-token"),
        ("token in another case", "Bearer TEST-TOKEN"),
        ("token with a suffix", "Bearer test-token-and-more"),
        ("token prefix", "Bearer test-"),
        ("Basic with the token as user", "Basic " + Data("test-token:".utf8).base64EncodedString()),
        ("Basic with the raw token", "Basic test-token"),
        ("no scheme", "test-token"),
        ("scheme only", "Bearer"),
        ("two spaces", "Bearer  test-token"),
    ]

    @Test("the admin endpoint answers 401 problem+json with a challenge, and fetches nothing, without the exact bearer token",
          arguments: wrongCredentials.map(\.name))
    func adminRefusesWrongCredentials(_ name: String) async throws {
        let authorization = try #require(Self.wrongCredentials.first { $0.name == name }).authorization
        let upstream = FakeUpstream(publishedThrough: Day("2026-10-30")!)
        try await upstream.run { url in
            try await withSeededServer(configure: { $0.upstreamURL = url }) { client in
                var headers: HTTPFields = [:]
                if let authorization { headers[.authorization] = authorization }
                let response = try await client.request("/v1/admin/refresh", method: .post, headers: headers)
                #expect(response.status == .unauthorized)
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
                #expect(response.json["type"] as? String == "urn:rates-relay:problem:unauthorized")
                #expect((response.json["detail"] as? String)?.contains("Bearer") == true)
                let status = try await client.request("/v1/status")
                #expect(status.json["lastFetch"] is NSNull, "no fetch was recorded")
            }
        }
        #expect(upstream.requests.isEmpty, "the upstream was never asked")
    }

    @Test("with the exact token the same request does reach the upstream (so the refusals above are the token's doing)")
    func adminAcceptsRightToken() async throws {
        let upstream = FakeUpstream(publishedThrough: Day("2026-10-30")!)
        try await upstream.run { url in
            try await withSeededServer(configure: { $0.upstreamURL = url }) { client in
                let exact = try await client.refresh()
                #expect(exact.status == .ok)
                let lowercaseScheme = try await client.request("/v1/admin/refresh", method: .post, headers: [.authorization: "bearer test-token"])
                #expect(lowercaseScheme.status == .ok, "the scheme name is case-insensitive (RFC 9110), the token is not")
            }
        }
        #expect(!upstream.requests.isEmpty)
    }
}
