import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BDI adapter")
struct BDIProviderTests {
    let provider = BDIProvider(today: { Day("2026-02-14")! })
    let file = "bdi-italy/dailyRates_EUR_2026-02-10.csv"

    func request(_ day: String) -> ProviderRequest {
        provider.requests(for: .range(Day(day)!, Day(day)!))[0]
    }

    func parse(_ body: [UInt8], day: String = "2026-02-10") throws -> [ProviderPublication] {
        try provider.parse(body, of: request(day))
    }

    @Test("reads the dailyRates file of 2026-02-10: 150 currencies, units per 1 EUR as published")
    func readsOneDay() throws {
        let publications = try parse(try ProviderFixture.bytes(file))
        #expect(publications.count == 1)
        #expect(publications[0].day == Day("2026-02-10"))
        #expect(publications[0].quotes.count == 150)
        #expect(publications[0].quotes.allSatisfy { $0.unit == 1 && $0.direction == .unitsPerPivot })
        func value(_ code: String) -> String? { ProviderFixture.quote(code, on: "2026-02-10", in: publications)?.value }
        #expect(value("USD") == "1.1894")
        #expect(value("GBP") == "0.86950")
        #expect(value("BBD") == "2.378800")
        #expect(value("VND") == "30802")
        #expect(value("XDR") == "0.862332")
        #expect(value("AFN") == "75.2664")
    }

    @Test("a currency listed once per country (XOF eight times) is one quote; N.A. currencies are left out")
    func sharedCurrenciesAndNotAvailable() throws {
        let publications = try parse(try ProviderFixture.bytes(file))
        let codes = publications[0].quotes.map(\.currency.rawValue)
        #expect(codes.filter { $0 == "XOF" }.count == 1)
        #expect(ProviderFixture.quote("XOF", on: "2026-02-10", in: publications)?.value == "655.957")
        for absent in ["RUB", "BYN", "IRR", "KPW", "EUR"] { #expect(!codes.contains(absent)) }
    }

    @Test("reads each of the three recorded days with 150 currencies")
    func readsThreeDays() throws {
        for day in ["2026-02-09", "2026-02-10", "2026-02-11"] {
            let publications = try parse(try ProviderFixture.bytes("bdi-italy/dailyRates_EUR_\(day).csv"), day: day)
            #expect(publications.map(\.day) == [Day(day)!])
            #expect(publications[0].quotes.count == 150)
        }
    }

    @Test("a rate that is not a decimal rejects the answer")
    func garbageRate() throws {
        let body = try ProviderFixture.edited(file, replacing: "U.S. Dollar,USD,001,1.1894", with: "U.S. Dollar,USD,001,1.18x94")
        #expect(ProviderFixture.error(body, provider, request: request("2026-02-10")) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-02-10")!, text: "1.18x94"))
    }

    @Test("one code with two different figures is a duplicate currency")
    func duplicateCurrency() throws {
        let body = try ProviderFixture.edited(file, replacing: "BURKINA FASO,CFA Franc,XOF,209,655.957", with: "BURKINA FASO,CFA Franc,XOF,209,655.958")
        #expect(ProviderFixture.error(body, provider, request: request("2026-02-10")) == .duplicateCurrency(CurrencyCode("XOF")!, day: Day("2026-02-10")!))
    }

    @Test("a quote with another convention (per 1 US dollar) is a layout this adapter does not read")
    func otherConvention() throws {
        let body = try ProviderFixture.edited(file, replacing: "ARGENTINA,Peso,ARS,216,1687.7459,Foreign currency amount for 1 Euro.", with: "ARGENTINA,Peso,ARS,216,1418.9,Foreign currency amount for 1 Dollar.")
        #expect(ProviderFixture.error(body, provider, request: request("2026-02-10"))?.isLayout(of: "BDI") == true)
    }

    @Test("a row of another day than the one asked for rejects the answer")
    func otherDay() throws {
        #expect(ProviderFixture.error(try ProviderFixture.bytes(file), provider, request: request("2026-02-11"))?.isLayout(of: "BDI") == true)
    }

    @Test("a truncated body, cut inside a row or before the disclaimer, is rejected")
    func truncated() throws {
        let cut = try ProviderFixture.truncated(file)
        #expect(ProviderFixture.error(cut, provider, request: request("2026-02-10"))?.isLayout(of: "BDI") == true)
        let text = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        let beforeDisclaimer = Array(text[..<text.range(of: "UNITED KINGDOM")!.lowerBound].utf8)
        #expect(ProviderFixture.error(beforeDisclaimer, provider, request: request("2026-02-10"))?.isLayout(of: "BDI") == true)
    }

    @Test("a holiday's answer, the header and the disclaimer without rows, or every row N.A., is no publication")
    func holiday() throws {
        // The recording with its rows taken out (the header, the blank lines and the disclaimer left): the
        // answer for a day Banca d'Italia does not quote.
        let text = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        var lines = text.components(separatedBy: "\n")
        let firstBlank = try #require(lines.indices.dropFirst().first { lines[$0].isEmpty })
        lines.removeSubrange(1..<firstBlank)
        #expect(try parse(Array(lines.joined(separator: "\n").utf8)).isEmpty)
        // The same rows, each with N.A. for its rate: listed, none quoted.
        let unquoted = text.components(separatedBy: "\n").enumerated().map { index, line in
            guard index > 0, !line.isEmpty, !line.hasPrefix("#") else { return line }
            var fields = line.components(separatedBy: ",")
            fields[fields.count - 3] = "N.A."
            return fields.joined(separator: ",")
        }
        #expect(try parse(Array(unquoted.joined(separator: "\n").utf8)).isEmpty)
        // Without the disclaimer, the header alone is a cut answer.
        #expect(ProviderFixture.error(Array((lines[0] + "\n").utf8), provider, request: request("2026-02-10"))?.isLayout(of: "BDI") == true)
    }

    @Test("an HTML error page and an empty body are rejected")
    func htmlAndEmpty() {
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider)?.isLayout(of: "BDI") == true)
        #expect(ProviderFixture.error([], provider) == .empty)
    }

    @Test("latest asks for today's weekday, a range for every weekday in it")
    func requests() {
        // 2026-02-14 is a Saturday: the newest publication is Friday's.
        #expect(provider.requests(for: .latest).map(\.url) == [
            "https://tassidicambio.bancaditalia.it/terzevalute-wf-web/rest/v1.0/dailyRates?referenceDate=2026-02-13&currencyIsoCode=EUR&lang=en"
        ])
        let range = provider.requests(for: .range(Day("2026-02-06")!, Day("2026-02-10")!))
        #expect(range.map(\.subject) == ["2026-02-06", "2026-02-09", "2026-02-10"])
        #expect(range.allSatisfy { $0.headers["Accept"] == "text/csv" })
        #expect(BDIProvider(baseURL: "http://localhost:8080/bdi").requests(for: .range(Day("2026-02-09")!, Day("2026-02-09")!)).map(\.url) == [
            "http://localhost:8080/bdi/dailyRates?referenceDate=2026-02-09&currencyIsoCode=EUR&lang=en"
        ])
    }
}
