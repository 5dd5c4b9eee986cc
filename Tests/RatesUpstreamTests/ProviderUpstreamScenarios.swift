import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

/// One provider served by ``FakeProviderUpstream`` from its real recorded answers: the adapter pointed
/// at the fake, the window fetched, the fixture at each path the adapter asks for, and what the fetch
/// must bring back.
struct ProviderScenario: Sendable, CustomTestStringConvertible {
    /// One path the adapter requests, and the recorded answer served there.
    struct Route: Sendable {
        var path: String
        var query: [String] = []
        var fixture: String
    }

    var key: String
    /// The adapter, given the fake's root URL (no trailing slash).
    var make: @Sendable (String) -> any RatesProvider
    var window: FetchWindow = .latest
    var routes: [Route]
    /// The days the fetch returns, ascending, and the currencies of each.
    var days: [(day: String, currencies: Int)]

    var testDescription: String { key }

    /// Serves this scenario's recorded answers on `upstream`.
    func install(on upstream: FakeProviderUpstream) {
        for route in routes { upstream.serve(route.path, query: route.query, .fixture(route.fixture)) }
    }
}

extension ProviderScenario {
    static let ecb = ProviderScenario(
        key: "ECB", make: { ECBProvider(baseURL: $0 + "/ecb/") },
        routes: [Route(path: "/ecb/eurofxref-daily.xml", fixture: "eurofxref-daily.xml")],
        days: [("2025-04-03", 30)])

    /// Tables A (4 days of 32) and B (2026-03-04, 116 others) of the same span: one day of 148.
    static let nbp = ProviderScenario(
        key: "NBP", make: { NBPProvider(baseURL: $0 + "/nbp") },
        routes: [
            Route(path: "/nbp/tables/A/", fixture: "nbp-poland/tables_A_2026-03-01_2026-03-05.json"),
            Route(path: "/nbp/tables/B/", fixture: "nbp-poland/tables_B_2026-03-01_2026-03-05.json"),
        ],
        days: [("2026-03-02", 32), ("2026-03-03", 32), ("2026-03-04", 148), ("2026-03-05", 32)])

    static let cbr = ProviderScenario(
        key: "CBR", make: { CBRProvider(baseURL: $0 + "/cbr") },
        routes: [Route(path: "/cbr/scripts/XML_daily.asp", fixture: "cbr-russia/XML_daily_2026-04-25.xml")],
        days: [("2026-04-25", 54)])

    static let bnr = ProviderScenario(
        key: "BNR", make: { BNRProvider(baseURL: $0 + "/bnr") },
        routes: [Route(path: "/bnr/nbrfxrates.xml", fixture: "bnr-romania/nbrfxrates_2016-12-02.xml")],
        days: [("2016-12-02", 30)])

    static let cnb = ProviderScenario(
        key: "CNB", make: { CNBProvider(baseURL: $0 + "/cnb") },
        routes: [Route(path: "/cnb/denni_kurz.txt", fixture: "cnb-czech/denni_kurz_2000-04-21.txt")],
        days: [("2000-04-21", 28)])

    /// The newest publication asked for on the day of the recorded answer.
    static let bdi = ProviderScenario(
        key: "BDI", make: { BDIProvider(baseURL: $0 + "/bdi", today: { Day("2026-02-11")! }) },
        routes: [Route(path: "/bdi/dailyRates", query: ["referenceDate=2026-02-11"], fixture: "bdi-italy/dailyRates_EUR_2026-02-11.csv")],
        days: [("2026-02-11", 150)])

    static let boc = ProviderScenario(
        key: "BOC", make: { BOCProvider(baseURL: $0 + "/boc") },
        routes: [Route(path: "/boc/observations/group/FX_RATES_DAILY/json", fixture: "boc-canada/valet_group_FX_RATES_DAILY_start-2026-03-12.json")],
        days: ["2026-03-12", "2026-03-13", "2026-03-16", "2026-03-17", "2026-03-18"].map { ($0, 23) })

    static let nb = ProviderScenario(
        key: "NB", make: { NBProvider(baseURL: $0 + "/nb") },
        routes: [Route(path: "/nb/data/EXR/B..NOK.SP", fixture: "norgesbank-norway/EXR_B..NOK.SP_2026-03-16_2026-03-24.csv")],
        days: ["2026-03-16", "2026-03-17", "2026-03-18", "2026-03-19", "2026-03-20", "2026-03-23", "2026-03-24"].map { ($0, 36) })

    static let rb = ProviderScenario(
        key: "RB", make: { RBProvider(baseURL: $0 + "/rb") },
        routes: [Route(path: "/rb/Observations/Latest/ByGroup/130", fixture: "riksbank-sweden/swea_ByGroup130_2026-03-24_2026-03-28.json")],
        days: ["2026-03-24", "2026-03-25", "2026-03-26", "2026-03-27"].map { ($0, 29) })

    static let tcmb = ProviderScenario(
        key: "TCMB", make: { TCMBProvider(baseURL: $0 + "/tcmb") },
        routes: [Route(path: "/tcmb/today.xml", fixture: "tcmb-turkey/kurlar_today_2016-03-15.xml")],
        days: [("2016-03-15", 18)])

    /// The ten providers fetched end to end, with the days and currency counts their recorded answers hold.
    static let checked: [ProviderScenario] = [ecb, nbp, cbr, bnr, cnb, bdi, boc, nb, rb, tcmb]

