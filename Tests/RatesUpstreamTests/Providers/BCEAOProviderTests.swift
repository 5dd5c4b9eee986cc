import RatesCore
import RatesUpstream
import Testing

@Suite("BCEAO adapter")
struct BCEAOProviderTests {
    let provider = BCEAOProvider(today: { Day("2026-03-19")! })
    let folder = "bceao-westafrica/"
    let file = "bceao-westafrica/00_fr_cours_get_all_reference_by_date_dateJour=2026-03-16.html"
    let day = Day("2026-03-16")!

    func parse(_ body: [UInt8]) throws -> [ProviderPublication] {
        try provider.parse(body, of: provider.requests(for: .latest)[0])
    }

    @Test("reads the table of 2026-03-16: 27 currencies by their French names, XOF per unit, French notation made plain")
    func dailyTable() throws {
        let publications = try parse(ProviderFixture.bytes(file))
        #expect(publications.count == 1)
        let table = try #require(publications.first)
        #expect(table.day == day)
        #expect(table.quotes.count == 27)
        #expect(table.quotes.allSatisfy { $0.direction == .pivotPerUnits && $0.unit == 1 })
        #expect(table["USD"] == quote("USD", "605.5200"))
        #expect(table["EUR"] == quote("EUR", "655.9570"))
        // A point between thousands, a decimal comma, trailing zeros kept.
        #expect(table["KWD"] == quote("KWD", "1953.0200"))
        #expect(table["KRW"] == quote("KRW", "0.4100"))
        #expect(table["SEK"]?.value == "59.4700")
        #expect(table["CZK"]?.value == "26.2200")
        #expect(table["TRY"]?.value == "15.9400")
        #expect(table["NZD"]?.value == "347.1400")
        #expect(table["BRL"]?.value == "107.0600")
    }

    @Test("reads a name whose accented letters the answer writes as escaped UTF-8 bytes as the same name written plainly")
    func escapedNames() throws {
        let whole = try parse(ProviderFixture.bytes(file))
        // The recording writes "Couronne su\xC3\xA9doise" (and "Dollar n\xC3\xA9o-z\xC3\xA9landais", read above as NZD);
        // the name in plain UTF-8 reads the same.
        let plain = try ProviderFixture.edited(file, replacing: "<td>Couronne su\\xC3\\xA9doise</td>", with: "<td>Couronne suédoise</td>")
        #expect(try parse(plain) == whole)
        // Escaped bytes that are no UTF-8 make a name the adapter does not know: its row is left out.
        let broken = try ProviderFixture.edited(file, replacing: "<td>Couronne su\\xC3\\xA9doise</td>", with: "<td>Couronne su\\xC3doise</td>")
        #expect(try parse(broken).first?["SEK"] == nil)
        #expect(try parse(broken).first?.quotes.count == 26)
    }

    @Test("reads each recorded day under its own heading's date")
    func everyFile() throws {
        let names = [
            "00_fr_cours_get_all_reference_by_date_dateJour=2026-03-16.html", "01_fr_cours_get_all_reference_by_date_dateJour=2026-03-17.html",
            "02_fr_cours_get_all_reference_by_date_dateJour=2026-03-18.html", "03_fr_cours_get_all_reference_by_date_dateJour=2026-03-19.html",
        ]
        let days = try names.map { try parse(ProviderFixture.bytes(folder + $0)).map(\.day) }
        #expect(days == [[Day("2026-03-16")!], [Day("2026-03-17")!], [Day("2026-03-18")!], [Day("2026-03-19")!]])
        let wednesday = try parse(ProviderFixture.bytes(folder + names[2]))
        #expect(wednesday.first?["KWD"]?.value == "1954.2800")
        #expect(wednesday.first?["CHF"]?.value == "686.0000")
    }

