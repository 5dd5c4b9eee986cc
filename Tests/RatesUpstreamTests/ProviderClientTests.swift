import AsyncHTTPClient
import Logging
import RatesCore
import RatesTestFixtures
@testable import RatesUpstream
import Testing

@Suite("Provider fetch over HTTP")
struct ProviderClientTests {
    /// One client for every test, configured as the server's.
    static let httpClient = ProviderClient.makeHTTPClient()
    static let logger = Logger(label: "test.provider-client")

    /// Runs `body` with a fake upstream serving `scenarios`' recorded answers.
    func withUpstream<Value: Sendable>(
        _ scenarios: [ProviderScenario], _ body: @Sendable (FakeProviderUpstream, String) async throws -> Value
    ) async throws -> Value {
        let upstream = FakeProviderUpstream()
        for scenario in scenarios { scenario.install(on: upstream) }
        return try await upstream.run { base in try await body(upstream, base) }
    }

    func client(_ provider: any RatesProvider, maxConcurrentRequests: Int = 4) -> ProviderClient {
        ProviderClient(provider: provider, httpClient: Self.httpClient, timeout: .seconds(120), maxConcurrentRequests: maxConcurrentRequests)
    }

    /// The error `fetch` throws, or `nil` when it succeeds.
    func fetchError(_ client: ProviderClient, _ window: FetchWindow = .latest, validators: ProviderValidators = ProviderValidators()) async -> UpstreamError? {
        do {
            _ = try await client.fetch(window, validators: validators, logger: Self.logger)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Fetching

    @Test("fetches the recorded answers through HTTP: the expected days and quote counts", arguments: ProviderScenario.checked)
    func fetchesRecordings(_ scenario: ProviderScenario) async throws {
        let result = try await withUpstream([scenario]) { upstream, base in
            let result = try await client(scenario.make(base)).fetch(scenario.fetchWindow, logger: Self.logger)
            #expect(!upstream.received.isEmpty)
            return result
        }
        let publications = try #require(result.publications)
        let days = try #require(scenario.days)
        #expect(publications.map(\.day.description) == days.keys.sorted())
        #expect(publications.map(\.quotes.count) == days.keys.sorted().map { days[$0]! })
    }

    @Test("NBP tables A and B and the gold price of one day combine into one publication of all their figures")
    func combinesNBPTables() async throws {
        let publications = try await withUpstream([.nbp]) { _, base in
            try await client(NBPProvider(baseURL: base + "/nbp")).fetch(.latest, logger: Self.logger).publications
        }
        let wednesday = try #require(publications?.first { $0.day == Day("2026-03-04") })
        #expect(wednesday.quotes.count == 32 + 116 + 1)
        #expect(Set(wednesday.quotes.map(\.currency)).count == 149)
        #expect(wednesday["USD"] != nil, "from table A")
        #expect(wednesday["AFN"] == quote("AFN", "0.056626"), "from table B")
        #expect(wednesday["XAU"] == quote("XAU", "19418.522635776"), "the gold price, per troy ounce")
    }

    @Test("a range keeps only its own days, though the answer holds more")
    func rangeKeepsItsDays() async throws {
        let publications = try await withUpstream([.nb]) { _, base in
            try await client(NBProvider(baseURL: base + "/nb")).fetch(.range(Day("2026-03-17")!, Day("2026-03-19")!), logger: Self.logger).publications
        }
        #expect(publications?.map(\.day.description) == ["2026-03-17", "2026-03-18", "2026-03-19"])
    }

    @Test("requests run at most maxConcurrentRequests at a time")
    func boundedConcurrency() async throws {
        let fred = ProviderScenario.named("FRED")
        let most = try await withUpstream([fred]) { upstream, base in
            // Held until 3 are in: the client has filled its places; the upstream counts how many it ever holds at once.
            upstream.hold()
            let client = client(try fred.make(base), maxConcurrentRequests: 3)
            async let fetched = client.fetch(.latest, logger: Self.logger)
            try await waitUntil("3 requests received") { upstream.received.count >= 3 }
            upstream.release()
            let publications = try await fetched.publications
            #expect(upstream.received.count == FREDProvider.series.count)
            #expect(publications?.isEmpty == false)
            return upstream.maxInFlight
        }
        #expect(most == 3, "never more than 3 requests in flight, and 3 while the upstream held them")
    }

    @Test("sources sharing permits are fetched at most that many at once; a hanging source leaves the others their places")
    func fetchPermits() async throws {
        let scenarios = [ProviderScenario.ecb, .named("CNB"), .tcmb]   // one request each
        try await withUpstream(scenarios) { upstream, base in
            let permits = FetchPermits(limit: 2)
            let clients = try scenarios.map {
                ProviderClient(provider: try $0.make(base), httpClient: Self.httpClient, timeout: .seconds(120), permits: permits)
            }
            upstream.hold()
            async let first = clients[0].fetch(.latest, logger: Self.logger)
            async let second = clients[1].fetch(.latest, logger: Self.logger)
            async let third = clients[2].fetch(.latest, logger: Self.logger)
            try await waitUntil("2 requests received and the third source waiting for a permit") {
                upstream.received.count >= 2 && permits.waiting == 1
            }
            #expect(upstream.received.count == 2, "the third source waits for a permit")
            #expect(permits.held == 2)
            upstream.release()
            let results = try await [first, second, third]
            #expect(results.allSatisfy { $0.publications?.isEmpty == false })
            #expect(upstream.received.count == 3)
            #expect(permits.held == 0)
        }

        // One source hangs; with a permit free, another is fetched meanwhile.
        let upstream = FakeProviderUpstream()
        ProviderScenario.cbr.install(on: upstream)
        upstream.serve("/ecb/eurofxref-daily.xml", .hang)
        try await upstream.run { base in
            let permits = FetchPermits(limit: 2)
            let hanging = ProviderClient(provider: ECBProvider(baseURL: base + "/ecb/"), httpClient: Self.httpClient, timeout: .seconds(120), permits: permits)
            let cbr = ProviderClient(provider: CBRProvider(baseURL: base + "/cbr"), httpClient: Self.httpClient, timeout: .seconds(120), permits: permits)
            async let hung = fetchError(hanging)
            try await waitUntil("the hanging request received") { upstream.received.count >= 1 }
            let fetched = try await cbr.fetch(.latest, logger: Self.logger)
            #expect(fetched.publications?.last?.quotes.count == 54, "fetched while the other source hangs")
            upstream.release()
            #expect(await hung != nil, "the hanging source fails when its answer is a 503")
        }
    }

    // MARK: - Conditional requests

    @Test("a second fetch with the first one's validators is answered 304: not modified")
    func notModified() async throws {
        try await withUpstream([.ecb, .nbp]) { upstream, base in
            for provider in [ECBProvider(baseURL: base + "/ecb/"), NBPProvider(baseURL: base + "/nbp")] as [any RatesProvider] {
                let client = client(provider)
                guard case .fetched(_, let validators) = try await client.fetch(.latest, logger: Self.logger) else {
                    Issue.record("the first fetch is not conditional")
                    return
                }
                #expect(validators.entries.count == provider.requests(for: .latest).count)
                let second = try await client.fetch(.latest, validators: validators, logger: Self.logger)
                #expect(second.publications == nil, "\(provider.key): not modified")
            }
            #expect(upstream.received.filter { $0.ifNoneMatch != nil }.count == 4, "the second fetches sent their ETags")
        }
    }

    @Test("when one answer changed and another did not, the unchanged one contributes what it said before")
    func partlyModified() async throws {
        try await withUpstream([.nbp]) { upstream, base in
            let client = client(NBPProvider(baseURL: base + "/nbp"))
            guard case .fetched(let first, let validators) = try await client.fetch(.latest, logger: Self.logger) else {
                Issue.record("the first fetch is not conditional")
                return
            }
            upstream.change("/nbp/tables/A/")
            let second = try await client.fetch(.latest, validators: validators, logger: Self.logger)
            #expect(second.publications == first, "table B and the gold price (304) still count on 2026-03-04")
            #expect(upstream.received.suffix(3).allSatisfy { $0.ifNoneMatch != nil }, "all three sent conditionally")
        }
    }

    @Test("a changed file is fetched again in full")
    func changedFile() async throws {
        try await withUpstream([.ecb]) { upstream, base in
            let client = client(ECBProvider(baseURL: base + "/ecb/"))
            guard case .fetched(_, let validators) = try await client.fetch(.latest, logger: Self.logger) else {
                Issue.record("the first fetch is not conditional")
                return
            }
            upstream.change()
            #expect(try await client.fetch(.latest, validators: validators, logger: Self.logger).publications?.count == 1)
        }
    }

    // MARK: - Failures

    @Test("a 500 on one request rejects the whole fetch")
    func serverErrorRejectsAll() async throws {
        let error = try await withUpstream([.nbp]) { upstream, base in
            upstream.serve("/nbp/tables/B/", .status(500))
            return await fetchError(client(NBPProvider(baseURL: base + "/nbp")))
        }
        #expect(error?.httpStatus == 500)
        guard case .httpStatus(500, _) = error else {
            Issue.record("expected HTTP 500, got \(String(describing: error))")
            return
        }
    }

    @Test("a malformed body in one answer rejects the whole fetch")
    func malformedBodyRejectsAll() async throws {
        let error = try await withUpstream([.nbp, .ecb]) { upstream, base in
            upstream.serve("/nbp/tables/B/", .body(#"[{"table":"B","no":"009/B/NBP/2026","effectiveDate":"2026-03-04","rates":[{"code":"AFN","mid":"x"}]}]"#))
            upstream.serve("/ecb/eurofxref-daily.xml", .body("<html><body>maintenance</body></html>"))
            return [
                await fetchError(client(NBPProvider(baseURL: base + "/nbp"))),
                await fetchError(client(ECBProvider(baseURL: base + "/ecb/"))),
            ]
        }
        for error in error {
            guard case .rejected(_, httpStatus: 200) = error else {
                Issue.record("expected a rejected body, got \(String(describing: error))")
                continue
            }
        }
    }

    @Test("a session answer without what the requests need rejects the fetch with a layout error that names the provider")
    func sessionLayoutErrorNamesProvider() async throws {
        let error = try await withUpstream([]) { upstream, base in
            upstream.serve("/cbsl/cbsl_custom/exrates/exrates.php", .body("<html><body><form></form></body></html>"))
            return await fetchError(client(CBSLProvider(baseURL: base + "/cbsl")))
        }
        guard case .rejected(let reason, httpStatus: 200) = error else {
            Issue.record("expected a rejected session answer, got \(String(describing: error))")
            return
        }
        #expect(reason.isLayout(of: "CBSL"), "\(reason)")
    }

    @Test("a 404 is no publication for TCMB's per-day files, and a failure for any other provider")
    func notFound() async throws {
        try await withUpstream([.tcmb, .cbr]) { upstream, base in
            upstream.serve("/tcmb/201603/15032016.xml", .fixture("tcmb-turkey/kurlar_today_2016-03-15.xml"))
            // 2016-03-14 is not served: 404, as for a holiday.
            let tcmb = try await client(TCMBProvider(baseURL: base + "/tcmb")).fetch(.range(Day("2016-03-14")!, Day("2016-03-15")!), logger: Self.logger)
            #expect(tcmb.publications?.map(\.day) == [Day("2016-03-15")!])
            #expect(upstream.requestCount("/tcmb/201603/") == 2)

            let holidaysOnly = try await client(TCMBProvider(baseURL: base + "/tcmb")).fetch(.range(Day("2016-03-10")!, Day("2016-03-11")!), logger: Self.logger)
            #expect(holidaysOnly.publications == [], "nothing published, nothing failed")

            upstream.serve("/cbr/scripts/XML_daily.asp", .status(404))
            guard case .httpStatus(404, _) = await fetchError(client(CBRProvider(baseURL: base + "/cbr"))) else {
                Issue.record("a CBR 404 must fail the fetch")
                return
            }
        }
    }

    @Test("a publication dated after tomorrow is rejected")
    func futureDay() async throws {
        let error = try await withUpstream([.ecb]) { _, base in
            let client = ProviderClient(provider: ECBProvider(baseURL: base + "/ecb/"), httpClient: Self.httpClient, today: { Day("2025-04-01")! })
            return await fetchError(client)
        }
        #expect(error.map { "\($0)" } == "upstream data rejected: day 2025-04-03 is out of range (before the source's first day, 1999-01-04 for most, or in the future)")
    }

    // MARK: - Combining

    @Test("the same quote in two answers counts once, trailing zeros or not; the same currency with another figure, unit or direction is a duplicate")
    func combine() throws {
        let day = Day("2026-03-04")!
        let usd = PublishedQuote(currency: CurrencyCode("USD")!, value: "3.6868", direction: .pivotPerUnits)
        let eur = PublishedQuote(currency: .euro, value: "4.2304", direction: .pivotPerUnits)
        let combined = try ProviderClient.combine([[ProviderPublication(day: day, quotes: [usd])], [ProviderPublication(day: day, quotes: [usd, eur])]])
        #expect(combined == [ProviderPublication(day: day, quotes: [usd, eur])])
        var zeros = usd
        zeros.value = "3.686800"
        #expect(try ProviderClient.combine([[ProviderPublication(day: day, quotes: [usd])], [ProviderPublication(day: day, quotes: [zeros])]])
            == [ProviderPublication(day: day, quotes: [usd])], "the first answer's text is kept")
        var other = usd
        other.value = "3.6869"
        var perHundred = usd
        perHundred.unit = 100
        var inverted = usd
        inverted.direction = .unitsPerPivot
        for differing in [other, perHundred, inverted] {
            #expect(throws: UpstreamDataError.duplicateCurrency(usd.currency, day: day)) {
                try ProviderClient.combine([[ProviderPublication(day: day, quotes: [usd])], [ProviderPublication(day: day, quotes: [differing])]])
            }
        }
    }

    // MARK: - Coverage

    @Test("every registry provider has recordings to fetch, and all of them through HTTP cover at least 150 distinct currencies")
    func coverage() async throws {
        let scenarios = ProviderScenario.all.values.sorted { $0.key < $1.key }
        #expect(Set(scenarios.map(\.key)) == Set(ProviderRegistry.keys), "a Tests/Fixtures/<bank>/scenario.json for every provider of the registry")
        let (quoted, pivots) = try await withUpstream(scenarios) { _, base in
            var quoted = Set<CurrencyCode>()
            var pivots = Set<CurrencyCode>()
            for scenario in scenarios {
                let provider = try scenario.make(base)
                let publications = try #require(try await client(provider).fetch(scenario.fetchWindow, logger: Self.logger).publications, "\(scenario.key)")
                #expect(!publications.isEmpty, "\(scenario.key)")
                quoted.formUnion(publications.flatMap { $0.quotes.map(\.currency) })
                pivots.insert(provider.pivot)
            }
            return (quoted, pivots)
        }
        let covered = quoted.union(pivots)
        print("provider coverage: \(quoted.count) currencies quoted, \(covered.count) with the pivots")
        #expect(covered.count >= 150)
    }
}
