import Foundation
import RatesCore
import RatesUpstream
import Testing

@Suite("SBI adapter")
struct SBIProviderTests {
    let provider = SBIProvider()
    let group9 = "sbi-iceland/xmltimeseries_GroupID9_2026-03-24_2026-03-28.xml"
    let group7 = "sbi-iceland/xmltimeseries_GroupID7_2026-03-24_2026-03-28.xml"

    func parse(_ body: [UInt8], group: String) throws -> [ProviderPublication] {
        let request = try #require(provider.requests(for: .range(Day("2026-03-24")!, Day("2026-03-28")!)).first { $0.subject == group })
        return try provider.parse(body, of: request)
    }

    @Test("reads group 9 of 2026-03-24 to 03-27: 4 days of 10 official reference rates, ISK per 1 unit")
    func referenceRates() throws {
        let days = try parse(ProviderFixture.bytes(group9), group: "9")
        #expect(days.map(\.day) == ["2026-03-24", "2026-03-25", "2026-03-26", "2026-03-27"].map { Day($0)! })
        #expect(days.allSatisfy { $0.quotes.count == 10 && $0.quotes.allSatisfy { $0.unit == 1 && $0.direction == .pivotPerUnits } })
        let dollar = PublishedQuote(currency: CurrencyCode("USD")!, value: "124.440000", direction: .pivotPerUnits)
        #expect(ProviderFixture.quote("USD", in: days[0]) == dollar)
        #expect(ProviderFixture.quote("EUR", in: days[3])?.value == "143.600000")
        #expect(ProviderFixture.quote("JPY", in: days[1])?.value == "0.778200")
        #expect(ProviderFixture.quote("XDR", in: days[2])?.value == "169.100000")
        #expect(Set(days[0].quotes.map(\.currency.rawValue)) == ["USD", "DKK", "EUR", "JPY", "CAD", "NOK", "XDR", "GBP", "CHF", "SEK"])
    }

    @Test("reads group 7 of the same days: 22 registered mid rates, the series without entries left out")
    func midRates() throws {
        let days = try parse(ProviderFixture.bytes(group7), group: "7")
        #expect(days.count == 4)
        #expect(days.allSatisfy { $0.quotes.count == 22 })
        #expect(ProviderFixture.quote("CNY", in: days[0])?.value == "18.052000")
        #expect(ProviderFixture.quote("KWD", in: days[3])?.value == "404.960000")
        #expect(ProviderFixture.quote("NGN", in: days[1])?.value == "0.089300")
    }

