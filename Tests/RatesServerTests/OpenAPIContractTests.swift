import Foundation
import Testing

@Suite("OpenAPI contract checker")
struct OpenAPIContractTests {
    let contract: OpenAPIContract

    init() throws {
        contract = try OpenAPIContract.repository()
    }

    private static let latest = """
        {"amount": 1, "base": "USD", "date": "2026-10-30", "rates": {"EUR": 0.89509488, "GBP": 0.74633906, "JPY": 157.25}}
        """

    private static let problem = """
        {"type": "urn:rates-relay:problem:invalid-parameter", "title": "Invalid parameter", "status": 400,
         "detail": "'usd' is not a currency code: use three capital letters, such as USD.", "parameter": "base"}
        """

    private static let emptyStatus = """
        {"source": "ECB", "base": "EUR", "upstreamURL": "https://www.ecb.europa.eu/stats/eurofxref/", "epoch": "7f3a9c",
         "datasetVersion": 0, "firstDate": null, "latestDate": null, "days": 0, "expectedLatestDate": "2026-10-30",
         "stale": true, "dataOrigin": "empty", "lastFetch": null, "lastSuccessfulFetchAt": null, "nextFetchAt": null,
         "fetching": false, "refreshesWaiting": 0, "consensusExclusions": [], "replicaRole": "single"}
        """

    private func check(
        method: String = "GET", _ path: String, status: Int = 200, contentType: String? = "application/json",
        _ body: String
    ) -> [String] {
        contract.violations(method: method, path: path, status: status, contentType: contentType, body: Array(body.utf8))
    }

