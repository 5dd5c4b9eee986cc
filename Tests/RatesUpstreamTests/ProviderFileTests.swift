import Foundation
import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("A provider's own file, read as its endpoint's answer (rates-relay import)")
struct ProviderFileTests {
    /// A recorded answer, the adapter that reads it, and the request it answered.
    struct Recorded: Sendable, CustomTestStringConvertible {
        var fixture: String
        var provider: any RatesProvider
        var request: ProviderRequest
        var testDescription: String { fixture }
    }

    /// `fixture`, the answer to `provider`'s request number `index` for `window`.
    static func answer(_ fixture: String, _ provider: any RatesProvider, _ window: FetchWindow = .latest, index: Int = 0) -> Recorded {
        Recorded(fixture: fixture, provider: provider, request: provider.requests(for: window)[index])
    }

    static func days(_ first: String, _ last: String) -> FetchWindow { .range(Day(first)!, Day(last)!) }

    static let recorded: [Recorded] = [
        answer("nbp-poland/tables_A_2026-03-01_2026-03-05.json", NBPProvider()),
        answer("nbp-poland/tables_B_2026-03-01_2026-03-05.json", NBPProvider(), index: 1),
        answer("cbr-russia/XML_daily_2026-04-25.xml", CBRProvider()),
        answer("cbr-russia/xml_metall_2026-03-01_2026-03-05.xml", CBRProvider(), index: 1),
        answer("cbr-russia/XML_dynamic_R01235_USD_2026-03-01_2026-03-05.xml", CBRProvider()),
        answer("bcccd-congo/00_cours-de-change.rsc.txt", BCCCDProvider()),
        answer("bdi-italy/dailyRates_EUR_2026-02-09.csv", BDIProvider(), days("2026-02-09", "2026-02-09")),
        // Two answers of each of these providers need their own requests to be read.
        answer("cnb-czech/denni_kurz_2000-04-21.txt", CNBProvider()),
        answer("cnb-czech/cnbapi_exrates_daily-year_2026.json", CNBProvider(), days("2026-01-01", "2026-01-02")),
        answer("nbu-ukraine/statdirectory_exchange_2019-02-18.xml", NBUProvider()),
        answer("nbu-ukraine/exchange_site_2026-03-01_2026-03-16.json", NBUProvider(), days("2026-03-01", "2026-03-16")),
        answer("dnb-denmark/currencyratesxml_2026-07-13.xml", DNBProvider()),
        answer("dnb-denmark/statbank_DNVALD_from-2025-03-03.csv", DNBProvider(), days("2025-03-03", "2025-03-07")),
        answer("mnb-hungary/soap_GetExchangeRates_2025-03-24_2025-03-28.xml", MNBProvider(), days("2025-03-24", "2025-03-28")),
        // A PDF bulletin, asked for by a link on an index page, is dated by its own text.
        answer("bm-mozambique/02_taxas-de-c_C3_A2mbio-de-refer_C3_AAncia-do-mercado-cambial-do-dia-02092026.pdf", BMProvider()),
        answer("brb-burundi/02_Cours_20de_20change_20du_2021-05-2026.pdf", BRBProvider()),
        answer("bsp-philippines/01_28May2026.pdf", BSPProvider()),
    ]

    @Test("a recorded answer reads as it does when fetched, whichever of the provider's requests it answered", arguments: recorded)
    func readsLikeAFetch(_ recorded: Recorded) throws {
        let bytes = Array(try Fixtures.data(recorded.fixture))
        let fetched = try recorded.provider.parse(bytes, of: recorded.request)
        #expect(!fetched.isEmpty)
        #expect(try ProviderFile.read([bytes], provider: recorded.provider) == fetched.sorted { $0.day < $1.day })
    }

