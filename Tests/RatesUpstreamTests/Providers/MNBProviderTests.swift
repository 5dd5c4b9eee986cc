import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("MNB adapter")
struct MNBProviderTests {
    let provider = MNBProvider()
    let file = "mnb-hungary/soap_GetExchangeRates_2025-03-24_2025-03-28.xml"

    var rangeRequest: ProviderRequest { provider.requests(for: .range(Day("2025-03-24")!, Day("2025-03-28")!))[0] }

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: rangeRequest)
    }

    @Test("reads GetExchangeRates of 2025-03-24 to 03-28 through its escaped inner document: 5 days of 32 currencies, HUF per unit")
    func range() throws {
        let days = try parse(ProviderFixture.bytes(file))
        #expect(days.map(\.day) == ["2025-03-24", "2025-03-25", "2025-03-26", "2025-03-27", "2025-03-28"].map { Day($0)! })
        #expect(days.allSatisfy { $0.quotes.count == 32 && $0.quotes.allSatisfy { $0.direction == .pivotPerUnits } })
        let euro = PublishedQuote(currency: CurrencyCode("EUR")!, value: "402.61", direction: .pivotPerUnits)
        #expect(ProviderFixture.quote("EUR", in: days[4]) == euro)
        #expect(ProviderFixture.quote("USD", in: days[0])?.value == "367.60")
        #expect(ProviderFixture.quote("JPY", in: days[2]).map { [$0.value, "\($0.unit)"] } == ["247.00", "100"])
        #expect(days.allSatisfy { $0.quotes.filter { $0.unit == 100 }.map(\.currency.rawValue).sorted() == ["IDR", "JPY", "KRW"] })
    }

    @Test("posts GetCurrentExchangeRates for the latest, GetExchangeRates with the days and the 32 currencies for a range")
    func requests() throws {
        let latest = try #require(provider.requests(for: .latest).first)
        #expect(latest.url == "http://www.mnb.hu/arfolyamok.asmx" && latest.method == .post && latest.subject == "GetCurrentExchangeRates")
        #expect(latest.headers["SOAPAction"] == "http://www.mnb.hu/webservices/MNBArfolyamServiceSoap/GetCurrentExchangeRates")
        #expect(latest.body?.contains("<web:GetCurrentExchangeRates></web:GetCurrentExchangeRates>") == true)
        let range = rangeRequest
        #expect(range.subject == "GetExchangeRates" && range.headers["Content-Type"] == "text/xml; charset=utf-8")
        #expect(range.body?.contains("<web:startDate>2025-03-24</web:startDate><web:endDate>2025-03-28</web:endDate>") == true)
        #expect(range.body?.contains("<web:currencyNames>AUD,BRL,CAD,") == true)
        // The envelope is well-formed XML.
        let envelope = try XMLReader.Element(parsing: Array((range.body ?? "").utf8), root: "Envelope")
        #expect(envelope.child("Body")?.child("GetExchangeRates")?.children.count == 3)
    }

    @Test("reads GetCurrentExchangeRates' answer, and rejects an answer to another operation and a SOAP fault")
    func operations() throws {
        let current = try ProviderFixture.edited(file, replacing: "<GetExchangeRatesResponse ", with: "<GetCurrentExchangeRatesResponse ")
        let currentBody = String(decoding: current, as: UTF8.self)
            .replacingOccurrences(of: "GetExchangeRatesResult>", with: "GetCurrentExchangeRatesResult>")
            .replacingOccurrences(of: "</GetExchangeRatesResponse>", with: "</GetCurrentExchangeRatesResponse>")
        let latest = try provider.parse(Array(currentBody.utf8), of: provider.requests(for: .latest)[0])
        #expect(latest.count == 5)
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(Array(currentBody.utf8)) }))
        let fault = """
            <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Client</faultcode>\
            <faultstring>Invalid date</faultstring></s:Fault></s:Body></s:Envelope>
            """
        #expect(ProviderFixture.error { try parse(Array(fault.utf8)) } == .unexpectedLayout(provider: "MNB", "SOAP fault \"Invalid date\""))
    }

    @Test("rejects a rate that is not a decimal, a currency listed twice, a missing unit, a broken inner document")
    func badRows() throws {
        let day = Day("2025-03-28")!
        let garbage = try ProviderFixture.edited(file, replacing: "curr=\"EUR\"&gt;402,61", with: "curr=\"EUR\"&gt;402;61")
        #expect(ProviderFixture.error { try parse(garbage) } == .invalidRate(currency: CurrencyCode("EUR")!, day: day, text: "402;61"))
        let twice = try ProviderFixture.edited(file, replacing: "curr=\"EUR\"&gt;402,61", with: "curr=\"USD\"&gt;402,61")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let unit = try ProviderFixture.edited(file, replacing: "unit=\"1\" curr=\"EUR\"&gt;402,61", with: "curr=\"EUR\"&gt;402,61")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(unit) }))
        let inner = try ProviderFixture.edited(file, replacing: "&lt;/MNBExchangeRates&gt;", with: "")
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(inner) }))
    }

    @Test("a range of Hungarian holidays only, answered with an empty <MNBExchangeRates />, is no publication")
    func holidays() throws {
        // The service's answer for days without rates: the same envelope, the inner document without a day.
        let text = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        let start = try #require(text.range(of: "&lt;MNBExchangeRates&gt;"))
        let end = try #require(text.range(of: "&lt;/MNBExchangeRates&gt;"))
        let empty = text[..<start.lowerBound] + "&lt;MNBExchangeRates /&gt;" + text[end.upperBound...]
        #expect(try parse(Array(empty.utf8)) == [])
    }

    @Test("rejects a truncated answer, an HTML error page and an empty body")
    func notTheAnswer() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }
}
