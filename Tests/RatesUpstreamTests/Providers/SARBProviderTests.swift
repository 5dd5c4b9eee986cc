import RatesCore
import RatesUpstream
import Testing

@Suite("SARB adapter")
struct SARBProviderTests {
    let provider = SARBProvider(today: { Day("2026-03-27")! })
    let dollar = "sarb-southafrica/00_hared_GetTimeseriesObservations_EXCX135D_2026-03-23T00_00_00_2026-03-27T00_00_00.json"
    let yen = "sarb-southafrica/12_hared_GetTimeseriesObservations_EXCB120D_2026-03-23T00_00_00_2026-03-27T00_00_00.json"
    let shilling = "sarb-southafrica/13_hared_GetTimeseriesObservations_EXCB059D_2026-03-23T00_00_00_2026-03-27T00_00_00.json"

    func request(_ series: String) -> ProviderRequest {
        provider.requests(for: .latest).first { $0.subject == series }!
    }

    func parse(_ body: [UInt8], _ series: String = "EXCX135D") throws -> [ProviderPublication] {
        try provider.parse(body, of: request(series))
    }

    @Test("reads a series' four days: rand per dollar, yen and shillings per rand, as written")
    func series() throws {
        let dollars = try parse(ProviderFixture.bytes(dollar))
        #expect(dollars.map(\.day.description) == ["2026-03-24", "2026-03-25", "2026-03-26", "2026-03-27"])
        #expect(ProviderFixture.quote("USD", on: "2026-03-27", in: dollars) == quote("USD", "17.1302"))
        let yens = try parse(ProviderFixture.bytes(yen), "EXCB120D")
        #expect(ProviderFixture.quote("JPY", on: "2026-03-27", in: yens) == quote("JPY", "9.3324", .unitsPerPivot))
        // The trailing zero of 7.5890 stays.
        let shillings = try parse(ProviderFixture.bytes(shilling), "EXCB059D")
        #expect(ProviderFixture.quote("KES", on: "2026-03-27", in: shillings) == quote("KES", "7.5890", .unitsPerPivot))
        // Without its series given, the answer's title says which it is.
        #expect(try provider.parse(ProviderFixture.bytes(yen), of: ProviderRequest(url: "file")) == yens)
    }