    @Test("several files combine into one publication per day, as a fetch's answers do; files that contradict each other are refused")
    func combinesFiles() throws {
        let tableA = Array(try Fixtures.data("nbp-poland/tables_A_2026-03-01_2026-03-05.json"))
        let tableB = Array(try Fixtures.data("nbp-poland/tables_B_2026-03-01_2026-03-05.json"))
        let both = try ProviderFile.read([tableA, tableB], provider: NBPProvider())
        #expect(both.map(\.day.description) == ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"])
        #expect(both.map(\.quotes.count) == [32, 32, 32 + 116, 32], "table B's Wednesday joins table A's")
        #expect(try ProviderFile.read([tableA, tableA], provider: NBPProvider()) == ProviderFile.read([tableA], provider: NBPProvider()))

        // The same table with the dollar moved: one currency of one day, two figures.
        let moved = Array(String(decoding: tableA, as: UTF8.self).replacingOccurrences(of: "\"mid\":3.6056", with: "\"mid\":3.6057").utf8)
        #expect(moved != tableA)
        #expect(throws: ProviderFileError.conflicting(provider: "NBP", .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-03-02")!))) {
            try ProviderFile.read([tableA, moved], provider: NBPProvider())
        }
    }

    @Test("two answers writing a day's figures with and without trailing zeros (the CBBH's daily and period lists) combine, the first file's text kept")
    func combinesFiguresWrittenTwoWays() throws {
        let period = Array(try Fixtures.data("cbbh-bosnia/02_GetJsonForPeriod_dateFrom=2026-09-24_dateTo=2026-09-26.json"))
        let daily = Array(try Fixtures.data("cbbh-bosnia/03_GetJson_date=09_25_2026_00_00_00.json"))
        let periodFirst = try ProviderFile.read([period, daily], provider: CBBHProvider())
        #expect(periodFirst == (try ProviderFile.read([period], provider: CBBHProvider())))
        let euro = periodFirst.first { $0.day == Day("2026-09-25")! }?.quotes.first { $0.currency == .euro }
        #expect(euro?.value == "1.95583")
        let dailyFirst = try ProviderFile.read([daily, period], provider: CBBHProvider())
        #expect(dailyFirst.first { $0.day == Day("2026-09-25")! }?.quotes.first { $0.currency == .euro }?.value == "1.955830")
    }

    @Test("a file that does not name its currency needs --subject: without it, it is refused as ambiguous")
    func subjectNeeded() throws {
        let bytes = Array(try Fixtures.data("bcb-brazil/PTAX_CotacaoMoedaPeriodo_USD_2026-03-01_2026-03-06.json"))
        do {
            _ = try ProviderFile.read([bytes], provider: BCBProvider())
            Issue.record("a BCB file was read without knowing its currency")
        } catch {
            guard case .ambiguous(let provider, let subjects) = error else { throw error }
            #expect(provider == "BCB" && subjects.contains("USD") && subjects.contains("EUR"), "\(subjects)")
            #expect("\(error)".contains("--subject"))
        }
        let usd = try ProviderFile.read([bytes], provider: BCBProvider(), subjects: ["USD"])
        #expect(usd.first?.quotes.map(\.currency) == [CurrencyCode("USD")!])
    }

    @Test("files of several currencies, each with its own subject, read as one publication per day holding every currency")
    func oneSubjectPerFile() throws {
        let names = ["USD", "CHF", "AUD"]
        let files = try names.map { Array(try Fixtures.data("bcb-brazil/PTAX_CotacaoMoedaPeriodo_\($0)_2026-03-01_2026-03-06.json")) }
        let together = try ProviderFile.read(files, provider: BCBProvider(), subjects: names)
        let apart = try zip(files, names).map { try ProviderFile.read([$0], provider: BCBProvider(), subjects: [$1]) }
        #expect(together.count == apart[0].count && together.map(\.day) == apart[0].map(\.day))
        for (index, publication) in together.enumerated() {
            #expect(Set(publication.quotes.map(\.currency.rawValue)) == Set(names), "\(publication.day)")
            #expect(Set(publication.quotes) == Set(apart.flatMap { $0[index].quotes }), "\(publication.day): each file's figures as read alone")
        }
    }

    @Test("a file of another provider, or garbage, is refused with the adapter's reason", arguments: [
        ("cbr-russia/XML_daily_2026-04-25.xml", "NBP"), ("nbp-poland/tables_A_2026-03-01_2026-03-05.json", "CBR"),
        ("eurofxref-daily.xml", "CNB"),
    ])
    func refusesOtherFiles(fixture: String, key: String) throws {
        let provider = try #require(ProviderRegistry.entry(key)?.adapter)
        #expect(throws: ProviderFileError.self) { try ProviderFile.read([Array(try Fixtures.data(fixture))], provider: provider) }
        do {
            _ = try ProviderFile.read([Array("<html><body>502 Bad Gateway</body></html>".utf8)], provider: provider)
            Issue.record("an HTML error page was read as \(key)'s")
        } catch {
            guard case .unreadable(let refused, let reasons) = error else { throw error }
            #expect(refused == key && !reasons.isEmpty)
            #expect("\(error)".hasPrefix("the file is not an answer of \(key)'s that can be imported: "), "\(error)")
        }
    }

    @Test("the adapter of a provider that needs an API key reads its files without one")
    func readerNeedsNoAPIKey() throws {
        let reader = try #require(ProviderRegistry.entry("fred")?.adapter)
        #expect(reader.key == "FRED")
        let euro = Array(try Fixtures.data("fred-h10-usa/fred_DEXUSEU_from-2026-03-01.json"))
        #expect(!(try ProviderFile.read([euro], provider: reader, subjects: ["DEXUSEU"])).isEmpty)
    }
}
