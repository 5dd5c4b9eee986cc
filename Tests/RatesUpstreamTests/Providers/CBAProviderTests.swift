import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("CBA adapter")
struct CBAProviderTests {
    let provider = CBAProvider()
    let latestFile = "cba-armenia/soap_ExchangeRatesLatest_2026-03-18.xml"
    let rangeFile = "cba-armenia/soap_ExchangeRatesByDateRangeByISO_2026-03-01_2026-03-19.xml"
    let day = Day("2026-03-18")!

    func parse(_ body: [UInt8], range: Bool = false) throws -> [ProviderPublication] {
        let request = range ? provider.requests(for: .range(Day("2026-03-01")!, Day("2026-03-19")!))[0] : provider.requests(for: .latest)[0]
        return try provider.parse(body, of: request)
    }

    @Test("reads the latest answer of 2026-03-18: 28 currencies and the SDR's XDR, AMD per Amount units, gold and silver skipped")
    func latest() throws {
        let publications = try parse(ProviderFixture.bytes(latestFile))
        #expect(publications.map(\.day) == [day])
        let table = try #require(publications.first)
        #expect(table.quotes.count == 28)
        #expect(table.quotes.allSatisfy { $0.direction == .pivotPerUnits })
        #expect(table["USD"] == quote("USD", "377.39"))
        #expect(table["EUR"] == quote("EUR", "435.55"))
        #expect(table["XDR"] == quote("XDR", "513.32"))
        #expect(table["IRR"] == quote("IRR", "0.028677", unit: 100))
        #expect(table["JPY"] == quote("JPY", "23.735", unit: 10))
        #expect(table["HKD"] == quote("HKD", "48.145"))
        #expect(table["XAU"] == nil && table["XAG"] == nil)
        #expect(table.quotes.filter { $0.unit != 1 }.map(\.currency.rawValue).sorted() == ["IRR", "JPY", "KZT", "UZS"])
    }

    @Test("reads the range answer (a .NET DataSet): 13 working days of 28 currencies, the last the same as the latest answer")
    func range() throws {
        let publications = try parse(ProviderFixture.bytes(rangeFile), range: true)
        #expect(publications.count == 13)
        #expect(publications.first?.day == Day("2026-03-02")!)
        #expect(publications.last?.day == day)
        #expect(publications.allSatisfy { $0.quotes.count == 28 })
        #expect(ProviderFixture.quote("USD", on: "2026-03-02", in: publications) == quote("USD", "376.88"))
        #expect(ProviderFixture.quote("IRR", on: "2026-03-05", in: publications) == quote("IRR", "0.028699", unit: 100))
        #expect(ProviderFixture.quote("JPY", on: "2026-03-02", in: publications) == quote("JPY", "24.02", unit: 10))
        let latest = try parse(ProviderFixture.bytes(latestFile))
        #expect(Set(publications.last!.quotes.map { "\($0)" }) == Set(latest[0].quotes.map { "\($0)" }))
        // Each answer reads alike whatever request it is taken as the answer to (rates-relay import).
        #expect(try parse(ProviderFixture.bytes(rangeFile), range: false) == publications)
    }

    @Test("asks for the latest day with ExchangeRatesLatest, and for a range with one ExchangeRatesByDateRangeByISO naming the currencies")
    func requests() throws {
        let latest = try #require(provider.requests(for: .latest).first)
        #expect(latest.url == "https://api.cba.am/exchangerates.asmx")
        #expect(latest.method == .post)
        #expect(latest.headers["SOAPAction"] == "\"http://www.cba.am/ExchangeRatesLatest\"")
        #expect(latest.body?.contains("<ExchangeRatesLatest xmlns=\"http://www.cba.am/\"></ExchangeRatesLatest>") == true)
        let range = provider.requests(for: .range(Day("2026-03-01")!, Day("2026-03-19")!))
        #expect(range.count == 1)
        #expect(range[0].headers["SOAPAction"] == "\"http://www.cba.am/ExchangeRatesByDateRangeByISO\"")
        let body = try #require(range[0].body)
        #expect(body.contains("<DateFrom>2026-03-01</DateFrom><DateTo>2026-03-19</DateTo>"))
        #expect(body.contains("<ISOCodes>USD,GBP,AUD,EUR,XDR,"))
        #expect(!body.contains("XAU"))
        #expect(CBAProvider(baseURL: "http://127.0.0.1:8080/cba").requests(for: .latest)[0].url == "http://127.0.0.1:8080/cba")
    }

