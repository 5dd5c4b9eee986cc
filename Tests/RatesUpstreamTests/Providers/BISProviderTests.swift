import RatesCore
import RatesUpstream
import Testing

@Suite("BIS adapter")
struct BISProviderTests {
    let provider = BISProvider(today: { Day("2025-03-10")! })
    let months2025 = "bis-international/00_WS_XRU_M_E_c_TIME_PERIOD_ge_2025-01_le_2025-02.csv"
    let year1900 = "bis-international/01_WS_XRU_M_E_c_TIME_PERIOD_ge_1900-01_le_1900-01.csv"
    let may2001 = "bis-international/02_WS_XRU_M_E_c_TIME_PERIOD_ge_2001-05_le_2001-05.csv"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads January and February 2025: 134 currencies each, dated the month's last day, units per USD, codes checked per economy")
    func months() throws {
        let publications = try parse(ProviderFixture.bytes(months2025))
        #expect(publications.map(\.day.description) == ["2025-01-31", "2025-02-28"])
        #expect(publications.map(\.quotes.count) == [134, 134])
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.direction == .unitsPerPivot && $0.unit == 1 } })
        let january = publications[0]
        #expect(january["TWD"] == quote("TWD", "32.85", .unitsPerPivot))
        #expect(january["TRY"]?.value == "35.856345617242")
        #expect(january["XDR"]?.value == "0.766971")
        // The euro area's row for EUR (Bulgaria's restated one is skipped), Australia's for AUD (not Kiribati's).
        #expect(january["EUR"]?.value == "0.962186")
        #expect(january["AUD"]?.value == "1.607043")
        // Codes that are not what the figures are in: VEF read as VES, SLL as SLE; São Tomé's STD of 2025 skipped.
        #expect(january["VES"]?.value == "57.821684")
        #expect(january["SLE"]?.value == "22.6082")
        #expect(january["VEF"] == nil && january["SLL"] == nil && january["STD"] == nil)
        #expect(january["USD"] == nil)
        #expect(provider.validityDays == 31)
    }

    @Test("reads May 2001 without the rows restated in currencies introduced later")
    func restated() throws {
        let may = try #require(try parse(ProviderFixture.bytes(may2001)).first)
        #expect(may.day == Day("2001-05-31")!)
        #expect(may.quotes.count == 129)
        #expect(may["EUR"]?.value == "1.179245")
        #expect(may["STD"]?.value == "8968.84")
        #expect(may["MRO"]?.value == "256.4")
        // The new Turkish lira (2005), the leu (2005), the new manat (2006), the Surinamese dollar (2004, the row's
        // 2.1785 is 2178.5 guilders restated): restated, not published, in 2001.
        #expect(may["TRY"] == nil && may["RON"] == nil && may["AZN"] == nil && may["VEF"] == nil && may["ZWL"] == nil && may["SRD"] == nil)
        // The somoni (2000-10-30) and the kwanza (1999-12-01) were current by then.
        #expect(may["TJS"] == quote("TJS", "2.35", .unitsPerPivot))
        #expect(may["AOA"] == quote("AOA", "19.62864", .unitsPerPivot))
    }

    @Test("the somoni's rows before November 2000 and the kwanza's before December 1999 are restatements, skipped")
    func restatedSomoniAndKwanza() throws {
        // The May 2001 rows of Tajikistan and Angola moved to the last months before their currencies
        // came in, as the BIS's answers for those months hold them (figures restated in today's unit).
        let before = try ProviderFixture.edited(may2001, replacing: ",M,TJ,TJS,E,2001-05,", with: ",M,TJ,TJS,E,2000-10,")
        let beforeBoth = try #require(ProviderFixture.replacing(",M,AO,AOA,E,2001-05,", with: ",M,AO,AOA,E,1999-11,", in: before))
        #expect(try parse(beforeBoth).map(\.day) == [Day("2001-05-31")!])
        // From their first full month on, they are read.
        let from = try ProviderFixture.edited(may2001, replacing: ",M,TJ,TJS,E,2001-05,", with: ",M,TJ,TJS,E,2000-11,")
        let fromBoth = try #require(ProviderFixture.replacing(",M,AO,AOA,E,2001-05,", with: ",M,AO,AOA,E,1999-12,", in: from))
        let publications = try parse(fromBoth)
        #expect(ProviderFixture.quote("TJS", on: "2000-11-30", in: publications) == quote("TJS", "2.35", .unitsPerPivot))
        #expect(ProviderFixture.quote("AOA", on: "1999-12-31", in: publications) == quote("AOA", "19.62864", .unitsPerPivot))
    }

    @Test("holds no publication in the 1900 answer: months before 1999 are not read")
    func before1999() throws {
        #expect(try parse(ProviderFixture.bytes(year1900)).isEmpty)
    }

    @Test("asks for the months of a range, and for the newest publication the last four months")
    func requests() {
        let flow = "https://stats.bis.org/api/v2/data/dataflow/BIS/WS_XRU/1.0/M...E?c%5BTIME_PERIOD%5D="
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: flow + "ge:2024-12%2Ble:2025-03")])
        let range = provider.requests(for: .range(Day("2025-01-01")!, Day("2025-02-28")!))
        #expect(range == [ProviderRequest(url: flow + "ge:2025-01%2Ble:2025-02")])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(provider.requests(for: .range(Day("2025-02-28")!, Day("2025-01-01")!)).isEmpty)
        #expect(BISProvider(baseURL: "http://127.0.0.1:8080/bis").requests(for: .latest)[0].url.hasPrefix("http://127.0.0.1:8080/bis/api/v2/data/"))
    }

    @Test("rejects a value that is not a decimal, one currency with two figures, a bad code or period, a row with a multiplier")
    func alteredFields() throws {
        let day = Day("2025-01-31")!
        let value = try ProviderFixture.edited(months2025, replacing: "TW,TWD,E,2025-01,32.85,", with: "TW,TWD,E,2025-01,32;85,")
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("TWD")!, day: day, text: "32;85"))
        let twice = try ProviderFixture.edited(months2025, replacing: "DM,XCD,E,2025-01,2.7,", with: "DM,XCD,E,2025-01,2.71,")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("XCD")!, day: day))
        let code = try ProviderFixture.edited(months2025, replacing: "TW,TWD,E,2025-01", with: "TW,NTD,E,2025-01")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("NTD", day: day))
        let period = try ProviderFixture.edited(months2025, replacing: "TW,TWD,E,2025-01", with: "TW,TWD,E,2025-13")
        #expect(ProviderFixture.error { try parse(period) } == .invalidDay("2025-13"))
        let multiplier = try ProviderFixture.edited(months2025, replacing: "TW,TWD,E,2025-01,32.85,0,", with: "TW,TWD,E,2025-01,32.85,3,")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(multiplier) }))
        let header = try ProviderFixture.edited(months2025, replacing: "OBS_VALUE", with: "VALUE")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(header) }))
    }

    @Test("rejects a truncated body, an HTML error page, an empty body and a header alone; no truncation crashes")
    func notTheAnswer() throws {
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.truncated(months2025)) }))
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(months2025), stride: 307) {
            _ = ProviderFixture.error { try parse(cut) }
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let header = "DATAFLOW,FREQ,REF_AREA,CURRENCY,COLLECTION,TIME_PERIOD,OBS_VALUE,UNIT_MULT,DECIMALS,AVAILABILITY,TITLE,OBS_STATUS,OBS_PRE_BREAK,OBS_CONF\n"
        #expect(ProviderFixture.error { try parse(Array(header.utf8)) } == .empty)
    }
}