    @Test("the kwacha series before 2013 is the old kwacha (ZMK); an observation without a value is no figure")
    func oldKwacha() throws {
        let kwacha = "sarb-southafrica/21_hared_GetTimeseriesObservations_EXCB071D_2026-03-23T00_00_00_2026-03-27T00_00_00.json"
        // The newest observation dated 2012-12-31, as the series holds the old kwacha's figures of that day.
        let old = try ProviderFixture.edited(kwacha, replacing: #"{"Period":"2026-03-27T00:00:00""#, with: #"{"Period":"2012-12-31T00:00:00""#)
        let publications = try parse(old, "EXCB071D")
        #expect(ProviderFixture.quote("ZMK", on: "2012-12-31", in: publications) == quote("ZMK", "1.1048", .unitsPerPivot))
        #expect(ProviderFixture.quote("ZMW", on: "2026-03-26", in: publications) == quote("ZMW", "1.0987", .unitsPerPivot))
        #expect(ProviderFixture.quote("ZMW", on: "2012-12-31", in: publications) == nil)
        let null = try ProviderFixture.edited(kwacha, replacing: #""Value":1.1048"#, with: #""Value":null"#)
        #expect(try parse(null, "EXCB071D").map(\.day.description) == ["2026-03-24", "2026-03-25", "2026-03-26"])
    }

    @Test("reads every recorded series: 23 currencies on each of the four days")
    func everySeries() throws {
        var all: [[ProviderPublication]] = []
        for (index, series) in SARBProviderTests.codes.enumerated() {
            let number = index < 10 ? "0\(index)" : "\(index)"
            let name = "sarb-southafrica/\(number)_hared_GetTimeseriesObservations_\(series)_2026-03-23T00_00_00_2026-03-27T00_00_00.json"
            all.append(try parse(ProviderFixture.bytes(name), series))
        }
        let currencies = Set(all.flatMap { $0.flatMap { $0.quotes.map(\.currency.rawValue) } })
        #expect(currencies.count == 23)
        #expect(all.allSatisfy { $0.count == 4 })
    }

    static let codes = [
        "EXCX135D", "EXCZ001D", "EXCZ002D", "EXCB080D", "EXCB051D", "EXCB036D", "EXCB031D", "EXCB121D", "EXCB003D", "EXCB122D", "EXCB123D",
        "EXCB094D", "EXCB120D", "EXCB059D", "EXCB063D", "EXCB081D", "EXCB013D", "EXCB015D", "EXCB016D", "EXCB126D", "EXCB115D", "EXCB071D",
        "EXCB118D",
    ]

    @Test("asks for each of the 23 series over the whole window")
    func requests() {
        let range = provider.requests(for: .range(Day("2026-03-23")!, Day("2026-03-27")!))
        #expect(range.map(\.subject) == SARBProviderTests.codes)
        #expect(
            range[0].url
                == "https://custom.resbank.co.za/SarbWebApi/WebIndicators/Shared/GetTimeseriesObservations/EXCX135D/"
                + "2026-03-23T00:00:00/2026-03-27T00:00:00")
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(provider.requests(for: .latest)[22].url.hasSuffix("/EXCB118D/2026-03-20T00:00:00/2026-03-27T00:00:00"))
    }

    @Test("rejects a value that is not a decimal, a day twice, a bad day, another series than asked for, an unknown title")
    func alteredValues() throws {
        let day = Day("2026-03-27")!
        let value = try ProviderFixture.edited(dollar, replacing: #""Value":17.1302"#, with: #""Value":"n/a""#)
        #expect(ProviderFixture.error { try parse(value) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "n/a"))
        let twice = try ProviderFixture.edited(dollar, replacing: #""Period":"2026-03-26T00:00:00""#, with: #""Period":"2026-03-27T00:00:00""#)
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateDay(day))
        let date = try ProviderFixture.edited(dollar, replacing: #""Period":"2026-03-27T00:00:00""#, with: #""Period":"27/03/2026""#)
        #expect(ProviderFixture.error { try parse(date) } == .invalidDay("27/03/2026"))
        #expect(ProviderFixture.error { try parse(ProviderFixture.bytes(yen), "EXCX135D") }?.isLayout(of: "SARB") == true)
        let title = try ProviderFixture.edited(dollar, replacing: #""Timeseries":"Rand per US Dollar""#, with: #""Timeseries":"Rand per Peso""#)
        #expect(ProviderFixture.error { try parse(title) }?.isLayout(of: "SARB") == true)
    }

    @Test("rejects every truncation, an HTML error page, an empty body; an empty series is no publication")
    func notTheSeries() throws {
        for cut in ProviderFixture.truncations(of: try ProviderFixture.bytes(dollar), stride: 13) {
            #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(cut) }))
        }
        #expect(ProviderFixture.isUnexpectedLayout(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }))
        #expect(ProviderFixture.error { try parse([]) } == .empty)
        #expect(try parse(Array("[]".utf8)).isEmpty)
    }

    @Test("each recording imports as a file of the source's without its series named: its title says which")
    func imports() throws {
        for (index, series) in SARBProviderTests.codes.enumerated() {
            let number = index < 10 ? "0\(index)" : "\(index)"
            let name = "sarb-southafrica/\(number)_hared_GetTimeseriesObservations_\(series)_2026-03-23T00_00_00_2026-03-27T00_00_00.json"
            #expect(try ProviderFile.read([ProviderFixture.bytes(name)], provider: SARBProvider()).count == 4)
        }
    }
}