    @Test("asks for one day per request, Sunday to Friday; the newest publication as today and the two days before")
    func requests() {
        #expect(
            provider.requests(for: .latest).map(\.url) == [
                "https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-17",
                "https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-18",
                "https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-19",
            ])
        // 2026-03-13 is a Friday: the Saturday is left out, the Sunday asked for.
        let range = provider.requests(for: .range(Day("2026-03-13")!, Day("2026-03-16")!))
        #expect(
            range.map(\.url) == [
                "https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-13",
                "https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-15",
                "https://www.bceao.int/fr/cours/get_all_reference_by_date?dateJour=2026-03-16",
            ])
        #expect(range.allSatisfy { $0.method == .get && $0.body == nil })
        #expect(
            BCEAOProvider(baseURL: "http://127.0.0.1:8080", today: { Day("2026-03-16")! }).requests(for: .latest).last?.url
                == "http://127.0.0.1:8080/fr/cours/get_all_reference_by_date?dateJour=2026-03-16")
    }

    @Test("rejects a value that is not a decimal, or not in French notation")
    func garbageValue() throws {
        let body = try ProviderFixture.edited(file, replacing: "<td>605,5200</td>", with: "<td>605,52x0</td>")
        #expect(ProviderFixture.error { try parse(body) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: "605,52x0"))
        let grouped = try ProviderFixture.edited(file, replacing: "<td>1.953,0200</td>", with: "<td>19.53,0200</td>")
        #expect(ProviderFixture.error { try parse(grouped) } == .invalidRate(currency: CurrencyCode("KWD")!, day: day, text: "19.53,0200"))
        let empty = try ProviderFixture.edited(file, replacing: "<td>605,5200</td>", with: "<td></td>")
        #expect(ProviderFixture.error { try parse(empty) } == .invalidRate(currency: CurrencyCode("USD")!, day: day, text: ""))
    }

    @Test("rejects a currency listed twice, a heading with a wrong weekday or no real day, a header or row of another shape")
    func badFields() throws {
        let twice = try ProviderFixture.edited(file, replacing: "<td>Yen japonais</td>", with: "<td>Dollar us</td>")
        #expect(ProviderFixture.error { try parse(twice) } == .duplicateCurrency(CurrencyCode("USD")!, day: day))
        let weekday = try ProviderFixture.edited(file, replacing: "du lundi 16 mars", with: "du mardi 16 mars")
        #expect(ProviderFixture.error { try parse(weekday) } == .invalidDay("mardi 16 mars 2026"))
        let noDay = try ProviderFixture.edited(file, replacing: "du lundi 16 mars", with: "du lundi 31 avril")
        #expect(ProviderFixture.error { try parse(noDay) } == .invalidDay("lundi 31 avril 2026"))
        let header = try ProviderFixture.edited(file, replacing: "<th>CFA</th>", with: "<th>XOF</th>")
        #expect(ProviderFixture.error { try parse(header) }?.isLayout(of: "BCEAO") == true)
        let extraCell = try ProviderFixture.edited(file, replacing: "<td>605,5200</td>", with: "<td>605,5200</td><td>1</td>")
        #expect(ProviderFixture.error { try parse(extraCell) }?.isLayout(of: "BCEAO") == true)
    }

    @Test("a table without currencies is no publication")
    func noPublication() throws {
        let body = Array("<h2>Cours des devises du samedi 21 mars 2026</h2><table><tbody><tr><th>Devise</th><th>CFA</th></tr></tbody></table>".utf8)
        #expect(try parse(body) == [])
    }

    @Test("the heading alone, without a table, is no publication; without the heading it is rejected")
    func headingAlone() throws {
        // The recording cut after its heading: the page's answer for a day without rates (a Saturday, a
        // holiday) is the heading and no table.
        let bytes = try ProviderFixture.bytes(file)
        let close = Array("</h2>".utf8)
        let end = try #require((0...(bytes.count - close.count)).first { bytes[$0..<$0 + close.count].elementsEqual(close) }) + close.count
        let heading = Array(bytes[..<end])
        #expect(try parse(heading) == [])
        // Without its heading the page is not the answer.
        let noHeading = try #require(ProviderFixture.replacing("Cours des devises du", with: "Cours du", in: heading))
        #expect(ProviderFixture.error { try parse(noHeading) }?.isLayout(of: "BCEAO") == true)
    }

    @Test("reads a heading whose month is written as escaped UTF-8 bytes: février, août, décembre")
    func escapedMonths() throws {
        // The recording's heading with another day whose month has an accent, written as the answers write
        // accented letters (the text of their UTF-8 bytes); each is a Monday, as the heading says.
        let february = try ProviderFixture.edited(file, replacing: "du lundi 16 mars 2026", with: "du lundi 16 f\\xC3\\xA9vrier 2026")
        #expect(try parse(february).map(\.day) == [Day("2026-02-16")!])
        #expect(try parse(february).first?["USD"] == quote("USD", "605.5200"))
        let august = try ProviderFixture.edited(file, replacing: "du lundi 16 mars 2026", with: "du lundi 18 ao\\xC3\\xBBt 2025")
        #expect(try parse(august).map(\.day) == [Day("2025-08-18")!])
        let december = try ProviderFixture.edited(file, replacing: "du lundi 16 mars 2026", with: "du lundi 15 d\\xC3\\xA9cembre 2025")
        #expect(try parse(december).map(\.day) == [Day("2025-12-15")!])
    }

    @Test("a row whose name is not known is left out, a row named by its ISO code is read; no known name at all is rejected")
    func unknownNames() throws {
        let unknown = try ProviderFixture.edited(file, replacing: "<td>Yen japonais</td>", with: "<td>Yen</td>")
        let table = try #require(try parse(unknown).first)
        #expect(table.quotes.count == 26)
        #expect(table["JPY"] == nil)
        #expect(table["USD"] == quote("USD", "605.5200"))
        // Its figure is still checked.
        let garbage = try #require(ProviderFixture.replacing("<td>4,0781</td>", with: "<td>4,07x1</td>", in: unknown))
        #expect(ProviderFixture.error { try parse(garbage) }?.isLayout(of: "BCEAO") == true)
        let code = try ProviderFixture.edited(file, replacing: "<td>Yen japonais</td>", with: "<td>JPY</td>")
        #expect(try parse(code).first?["JPY"] == quote("JPY", "4.0781"))
        // A page whose every row is unknown is not the table this adapter reads.
        var none = try ProviderFixture.bytes(file)
        for name in BCEAOProviderTests.recordedNames {
            none = try #require(ProviderFixture.replacing("<td>\(name)</td>", with: "<td>Inconnue</td>", in: none))
        }
        #expect(ProviderFixture.error { try parse(none) }?.isLayout(of: "BCEAO") == true)
    }

    /// The names as the recording of 2026-03-16 writes them.
    static let recordedNames = [
        "Euro", "Dollar us", "Yen japonais", "Couronne danoise", "Couronne su\\xC3\\xA9doise", "Livre sterling",
        "Couronne norv\\xC3\\xA9gienne", "Couronne th\\xC3\\xA8que", "Forint hongrois", "Zloty polonais", "Franc suisse", "Dollar canadien",
        "Dollar australien", "Dollar n\\xC3\\xA9o-z\\xC3\\xA9landais", "Rand sud-africain", "Yuan chinois", "Roupie Indienne",
        "Baht thailandais", "Real br\\xC3\\xA9silien", "Dollar singapourien", "Nouvelle livre turque", "Dirham Emirats Arabes Unis",
        "Nouveau Shekel", "Won Cor\\xC3\\xA9en", "Dollar Hong Kong", "Ryal Saudien", "Dinar Koweitien",
    ]

    @Test("a figure without a decimal comma is read in English notation, the point a decimal point")
    func englishNotation() throws {
        let body = try ProviderFixture.edited(file, replacing: "<td>605,5200</td>", with: "<td>605.52</td>")
        #expect(try parse(body).first?["USD"] == quote("USD", "605.52"))
        let euro = try ProviderFixture.edited(file, replacing: "<td>655,9570</td>", with: "<td>655.957</td>")
        #expect(try parse(euro).first?["EUR"] == quote("EUR", "655.957"))
    }

    @Test("rejects every truncation, an HTML error page and an empty body")
    func notTheTable() throws {
        let bytes = try ProviderFixture.bytes(file)
        for cut in ProviderFixture.truncations(of: bytes) {
            let error = ProviderFixture.error { try parse(cut) }
            #expect(error != nil, "a cut at \(cut.count) bytes was read")
        }
        #expect(ProviderFixture.error { try parse(ProviderFixture.htmlErrorPage) }?.isLayout(of: "BCEAO") == true)
        #expect(ProviderFixture.error { try parse([]) } == .empty)
    }

    @Test("each recording imports as `rates-relay import --provider BCEAO` reads it: as it parses")
    func imports() throws {
        let files = [
            "bceao-westafrica/00_fr_cours_get_all_reference_by_date_dateJour=2026-03-16.html",
            "bceao-westafrica/01_fr_cours_get_all_reference_by_date_dateJour=2026-03-17.html",
            "bceao-westafrica/02_fr_cours_get_all_reference_by_date_dateJour=2026-03-18.html",
            "bceao-westafrica/03_fr_cours_get_all_reference_by_date_dateJour=2026-03-19.html",
        ]
        for name in files {
            let bytes = try ProviderFixture.bytes(name)
            #expect(try ProviderFile.read([bytes], provider: provider) == (try parse(bytes)), "\(name)")
        }
    }
}