    /// `body` as a JSON object with `key` set to `value` (JSON text).
    private func replacing(_ key: String, with value: String, in body: String) throws -> String {
        var object = try #require(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        object[key] = try JSONSerialization.jsonObject(with: Data(value.utf8), options: [.fragmentsAllowed])
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    // MARK: - Conforming responses

    @Test("a conforming latest body passes")
    func conformingLatest() {
        #expect(check("/v1/latest", Self.latest) == [])
    }

    @Test("the query is ignored and media type parameters are ignored")
    func queryAndCharset() {
        #expect(check("/v1/latest?base=USD&symbols=EUR,GBP", contentType: "application/json; charset=utf-8", Self.latest) == [])
    }

    @Test("a problem+json body for 400 passes")
    func problemForBadRequest() {
        let found = check("/v1/latest?base=usd", status: 400, contentType: "application/problem+json; charset=utf-8", Self.problem)
        #expect(found == [])
    }

    @Test("a concrete date path matches its template, with requestedDate")
    func ratesOnDate() {
        let body = """
            {"amount": 1, "base": "EUR", "date": "2024-01-05", "requestedDate": "2024-01-06", "rates": {"USD": 1.0921}}
            """
        #expect(check("/v1/rates/2024-01-06", body) == [])
    }

    @Test("a timeseries keyed by date passes")
    func timeseries() {
        let body = """
            {"amount": 10, "base": "EUR", "start": "2026-10-29", "end": "2026-10-30",
             "rates": {"2026-10-29": {"USD": 11.13}, "2026-10-30": {"USD": 11.172}}}
            """
        #expect(check("/v1/timeseries?start=2026-10-29&end=2026-10-30&amount=10", body) == [])
    }

    @Test("a conversion passes")
    func conversion() {
        let body = """
            {"query": {"from": "USD", "to": "EUR", "amount": 10}, "info": {"rate": 0.89509488}, "historical": false,
             "date": "2026-10-30", "result": 8.9509488}
            """
        #expect(check("/v1/convert?from=USD&to=EUR&amount=10", body) == [])
    }

    @Test("a status with no data yet passes, and one with a fetch run does too")
    func status() throws {
        #expect(check("/v1/status", Self.emptyStatus) == [])
        let run = """
            {"startedAt": "2026-10-30T15:05:00Z", "finishedAt": "2026-10-30T15:05:01.250+01:00", "file": "eurofxref-daily.xml",
             "httpStatus": null, "outcome": "failed", "detail": "connection refused", "rowsChanged": 0}
            """
        #expect(check("/v1/status", try replacing("lastFetch", with: run, in: Self.emptyStatus)) == [])
    }

    @Test("304 and HEAD answers have no body")
    func bodiless() {
        #expect(check("/v1/latest", status: 304, contentType: nil, "") == [])
        #expect(check(method: "HEAD", "/v1/latest", contentType: "application/json", "") == [])
        #expect(check(method: "HEAD", "/v1/currencies", contentType: nil, "") == [])
        #expect(check("/v1/latest", status: 304, contentType: nil, Self.latest).count == 1)
        #expect(check(method: "HEAD", "/v1/latest", Self.latest).count == 1)
    }

    @Test("non-JSON media types are checked for their content type only")
    func nonJSON() {
        #expect(check("/openapi.yaml", contentType: "application/yaml", "openapi: 3.1.0\n") == [])
        #expect(check("/openapi.yaml", contentType: "application/json", "{}").count == 1)
    }

    @Test("admin refresh answers are checked for POST")
    func adminRefresh() {
        let body = """
            {"outcome": "failed", "latestDate": "2026-10-30", "rowsChanged": 0, "detail": "CBR: upstream answered HTTP 503",
             "providers": {"ECB": {"outcome": "notModified", "latestDate": "2026-10-30", "rowsChanged": 0, "detail": null},
                           "CBR": {"outcome": "failed", "latestDate": null, "rowsChanged": 0, "detail": "upstream answered HTTP 503"}}}
            """
        #expect(check(method: "POST", "/v1/admin/refresh", body) == [])
        #expect(check(method: "POST", "/v1/admin/refresh", body.replacingOccurrences(of: #""CBR": {"#, with: #""cbr": {"#)).count == 1)
        let unauthorized = """
            {"type": "urn:rates-relay:problem:unauthorized", "title": "Unauthorized", "status": 401, "detail": "Send the admin token."}
            """
        #expect(check(method: "POST", "/v1/admin/refresh", status: 401, contentType: "application/problem+json", unauthorized) == [])
        #expect(check(method: "GET", "/v1/admin/refresh", body).count == 1)
    }

    // MARK: - Violations

    @Test("a body missing rates fails")
    func missingRates() throws {
        let body = #"{"amount": 1, "base": "USD", "date": "2026-10-30"}"#
        #expect(check("/v1/latest", body) == [#"$: missing required property "rates""#])
    }

    @Test("a string where a number is required fails")
    func stringForNumber() throws {
        let body = try replacing("rates", with: #"{"USD": "1.1172"}"#, in: Self.latest)
        let found = check("/v1/latest", body)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("$.rates.USD: expected number") == true, "\(found)")
    }

    @Test("a boolean where a number is required fails")
    func booleanForNumber() throws {
        let body = try replacing("rates", with: #"{"USD": true, "JPY": false}"#, in: Self.latest)
        #expect(
            check("/v1/latest", body).sorted() == [
                "$.rates.JPY: expected number, got boolean false", "$.rates.USD: expected number, got boolean true",
            ])
        let amount = try replacing("amount", with: "true", in: Self.latest)
        #expect(check("/v1/latest", amount) == ["$.amount: expected number, got boolean true"])
    }

    @Test("the numbers 0 and 1 are numbers, never booleans")
    func zeroAndOneAreNumbers() throws {
        let ones = try replacing("rates", with: #"{"USD": 1, "GBP": 1.0}"#, in: Self.latest)
        #expect(check("/v1/latest", ones) == [])
        let fetching = try replacing("fetching", with: "1", in: Self.emptyStatus)
        #expect(check("/v1/status", fetching) == ["$.fetching: expected boolean, got number 1"])
        let days = try replacing("days", with: "true", in: Self.emptyStatus)
        #expect(check("/v1/status", days) == ["$.days: expected integer, got boolean true"])
        let fraction = try replacing("days", with: "1.5", in: Self.emptyStatus)
        #expect(check("/v1/status", fraction) == ["$.days: expected integer, got number 1.5"])
    }

    @Test("an undocumented status fails")
    func undocumentedStatus() {
        let found = check("/v1/latest", status: 418, contentType: "application/problem+json", Self.problem)
        #expect(found.count == 1)
        #expect(found.first?.contains("status 418 is not documented") == true, "\(found)")
        #expect(check("/v1/status", status: 503, contentType: "application/problem+json", Self.problem).count == 1)
    }

    @Test("a wrong content type fails")
    func wrongContentType() {
        let found = check("/v1/latest", contentType: "text/plain; charset=utf-8", Self.latest)
        #expect(found.count == 1)
        #expect(found.first?.contains("Content-Type text/plain is not documented") == true, "\(found)")
        #expect(check("/v1/latest", status: 400, contentType: "application/json", Self.problem).count == 1)
        #expect(check("/v1/latest", contentType: nil, Self.latest).count == 1)
    }

    @Test("an unknown path fails")
    func unknownPath() {
        #expect(check("/v1/nope", Self.latest) == ["no path in openapi.yaml matches /v1/nope"])
        #expect(check("/v1/no-such-endpoint", Self.latest).count == 1)
        #expect(check("/v1/rates/", Self.latest).count == 1)
        #expect(check("/v1/latest/extra", Self.latest).count == 1)
    }

    @Test("an undocumented property, a malformed code or date, and a non-positive rate fail")
    func shapes() throws {
        #expect(check("/v1/latest", try replacing("extra", with: "1", in: Self.latest)) == [#"$.extra: property "extra" is not documented"#])
        let lowercase = try replacing("rates", with: #"{"usd": 1.1}"#, in: Self.latest)
        #expect(check("/v1/latest", lowercase) == [#"$.rates.usd: "usd" does not match ^[A-Z]{3}$ (property name)"#])
        let impossibleDate = try replacing("date", with: #""2026-02-30""#, in: Self.latest)
        #expect(check("/v1/latest", impossibleDate) == [#"$.date: "2026-02-30" is not a date (YYYY-MM-DD)"#])
        let zero = try replacing("rates", with: #"{"USD": 0}"#, in: Self.latest)
        #expect(check("/v1/latest", zero) == ["$.rates.USD: 0 is not greater than 0"])
        let badBase = try replacing("base", with: #""US""#, in: Self.latest)
        #expect(check("/v1/latest", badBase) == [#"$.base: "US" does not match ^[A-Z]{3}$"#])
    }

    @Test("a timeseries keyed by something other than dates fails")
    func timeseriesKeys() {
        let body = """
            {"amount": 1, "base": "EUR", "start": "2026-10-29", "end": "2026-10-30", "rates": {"yesterday": {"USD": "1.1"}}}
            """
        #expect(
            check("/v1/timeseries?start=2026-10-29", body).sorted() == [
                #"$.rates.yesterday.USD: expected number, got string "1.1""#,
                #"$.rates.yesterday: "yesterday" does not match ^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$ (property name)"#,
                #"$.rates.yesterday: "yesterday" is not a date (YYYY-MM-DD) (property name)"#,
            ])
    }

    @Test("enums, nullable types and oneOf are enforced")
    func enumsAndNullables() throws {
        let origin = try replacing("dataOrigin", with: #""cache""#, in: Self.emptyStatus)
        #expect(check("/v1/status", origin) == [#"$.dataOrigin: string "cache" is not one of "empty", "seed", "import", "upstream""#])
        let latest = try replacing("latestDate", with: "20261030", in: Self.emptyStatus)
        #expect(check("/v1/status", latest) == ["$.latestDate: expected string or null, got number 20261030"])
        let run = """
            {"startedAt": "2026-10-30 15:05", "finishedAt": "2026-10-30T15:05:01Z", "file": "x", "httpStatus": 200,
             "outcome": "updated", "detail": null, "rowsChanged": 1}
            """
        let found = check("/v1/status", try replacing("lastFetch", with: run, in: Self.emptyStatus))
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("$.lastFetch: matches none of oneOf") == true, "\(found)")
        #expect(found.first?.contains(#"$.lastFetch.startedAt: "2026-10-30 15:05" is not an RFC 3339 date-time"#) == true, "\(found)")
    }

    @Test("a problem whose type or status does not fit the response fails")
    func problemMismatch() throws {
        let notFound = try replacing("status", with: "404", in: Self.problem)
        #expect(check("/v1/latest", status: 400, contentType: "application/problem+json", notFound) == ["$.status: expected 400, got number 404"])
        let wrongType = check("/v1/latest", status: 404, contentType: "application/problem+json", notFound)
        #expect(
            wrongType == [
                #"$.type: string "urn:rates-relay:problem:invalid-parameter" is not one of "#
                    + #""urn:rates-relay:problem:unknown-currency", "urn:rates-relay:problem:date-before-data", "#
                    + #""urn:rates-relay:problem:not-found""#
            ])
        let missingDetail = #"{"type": "urn:rates-relay:problem:no-data", "title": "No data", "status": 503}"#
        #expect(check("/readyz", status: 503, contentType: "application/problem+json", missingDetail) == [#"$: missing required property "detail""#])
    }

    @Test("a body that is not JSON fails")
    func notJSON() {
        #expect(check("/healthz", "ok").count == 1)
        #expect(check("/healthz", "").count == 1)
        #expect(check("/healthz", #"{"status": "ok"}"#) == [])
    }
}