    @Test("rejects a value that is not a decimal, in either answer")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(latestFile, replacing: "<Rate>377.39</Rate>", with: "<Rate>377,3x9</Rate>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "377,3x9"))
        let range = try ProviderFixture.edited(rangeFile, replacing: "<Rate>376.88</Rate>", with: "<Rate>-376.88</Rate>")
        #expect(
            ProviderFixture.error { try parse(range, range: true) }
                == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-03-02")!, text: "-376.88"))
    }

    @Test("rejects a currency listed twice")
    func duplicateCurrency() throws {
        let body = try ProviderFixture.edited(latestFile, replacing: "<ISO>GBP</ISO>", with: "<ISO>USD</ISO>")
        #expect(ProviderFixture.error { try parse(body) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let range = try ProviderFixture.edited(rangeFile, replacing: "<ISO>GBP</ISO>", with: "<ISO>USD</ISO>")
        #expect(ProviderFixture.error { try parse(range, range: true) } == .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-03-02")!))
    }

    @Test("rejects a bad code, amount or day, and an answer of another operation")
    func badFields() throws {
        let code = try ProviderFixture.edited(latestFile, replacing: "<ISO>GBP</ISO>", with: "<ISO>GB</ISO>")
        #expect(ProviderFixture.error { try parse(code) } == .invalidCurrencyCode("GB", day: day))
        let amount = try ProviderFixture.edited(latestFile, replacing: "<Amount>100</Amount>", with: "<Amount>one hundred</Amount>")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(amount) }))
        let date = try ProviderFixture.edited(latestFile, replacing: "<CurrentDate>2026-03-18T00:00:00", with: "<CurrentDate>2026-02-30T00:00:00")
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("2026-02-30T00:00:00"))
        let rangeDate = try ProviderFixture.edited(rangeFile, replacing: "2026-03-02T00:00:00+04:00", with: "2026-03-02T12:00:00+04:00")
        #expect(ProviderFixture.error { try parse(rangeDate, range: true) } == .invalidDay("2026-03-02T12:00:00+04:00"))
        let other = try ProviderFixture.edited(latestFile, replacing: "ExchangeRatesLatestResponse xmlns", with: "ISOCodesResponse xmlns")
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(other) }) || ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(other) }))
    }

    @Test("a range without any day of rates, a diffgram without rows, is no publication")
    func noDays() throws {
        // The recorded range answer with its rows taken out: .NET writes an empty DataSet's diffgram with no DocumentElement.
        let text = String(decoding: try ProviderFixture.bytes(rangeFile), as: UTF8.self)
        let open = try #require(text.range(of: "<DocumentElement xmlns=\"\">"))
        let close = try #require(text.range(of: "</DocumentElement>"))
        let rowless = Array((text[..<open.lowerBound] + text[close.upperBound...]).utf8)
        #expect(try parse(rowless).isEmpty)
        let emptyTable = Array((text[..<open.upperBound] + text[close.lowerBound...]).utf8)
        #expect(try parse(emptyTable).isEmpty)
    }

    @Test("rejects truncated bodies, an HTML error page, a SOAP fault, an empty body and an answer without rates")
    func notTheAnswer() throws {
        for file in [latestFile, rangeFile] {
            #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(file)) }))
            for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(file), stride: 997) {
                #expect(ProviderFixture.error { try parse(cut) } != nil)
            }
        }
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        let fault = Array(
            """
            <?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>\
            <soap:Fault><faultcode>soap:Server</faultcode><faultstring>Server was unable to process request.</faultstring></soap:Fault>\
            </soap:Body></soap:Envelope>
            """.utf8)
        #expect(ProviderFixture.error { try parse(fault) }?.isLayout(of: "CBA") == true)
        let noRates = Array(
            """
            <?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>\
            <ExchangeRatesLatestResponse xmlns="http://www.cba.am/"><ExchangeRatesLatestResult><CurrentDate>2026-03-18T00:00:00</CurrentDate>\
            <Rates></Rates></ExchangeRatesLatestResult></ExchangeRatesLatestResponse></soap:Body></soap:Envelope>
            """.utf8)
        #expect(ProviderFixture.error { try parse(noRates) } == .emptyDay(day))
    }
}
