import Foundation
import HTTPTypes
import HummingbirdTesting
import RatesCore
import RatesServer
import RatesStore
import RatesTestSupport
import Testing

@Suite("Importing a provider's own files: rates-relay import --provider", .serialized)
struct ProviderImportTests {
    /// Runs the built `rates-relay import` with `arguments` to its end: its exit status (`nil`: killed) and what it printed.
    static func runImport(_ arguments: [String]) async throws -> (status: Int32?, output: String) {
        let child = try Child.launch("rates-relay", ["import"] + arguments)
        let status = try await child.waitForExit(within: .seconds(120))
        return (status, child.output)
    }

    /// Imports `file` (under Tests/Fixtures) as `provider`'s into a seeded database, then each of
    /// `later` (paths) in an import of its own, then runs `body` with a server on it that fetches nothing.
    static func withImported(
        _ provider: String, _ file: String, then later: [String] = [], _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await TestServer.withSeededDatabase { database in
            for path in [Fixtures.url(file).path] + later {
                let run = try await runImport(["--provider", provider, path, "--db", database])
                #expect(run.status == 0, "\(run.output)")
            }
            var configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/")
            configuration.providers = []
            try await buildApplication(configuration, logger: TestServer.logger).test(.live, body)
        }
    }

    /// The merged value of `currency` on `day` in `stored`.
    static func merged(_ currency: String, on day: String, in stored: StoredRates) -> String? {
        stored.days.first { $0.day == Day(day) }?.texts[CurrencyCode(currency)!]
    }

    @Test("recorded files of the NBP, the Bank of Russia and the Czech National Bank are stored as published, merged, and recorded as imports")
    func importsThreeProviders() async throws {
        try await TestServer.withSeededDatabase { database in
            let before = try RatesStore(path: database).snapshot()
            // The NBP's tables A and B of one span are one publication a day: imported together, as a fetch gets them.
            let files = [
                ("nbp", ["nbp-poland/tables_A_2026-03-01_2026-03-05.json", "nbp-poland/tables_B_2026-03-01_2026-03-05.json"]),
                ("CBR", ["cbr-russia/XML_daily_2026-04-25.xml"]), ("CNB", ["cnb-czech/denni_kurz_2000-04-21.txt"]),
            ]
            for (key, fixtures) in files {
                let run = try await Self.runImport(["--provider", key] + fixtures.map { Fixtures.url($0).path } + ["--db", database])
                #expect(run.status == 0, "\(key) \(fixtures): \(run.output)")
                #expect(run.output.contains("done in"), "\(run.output)")
            }
            let store = try RatesStore(path: database)

            // Each figure as its bank published it: the text, the unit, the direction.
            let cnb = try #require(try store.latestPublication(of: "CNB"))
            #expect(cnb.day == Day("2000-04-21"))
            #expect(cnb.quotes.first { $0.currency.rawValue == "JPY" } == PublishedQuote(
                currency: CurrencyCode("JPY")!, value: "36.850", unit: 100, direction: .pivotPerUnits))
            let russia = try #require(try store.latestPublication(of: "CBR"))
            #expect(russia.day == Day("2026-04-25") && russia.quotes.first { $0.currency == .euro }?.value == "88.2826")
            #expect(try store.latestPublicationDay(of: "NBP") == Day("2026-03-05"))

            // Merged as a fetch's would be (the same figures as the fetch test in "Many providers").
            let after = try store.snapshot()
            #expect(Self.merged("RUB", on: "2026-04-25", in: after) == "88.2826")
            #expect(Self.merged("UAH", on: "2026-04-25", in: after) == "51.4353464850441045")
            #expect(Self.merged("AFN", on: "2026-03-04", in: after) == "75.3805672306007841")
            // The lira through the koruna: 36.270 / (18.732 / 1000). Good Friday 2000 had no ECB publication: the ECB's
            // own currencies keep its figures of the day before, carried forward.
            #expect(Self.merged("ITL", on: "2000-04-21", in: after) == "1936.25880845611787")
            #expect(!before.days.contains { $0.day == Day("2000-04-21") })
            let ecbDay = try #require(before.days.first { $0.day == Day("2000-04-20") })
            for (currency, value) in ecbDay.texts {
                #expect(Self.merged(currency.rawValue, on: "2000-04-21", in: after) == value, "\(currency)")
            }

