import Foundation
import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("BCCCD adapter")
struct BCCCDProviderTests {
    let provider = BCCCDProvider()
    let payloadFile = "bcccd-congo/00_cours-de-change.rsc.txt"

    func payload() throws -> [ProviderPublication] {
        try provider.parse(try ProviderFixture.bytes(payloadFile), of: provider.requests(for: .latest)[0])
    }

    func dayRequest(_ day: String) -> ProviderRequest {
        ProviderRequest(url: "\(BCCCDProvider.defaultBaseURL)/\(day)", subject: day)
    }

    func page(_ day: String, _ file: String) throws -> [ProviderPublication] {
        try provider.parse(try ProviderFixture.bytes("bcccd-congo/\(file)"), of: dayRequest(day))
    }

    @Test("the payload gives 21 currencies' averages on each of its four days, CDF per unit as written")
    func readsThePayload() throws {
        let publications = try payload()
        #expect(publications.map(\.day.description) == ["2026-09-01", "2026-09-02", "2026-09-03", "2026-09-04"])
        #expect(publications.allSatisfy { $0.quotes.count == 21 })
        #expect(publications[0].codes.contains("XDR") && publications[0].codes.contains("ZMW"))
        #expect(ProviderFixture.quote("USD", on: "2026-09-01", in: publications) == quote("USD", "2263.57"))
        #expect(ProviderFixture.quote("USD", on: "2026-09-02", in: publications) == quote("USD", "2264"))
        #expect(ProviderFixture.quote("EUR", on: "2026-09-04", in: publications) == quote("EUR", "2625.75"))
        #expect(ProviderFixture.quote("BIF", on: "2026-09-01", in: publications) == quote("BIF", "0.75"))
        #expect(ProviderFixture.quote("XAF", on: "2026-09-03", in: publications) == quote("XAF", "4"))
    }

    @Test("a day's page gives that day's averages, the same figures as the payload's")
    func readsADayPage() throws {
        let september2 = try page("2026-09-02", "01_2026-09-02.html")
        #expect(september2.map(\.day.description) == ["2026-09-02"])
        #expect(september2[0].codes == ["AUD", "CAD", "CHF", "CNY", "EUR", "GBP", "JPY", "USD", "XAF", "ZAR"])
        #expect(september2[0]["USD"] == quote("USD", "2264"))
        #expect(september2[0]["EUR"] == quote("EUR", "2626.12"))
        let fromPayload = try #require(try payload().first { $0.day == Day("2026-09-02")! })
        for quote in september2[0].quotes {
            let same = try #require(fromPayload[quote.currency.rawValue])
            #expect(ExactDecimal(quote.value) == ExactDecimal(same.value), "\(quote.currency)")
        }
        #expect(try page("2026-09-03", "02_2026-09-03.html")[0]["CHF"] == quote("CHF", "2784.1"))
    }

    @Test("the newest publication is the payload; a range is the payload and each weekday's page")
    func requests() {
        #expect(provider.requests(for: .latest) == [ProviderRequest(url: BCCCDProvider.defaultBaseURL, headers: ["Rsc": "1"])])
        let range = provider.requests(for: .range(Day("2026-09-04")!, Day("2026-09-08")!))
        #expect(range.map(\.url) == [
            BCCCDProvider.defaultBaseURL, BCCCDProvider.defaultBaseURL + "/2026-09-04", BCCCDProvider.defaultBaseURL + "/2026-09-07",
            BCCCDProvider.defaultBaseURL + "/2026-09-08",
        ])
        #expect(range.dropFirst().map(\.subject) == ["2026-09-04", "2026-09-07", "2026-09-08"])
        #expect(provider.requests(for: .range(Day("2026-09-08")!, Day("2026-09-04")!)).isEmpty)
    }

    @Test("the table's and the chart's history must agree: one currency of one day with two figures rejects the payload")
    func historiesAgree() throws {
        let text = try String(contentsOf: Fixtures.url(payloadFile), encoding: .utf8)
        // Only the chart's USD of 2026-09-02 (the second occurrence) is moved.
        let chart = try #require(text.range(of: "\"chart\""))
        let moved = text.replacingOccurrences(of: "\"average\":2264,", with: "\"average\":2265,", range: chart.upperBound..<text.endIndex)
        #expect(moved != text)
        #expect(ProviderFixture.error(Array(moved.utf8), provider) == .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-09-02")!))
    }

    @Test("altered answers are rejected whole: a figure that is not a number, a bad day, a bad code, a unit not a power of ten")
    func alteredAnswers() throws {
        func edited(_ old: String, _ new: String) throws -> UpstreamDataError? {
            ProviderFixture.error(try ProviderFixture.edited(payloadFile, replacing: old, with: new), provider)
        }
        #expect(try edited("\"average\":2263.57", "\"average\":\"n.d.\"") == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-09-01")!, text: "n.d."))
        #expect(try edited("\"date\":\"2026-09-01\",\"buy\":2212.52", "\"date\":\"2026-09-31\",\"buy\":2212.52") == .invalidDay("2026-09-31"))
        #expect(try edited("\"USD\":[", "\"US\":[") == .invalidCurrencyCode("US", day: Day("2026-09-01")!))
        #expect(try edited("\"average\":2263.57,\"sell\":2314.62,\"unit\":1", "\"average\":2263.57,\"sell\":2314.62,\"unit\":3") != nil)
        let page = try ProviderFixture.edited("bcccd-congo/01_2026-09-02.html", replacing: ">2264<", with: ">2 264,5x<")
        #expect(ProviderFixture.error(page, provider, request: dayRequest("2026-09-02")) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-09-02")!, text: "2 264,5x"))
    }

    @Test("a truncated payload or page, an HTML page for the payload, and an empty body are rejected")
    func brokenBodies() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(payloadFile), stride: 499) {
            #expect(ProviderFixture.error(cut, provider) != nil, "a cut at \(cut.count) bytes parsed")
        }
        // A page cut inside its list is rejected; one cut after the list's end holds every figure and reads as the whole page.
        let page = try ProviderFixture.bytes("bcccd-congo/01_2026-09-02.html")
        let marker = Array("</dl>".utf8)
        let listEnd = try #require((0...(page.count - marker.count)).first { Array(page[$0..<$0 + marker.count]) == marker }) + marker.count
        let whole = try provider.parse(page, of: dayRequest("2026-09-02"))
        for cut in ProviderFixture.truncations(of: page, stride: 97) {
            if cut.count < listEnd {
                #expect(ProviderFixture.error(cut, provider, request: dayRequest("2026-09-02")) != nil, "a cut at \(cut.count) bytes parsed")
            } else {
                #expect((try? provider.parse(cut, of: dayRequest("2026-09-02"))).map { $0 == whole } ?? true, "a cut at \(cut.count) bytes")
            }
        }
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider)?.isLayout(of: "BCCCD") == true)
        #expect(ProviderFixture.error([], provider) == .empty)
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider, request: dayRequest("2026-09-02"))?.isLayout(of: "BCCCD") == true)
    }
}
