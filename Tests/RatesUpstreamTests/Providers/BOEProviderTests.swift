import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("BOE adapter")
struct BOEProviderTests {
    let provider = BOEProvider(today: { Day("2026-03-23")! })
    let file = "boe-uk/iadb_XUDL_2026-03-17_2026-03-20.csv"

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("the header alone, a range without an observation (a holiday span), is no publication")
    func headerOnly() throws {
        // The recording's header line, as the database answers a range of holidays.
        let text = String(decoding: try ProviderFixture.bytes(file), as: UTF8.self)
        let header = try #require(text.split(whereSeparator: \.isNewline).first)
        #expect(try parse(Array((header + "\r\n").utf8)).isEmpty)
    }

    @Test("reads the XUDL series of 17…20 Mar 2026: 4 days of 26 currencies per 1 GBP, series mapped to codes")
    func readsRange() throws {
        let publications = try parse(try ProviderFixture.bytes(file))
        #expect(publications.map(\.day.description) == ["2026-03-17", "2026-03-18", "2026-03-19", "2026-03-20"])
        #expect(publications.allSatisfy { $0.quotes.count == 26 })
        #expect(publications.allSatisfy { $0.quotes.allSatisfy { $0.unit == 1 && $0.direction == .unitsPerPivot } })
        func value(_ code: String, _ day: String = "2026-03-17") -> String? { ProviderFixture.quote(code, on: day, in: publications)?.value }
        #expect(value("USD") == "1.3343")
        #expect(value("EUR") == "1.1577")
        #expect(value("SAR") == "5.0103")
        #expect(value("ILS") == "4.1357")
        #expect(value("KRW", "2026-03-20") == "2000.9579")
        #expect(value("RON", "2026-03-20") == "5.8721")
    }

    @Test("a value that is not a decimal rejects the answer")
    func garbageRate() throws {
        let body = try ProviderFixture.edited(file, replacing: "17 Mar 2026,1.3343,", with: "17 Mar 2026,n/a,")
        #expect(ProviderFixture.error(body, provider) == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-03-17")!, text: "n/a"))
    }

    @Test("a series twice in the header is a duplicate currency; an unknown series is a layout error")
    func duplicateAndUnknownSeries() throws {
        let twice = try ProviderFixture.edited(file, replacing: "DATE,XUDLUSS,XUDLERS", with: "DATE,XUDLUSS,XUDLUSS")
        #expect(ProviderFixture.error(twice, provider) == .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-03-17")!))
        let unknown = try ProviderFixture.edited(file, replacing: "DATE,XUDLUSS,XUDLERS", with: "DATE,XUDLUSS,XUMLERS")
        #expect(ProviderFixture.error(unknown, provider)?.isLayout(of: "BOE") == true)
    }

    @Test("a truncated body, an HTML error page and an empty body are rejected")
    func brokenBodies() throws {
        #expect(ProviderFixture.error(try ProviderFixture.truncated(file), provider)?.isLayout(of: "BOE") == true)
        #expect(ProviderFixture.error(ProviderFixture.htmlErrorPage, provider)?.isLayout(of: "BOE") == true)
        #expect(ProviderFixture.error([], provider) == .empty)
    }

    @Test("latest asks for the last seven days up to now, a range for its dates, all 26 series in one request")
    func requests() {
        let series = "XUDLUSS,XUDLERS,XUDLJYS,XUDLCDS,XUDLSFS,XUDLADS,XUDLNDS,XUDLNKS,XUDLSKS,XUDLDKS,XUDLHDS,XUDLSGS,XUDLSRS,XUDLZRS,XUDLTWS,XUDLBK25,XUDLBK33,XUDLBK47,XUDLBK78,XUDLBK83,XUDLBK87,XUDLBK89,XUDLBK93,XUDLBK95,XUDLBK97,XUDLZOS4"
        let root = "https://www.bankofengland.co.uk/boeapps/database/_iadb-fromshowcolumns.asp?csv.x=yes"
        #expect(provider.requests(for: .latest).map(\.url) == [root + "&Datefrom=16/Mar/2026&Dateto=now&SeriesCodes=\(series)&CSVF=TN&UsingCodes=Y"])
        #expect(provider.requests(for: .range(Day("2026-03-17")!, Day("2026-03-20")!)).map(\.url) == [
            root + "&Datefrom=17/Mar/2026&Dateto=20/Mar/2026&SeriesCodes=\(series)&CSVF=TN&UsingCodes=Y"
        ])
    }
}