    /// Every other provider's recorded answers, at the paths its adapter asks for; the counts are
    /// what the fetch brings back, checked by the coverage test.
    static let others: [ProviderScenario] = [
        ProviderScenario(
            key: "BANXICO", make: { BANXICOProvider(baseURL: $0 + "/banxico", apiKey: "test-token") },
            routes: [Route(path: "/banxico/series/*", fixture: "banxico-mexico/SIE_series_SF43718_SF46410_SF46407_SF46406_SF60632_2026-03-01_2026-03-15.json")],
            days: []),
        ProviderScenario(
            key: "BCB", make: { BCBProvider(baseURL: $0 + "/bcb") },
            routes: BCBProvider.currencies.map {
                Route(path: "/bcb/*", query: ["moeda=%27\($0)%27"], fixture: "bcb-brazil/PTAX_CotacaoMoedaPeriodo_\($0)_2026-03-01_2026-03-06.json")
            },
            days: []),
        ProviderScenario(
            key: "BNM", make: { BNMProvider(baseURL: $0 + "/bnm") },
            routes: [Route(path: "/bnm/exchange-rate", fixture: "bnm-malaysia/exchange-rate_session0900_latest_2026-03-19.json")], days: []),
        ProviderScenario(
            key: "BOE", make: { BOEProvider(baseURL: $0 + "/boe") },
            routes: [Route(path: "/boe", fixture: "boe-uk/iadb_XUDL_2026-03-17_2026-03-20.csv")], days: []),
        ProviderScenario(
            key: "BOI", make: { BOIProvider(baseURL: $0 + "/boi") },
            routes: [Route(path: "/boi", fixture: "boi-israel/EXR_OF00_2026-03-01_2026-03-20.csv")], days: []),
        ProviderScenario(
            key: "BOJ", make: { BOJProvider(baseURL: $0 + "/boj") },
            routes: [Route(path: "/boj", fixture: "boj-japan/getDataCode_FM08_FXERD04_FXERD34_2026-03.json")], days: []),
        ProviderScenario(
            key: "BOT", make: { BOTProvider(baseURL: $0 + "/bot", apiKey: "test-key") },
            routes: [Route(path: "/bot/Stat-ExchangeRate/v2/DAILY_AVG_EXG_RATE/", fixture: "bot-thailand/DAILY_AVG_EXG_RATE_2026-04-01_2026-04-03.json")],
            days: []),
        ProviderScenario(
            key: "CBU", make: { CBUProvider(baseURL: $0 + "/cbu") },
            routes: [Route(path: "/cbu/json/", fixture: "cbu-uzbekistan/json_all_2026-04-03.json")], days: []),
        ProviderScenario(
            key: "DNB", make: { DNBProvider(baseURL: $0 + "/dnb") },
            routes: [Route(path: "/dnb/api/currencyratesxml", fixture: "dnb-denmark/currencyratesxml_2026-07-13.xml")], days: []),
        ProviderScenario(
            key: "FBIL", make: { FBILProvider(baseURL: $0 + "/fbil") },
            routes: [Route(path: "/fbil", fixture: "fbil-india/refrates_fetchfiltered_2026-03-17_2026-03-21.json")], days: []),
        ProviderScenario(
            key: "FRED", make: { FREDProvider(baseURL: $0 + "/fred", apiKey: "test-key") },
            routes: FREDProvider.series.map { Route(path: "/fred", query: ["series_id=\($0.id)&"], fixture: "fred-h10-usa/fred_\($0.id)_from-2026-03-01.json") },
            days: []),
        ProviderScenario(
            key: "HKMA", make: { HKMAProvider(baseURL: $0 + "/hkma") },
            routes: [Route(path: "/hkma/*", fixture: "hkma-hongkong/er-eeri-daily_2026-02-25_2026-02-28.json")], days: []),
        ProviderScenario(
            key: "IMF", make: { IMFProvider(baseURL: $0 + "/imf", today: { Day("2026-03-31")! }) },
            routes: [Route(path: "/imf", fixture: "imf/rms_mth_REP_2026-03.tsv")], days: []),
        ProviderScenario(
            key: "MNB", make: { MNBProvider(baseURL: $0 + "/mnb") }, window: .range(Day("2025-03-24")!, Day("2025-03-28")!),
            routes: [Route(path: "/mnb", fixture: "mnb-hungary/soap_GetExchangeRates_2025-03-24_2025-03-28.xml")], days: []),
        ProviderScenario(
            key: "NBG", make: { NBGProvider(baseURL: $0 + "/nbg") },
            routes: [Route(path: "/nbg/currencies/", fixture: "nbg-georgia/currencies_date-2026-03-04.json")], days: []),
        ProviderScenario(
            key: "NBK", make: { NBKProvider(baseURL: $0 + "/nbk") },
            routes: [Route(path: "/nbk", fixture: "nbk-kazakhstan/get_rates_03.04.2026.xml")], days: []),
        ProviderScenario(
            key: "NBRB", make: { NBRBProvider(baseURL: $0 + "/nbrb") },
            routes: [Route(path: "/nbrb/rates", fixture: "nbrb-belarus/rates_periodicity0_2026-03-17.json")], days: []),
        ProviderScenario(
            key: "NBU", make: { NBUProvider(baseURL: $0 + "/nbu") },
            routes: [Route(path: "/nbu/NBUStatService/v1/statdirectory/exchange", fixture: "nbu-ukraine/statdirectory_exchange_2019-02-18.xml")], days: []),
        ProviderScenario(
            key: "RBA", make: { RBAProvider(baseURL: $0 + "/rba/f11.1-data.csv") },
            routes: [Route(path: "/rba/f11.1-data.csv", fixture: "rba-australia/f11.1-data.csv")], days: []),
        ProviderScenario(
            key: "SBI", make: { SBIProvider(baseURL: $0 + "/sbi") },
            routes: ["9", "7"].map { Route(path: "/sbi", query: ["GroupID=\($0)&"], fixture: "sbi-iceland/xmltimeseries_GroupID\($0)_2026-03-24_2026-03-28.xml") },
            days: []),
    ]
}