    @Test("asks for each group over the range, and for the last seven days as the latest")
    func requests() {
        #expect(
            provider.requests(for: .range(Day("2026-03-24")!, Day("2026-03-28")!)) == [
                ProviderRequest(
                    url: "https://sedlabanki.is/xmltimeseries/Default.aspx?DagsFra=2026-03-24&DagsTil=2026-03-28&GroupID=9&Type=xml", subject: "9"),
                ProviderRequest(
                    url: "https://sedlabanki.is/xmltimeseries/Default.aspx?DagsFra=2026-03-24&DagsTil=2026-03-28&GroupID=7&Type=xml", subject: "7"),
            ])
        let today = Day(containing: Date())
        #expect(
            provider.requests(for: .latest).map(\.url).first
                == "https://sedlabanki.is/xmltimeseries/Default.aspx?DagsFra=\(today.adding(days: -7))&DagsTil=\(today)&GroupID=9&Type=xml")
    }

    @Test("rejects a value that is not a decimal, a series listed twice, an unknown series with entries, a date at another hour")
    func badRows() throws {
        let garbage = try ProviderFixture.edited(group9, replacing: "<Value>124.440000</Value>", with: "<Value>124.44.0000</Value>")
        #expect(
            ProviderFixture.error { try parse(garbage, group: "9") }
                == .invalidRate(currency: CurrencyCode("USD")!, day: Day("2026-03-24")!, text: "124.44.0000"))
        // The Danish krone's series under the dollar's ID: the dollar twice.
        let twice = try ProviderFixture.edited(group9, replacing: "<TimeSeries ID=\"4061\">", with: "<TimeSeries ID=\"4055\">")
        #expect(ProviderFixture.error { try parse(twice, group: "9") } == .duplicateCurrency(CurrencyCode("USD")!, day: Day("2026-03-24")!))
        let unknown = try ProviderFixture.edited(group9, replacing: "<TimeSeries ID=\"4061\">", with: "<TimeSeries ID=\"4062\">")
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(unknown, group: "9") }))
        let hour = try ProviderFixture.edited(group9, replacing: "<Date>3/24/2026 12:00:00 AM</Date><Value>124.44", with: "<Date>3/24/2026 1:00:00 PM</Date><Value>124.44")
        #expect(ProviderFixture.error { try parse(hour, group: "9") } == .invalidDay("3/24/2026 1:00:00 PM"))
        // Group 7's answer to the request for group 9.
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.bytes(group7), group: "9") }))
    }

    @Test("a buying or selling series with figures is left out: only the mid rates are read")
    func buyingAndSellingSkipped() throws {
        // The dollar's mid series turned into its buying series (ID 4054, "skráð kaupgengi"), as the bank's
        // answers of periods when it published buying and selling rates carry them beside the mid rates.
        let edited = try #require(
            ProviderFixture.replacing(
                "<TimeSeries ID=\"4055\"><FameName><![CDATA[]]></FameName><Name><![CDATA[Bandaríkjadalur]]></Name><Description><![CDATA[Bandaríkjadalur, skráð miðgengi.]]>",
                with: "<TimeSeries ID=\"4054\"><FameName><![CDATA[]]></FameName><Name><![CDATA[Bandaríkjadalur]]></Name><Description><![CDATA[Bandaríkjadalur, skráð kaupgengi.]]>",
                in: try ProviderFixture.bytes(group9)))
        let days = try parse(edited, group: "9")
        #expect(days.count == 4)
        #expect(days.allSatisfy { $0.quotes.count == 9 && $0["USD"] == nil })
        #expect(ProviderFixture.quote("DKK", in: days[0])?.value == "19.274000")
    }

    @Test("a retired currency's mid series with figures reads as its code: the rouble, the kuna, the euro's legacy currencies")
    func retiredCurrencies() throws {
        // The yuan's figures under the rouble's series (ID 30), as group 7 answers carried them until 2022.
        let rouble = try ProviderFixture.edited(
            group7, replacing: "<TimeSeries ID=\"29\"><FameName><![CDATA[]]></FameName><Name><![CDATA[Kínverskt júan]]></Name><Description><![CDATA[Kínverskt júan renminbi, skráð miðgengi.]]>",
            with: "<TimeSeries ID=\"30\"><FameName><![CDATA[]]></FameName><Name><![CDATA[Rússnesk rúbla]]></Name><Description><![CDATA[Rússnesk rúbla, skráð miðgengi.]]>")
        let days = try parse(rouble, group: "7")
        #expect(days.allSatisfy { $0.quotes.count == 22 && $0["CNY"] == nil })
        #expect(ProviderFixture.quote("RUB", in: days[0]) == quote("RUB", "18.052000"))
        // The krone's figures under the Deutsche Mark's series (ID 4112), as group 9 answers carried them until 2001.
        let mark = try ProviderFixture.edited(
            group9, replacing: "<TimeSeries ID=\"4061\"><FameName><![CDATA[]]></FameName><Name><![CDATA[Dönsk króna]]></Name><Description><![CDATA[Dönsk króna, skráð miðgengi.]]>",
            with: "<TimeSeries ID=\"4112\"><FameName><![CDATA[]]></FameName><Name><![CDATA[Þýskt mark]]></Name><Description><![CDATA[Þýskt mark, skráð miðgengi.]]>")
        #expect(ProviderFixture.quote("DEM", in: try parse(mark, group: "9").first) == quote("DEM", "19.274000"))
    }

    @Test("a day before 1999 is read (history from 1981), and the euro series' figure of such a day is the ECU")
    func beforeTheEuro() throws {
        // The dollar's and the euro's first entries moved to 1998-12-30, as a group 9 answer of 1998 dates them.
        var edited = try ProviderFixture.edited(
            group9, replacing: "<Date>3/24/2026 12:00:00 AM</Date><Value>124.440000</Value>", with: "<Date>12/30/1998 12:00:00 AM</Date><Value>124.440000</Value>")
        edited = try #require(
            ProviderFixture.replacing(
                "<Date>3/24/2026 12:00:00 AM</Date><Value>144.000000</Value>", with: "<Date>12/30/1998 12:00:00 AM</Date><Value>144.000000</Value>", in: edited))
        let days = try parse(edited, group: "9")
        #expect(days.first?.day == Day("1998-12-30")!)
        #expect(days.first?.quotes.sorted { $0.currency < $1.currency } == [quote("USD", "124.440000"), quote("XEU", "144.000000")])
        #expect(ProviderFixture.quote("EUR", on: "2026-03-25", in: days)?.value == "143.400000")
        #expect(provider.historyStart == Day("1981-01-01")!)
        // A day before the 1981 króna is refused.
        let older = try ProviderFixture.edited(
            group9, replacing: "<Date>3/24/2026 12:00:00 AM</Date><Value>124.440000</Value>", with: "<Date>12/31/1980 12:00:00 AM</Date><Value>124.440000</Value>")
        #expect(ProviderFixture.error { try parse(older, group: "9") } == .dayOutOfRange(Day("1980-12-31")!))
    }

    @Test("a window of holidays only, every series without entries, is no publication")
    func noWorkingDay() throws {
        let text = String(decoding: try ProviderFixture.bytes(group9), as: UTF8.self)
        let empty = text.replacing(/<TimeSeriesData>.*?<\/TimeSeriesData>/, with: "<TimeSeriesData />")
        #expect(!empty.contains("<Entry>"))
        #expect(try parse(Array(empty.utf8), group: "9") == [])
    }

    @Test("rejects a truncated answer, an HTML error page and an empty body")
    func notTheSeries() throws {
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.truncated(group7), group: "7") }))
        #expect(ProviderFixture.isNotTheDocument(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage, group: "7") }))
        #expect(ProviderFixture.error { try parse([], group: "7") } == .empty)
    }
}