            let run = try #require(try store.lastRun(source: .import, provider: "CNB"))
            #expect(run.file == "denni_kurz_2000-04-21.txt" && run.outcome == .updated && run.rowsChanged > 0)
            let nbpRun = try #require(try store.lastRun(source: .import, provider: "NBP"))
            #expect(nbpRun.file == "tables_A_2026-03-01_2026-03-05.json, tables_B_2026-03-01_2026-03-05.json")
        }
    }

    @Test("a file that is not the provider's, an unknown provider, or a file needing --subject exits non-zero, says why, and stores nothing", arguments: [
        (["--provider", "NBP", "cbr-russia/XML_daily_2026-04-25.xml"], "the file is not an answer of NBP's that can be imported"),
        (["--provider", "XYZ", "cbr-russia/XML_daily_2026-04-25.xml"], "no provider has the key \"XYZ\""),
        (["--provider", "CNB", "eurofxref-daily.xml"], "the file is not an answer of CNB's that can be imported"),
        (["--provider", "NBP", "nbp-poland/tables_A_2026-03-01_2026-03-05.json", "cbr-russia/XML_daily_2026-04-25.xml"],
         "the file is not an answer of NBP's that can be imported"),
    ])
    func refusesBadFiles(arguments: [String], message: String) async throws {
        try await TestServer.withSeededDatabase { database in
            let version = try RatesStore(path: database).version()
            // Every argument naming a file in Tests/Fixtures is given as its path.
            let run = try await Self.runImport(arguments.map { $0.contains(".") ? Fixtures.url($0).path : $0 } + ["--db", database])
            #expect(run.status != 0 && run.status != nil)
            #expect(run.output.contains(message), "\(run.output)")
            let store = try RatesStore(path: database)
            #expect(try store.version() == version)
            #expect(try store.lastRun(source: .import) == nil, "no run recorded")
            for key in ["NBP", "CNB", "BCB", "XYZ"] { #expect(try store.latestPublicationDay(of: key) == nil) }
        }
    }

    @Test("the ECB's daily file and its 90-day file, one writing ISK's figure as 144.70 and the other as 144.7, import together, the first file's text kept")
    func importsOneFigureWrittenTwoWays() async throws {
        try await TestServer.withEmptyDatabase { database in
            let run = try await Self.runImport([Fixtures.url("eurofxref-daily.xml").path, Fixtures.url("eurofxref-hist-90d.xml").path, "--db", database])
            #expect(run.status == 0, "\(run.output)")
            let ecb = try #require(try RatesStore(path: database).publication(of: "ECB", on: Day("2025-04-03")!))
            #expect(ecb.quotes.first { $0.currency.rawValue == "ISK" }?.value == "144.70")
        }
    }

    @Test("a file that names no currency is imported with --subject; the ECB stays the default, in any letter case")
    func subjectAndDefault() async throws {
        try await TestServer.withEmptyDatabase { database in
            let ecb = try await Self.runImport(["--provider", "ecb", Fixtures.url("eurofxref-hist-90d.xml").path, "--db", database])
            #expect(ecb.status == 0, "\(ecb.output)")
            #expect(try RatesStore(path: database).latestPublicationDay(of: "ECB") == Day("2025-04-04"))
            let dollar = try await Self.runImport([
                "--provider", "BCB", "--subject", "USD", Fixtures.url("bcb-brazil/PTAX_CotacaoMoedaPeriodo_USD_2026-03-01_2026-03-06.json").path,
                "--db", database,
            ])
            #expect(dollar.status == 0, "\(dollar.output)")
            let brazil = try #require(try RatesStore(path: database).latestPublication(of: "BCB"))
            #expect(brazil.quotes.map(\.currency.rawValue) == ["USD"])
        }
    }

    @Test("a file that does not name its currency takes it from its file name; a name without one, or with two, needs --subject")
    func subjectFromFileName() async throws {
        try await TestServer.withEmptyDatabase { database in
            let recorded = Fixtures.url("bcb-brazil/PTAX_CotacaoMoedaPeriodo_CHF_2026-03-01_2026-03-06.json")
            let named = try await Self.runImport(["--provider", "BCB", recorded.path, "--db", database])
            #expect(named.status == 0, "\(named.output)")
            #expect(try RatesStore(path: database).latestPublication(of: "BCB")?.quotes.map(\.currency.rawValue) == ["CHF"])

            let directory = URL(fileURLWithPath: database).deletingLastPathComponent()
            for name in ["answer.json", "CHF_or_USD.json"] {
                let copy = directory.appendingPathComponent(name)
                try FileManager.default.copyItem(at: recorded, to: copy)
                let run = try await Self.runImport(["--provider", "BCB", copy.path, "--db", database])
                #expect(run.status != 0 && run.status != nil, "\(name)")
                #expect(run.output.contains("name the one it answers with --subject"), "\(name): \(run.output)")
            }
        }
    }

    @Test("a day before the euro, end to end: the Bundesbank's imported file answers its own figures, DEM per unit of each currency")
    func dayBeforeTheEuro() async throws {
        let file = "bbk-germany-historical/00_EX3_D..DEM.AA.AC.000_endPeriod=1998-12-30_format=sdmx_csv_startPeriod=1998-12-21.csv"
        try await Self.withImported("BBK", file) { client in
            // The file's figures of 1998-12-30: 1.6730 DEM per 1 USD, 122.200 per 100 CHF, 1.4505 per 100 JPY, 1.0100 per 1000 ITL.
            for (currency, dem) in [("USD", "1.673"), ("CHF", "1.222"), ("JPY", "0.014505"), ("ITL", "0.00101")] {
                for providers in ["&providers=BBK", ""] {
                    let answer = try await client.request("/v1/rates/1998-12-30?base=\(currency)&symbols=DEM\(providers)")
                    #expect(answer.status == .ok, "\(answer.text)")
                    #expect(answer.decimalText("rates", "DEM") == dem, "\(currency)\(providers): \(answer.text)")
                }
            }
            // Before 1999 a value per EUR is per euro at the conversion rate of the source's own currency.
            let perEuro = try await client.request("/v1/rates/1998-12-30?symbols=DEM,USD&expand=sources")
            #expect(perEuro.decimalText("rates", "DEM") == "1.95583")
            #expect((perEuro.json["sources"] as? [String: [String: Any]])?["USD"]?["provider"] as? String == "BBK")
            #expect(try await client.request("/v1/rates/1998-12-30?providers=ECB").status == .notFound, "the ECB publishes from 1999-01-04")
        }
    }

    @Test("the offshore yuan is its own currency: the BCRA's CNH is listed and named apart from CNY, and answered as published")
    func offshoreYuan() async throws {
        try await Self.withImported("BCRA", "bcra-argentina/00_estadisticascambiarias_v1.0_Cotizaciones_fecha=2026-03-19.json") { client in
            let names = try await client.request("/v1/currencies").json
            #expect(names["CNH"] as? String == "Chinese Yuan (offshore)" && names["CNY"] as? String == "Yuan Renminbi")
            let v2 = try await client.request("/v2/currency/CNH")
            #expect(v2.status == .ok && v2.json["name"] as? String == "Chinese Yuan (offshore)" && v2.json["iso_numeric"] is NSNull, "\(v2.text)")
            // The bank's figure for CNH, 202.43003100 pesos, is its own entry (the bank gives CNY the same figure).
            let published = try await client.request("/v1/rates/2026-03-19?base=CNH&symbols=ARS&providers=BCRA&expand=sources")
            #expect(published.decimalText("rates", "ARS") == "202.43003", "\(published.text)")
            #expect((published.json["sources"] as? [String: [String: Any]])?["ARS"]?["provider"] as? String == "BCRA")
        }
    }
    @Test("a part of a publication answers on its own: the Bank of Russia's metals imported alone, days after its table, are served through the rouble's value, for providers=CBR too")
    func partAloneAnswers() async throws {
        // The metals of Tuesday 2026-04-28 alone (roubles per gram), after the table of Saturday the 25th.
        let metals = FileManager.default.temporaryDirectory.appendingPathComponent("metals-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: metals) }
        try Data(("<?xml version=\"1.0\" encoding=\"windows-1251\"?><Metall FromDate=\"20260428\" ToDate=\"20260428\" name=\"Precious metals quotations\">"
            + "<Record Date=\"28.04.2026\" Code=\"1\"><Buy>12957,47</Buy><Sell>12957,47</Sell></Record></Metall>").utf8).write(to: metals)
        try await Self.withImported("CBR", "cbr-russia/XML_daily_2026-04-25.xml", then: [metals.path]) { client in
            for query in ["", "&providers=CBR"] {
                let answer = try await client.request("/v1/rates/2026-04-28?symbols=XAU,USD&expand=sources" + query)
                #expect(answer.status == .ok && answer.json["date"] as? String == "2026-04-28", "\(query): \(answer.text)")
                let sources = try #require(answer.json["sources"] as? [String: [String: Any]])
                #expect(sources["XAU"]?["provider"] as? String == "CBR" && sources["XAU"]?["date"] as? String == "2026-04-28")
                guard query == "&providers=CBR" else { continue }
                #expect(sources["USD"]?["date"] as? String == "2026-04-25", "the Bank of Russia's own dollar is its table's, carried forward")
                // 12957.47 RUB per gram × 31.1034768 g per troy ounce, through the table's 88.2826 RUB per EUR.
                let gold = try #require(answer.decimalText("rates", "XAU").flatMap { Double($0) })
                #expect(abs(gold - 88.2826 / (12957.47 * 31.1034768)) < 1e-10, "\(gold)")
            }
        }
    }
}

