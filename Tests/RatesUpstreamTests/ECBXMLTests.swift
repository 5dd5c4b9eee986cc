import Foundation
import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("ECB XML")
struct ECBXMLTests {
    // MARK: - Real files

    @Test("reads the real daily file exactly")
    func realDailyFile() throws {
        let data = try Fixtures.data("eurofxref-daily.xml")
        let batch = try ECBXML.parse(data)

        #expect(batch.base == .euro)
        #expect(batch.days.map(\.day) == [day("2025-04-03")])
        let rates = try #require(batch.days.first).rates
        #expect(rates.count == 30)
        #expect(rates[code("USD")] == "1.1097")
        #expect(rates[code("GBP")] == "0.84163")
        // Every pair in the file, as published, and nothing else.
        let text = String(decoding: data, as: UTF8.self)
        let published = Dictionary(
            uniqueKeysWithValues: text.matches(of: /currency='([A-Z]{3})' rate='([0-9.]+)'/).map { (code(String($0.1)), String($0.2)) })
        #expect(rates == published)
    }

    @Test("reads the real 90-day file: 65 days from 2025-01-06 to 2025-04-04")
    func realNinetyDayFile() throws {
        let batch = try ECBXML.parse(Fixtures.data("eurofxref-hist-90d.xml"))

        #expect(batch.days.count == 65)
        #expect(batch.days.first?.day == day("2025-01-06"))
        #expect(batch.latestDay == day("2025-04-04"))
        #expect(batch.days.allSatisfy { $0.rates.count == 30 })
        #expect(batch.days.last?.rates[code("USD")] == "1.1057")
        _ = try ProviderValidation.validate(ECBProvider.publications(of: batch), notAfter: day("2025-04-05"))
    }

    @Test("accepts Data, byte arrays, slices and non-contiguous collections alike")
    func inputKinds() throws {
        let data = try Fixtures.data("eurofxref-daily.xml")
        let expected = try ECBXML.parse(data).days
        let padded = Data("   ".utf8) + data
        #expect(try ECBXML.parse(Array(data)).days == expected)
        #expect(try ECBXML.parse(padded[3...]).days == expected)  // a slice whose indices do not start at 0
        #expect(try ECBXML.parse(data.lazy.map { $0 }).days == expected)  // no contiguous storage
    }

    @Test("reads the syntax XML allows: both quotes, comments, PIs, CDATA, references, end tags, a BOM")
    func syntaxVariants() throws {
        let xml = """
            \u{FEFF}<?xml version='1.0' encoding="utf-8" standalone='yes' ?>
            <!-- a comment - with a dash -->
            <?xml-stylesheet type="text/xsl" href="rates.xsl"?>
            <gesmes:Envelope xmlns:gesmes='http://www.gesmes.org/xml/2002-08-01' xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"
              ><gesmes:subject>Reference rates &amp; more &#x263A; &#169;</gesmes:subject>
              <gesmes:Sender><gesmes:name><![CDATA[European <Central> Bank]]></gesmes:name></gesmes:Sender>
              <Cube>
                <Cube time = "2025-04-03" extra="ignored">
                  <Cube currency="USD" rate='1&#46;1097'/>
                  <Cube rate="162.17" currency='JPY' ></Cube>
                  <!-- between rates -->
                  <Cube currency="GBP"
                        rate="0.84163" />
                </Cube>
              </Cube>
            </gesmes:Envelope>
            <!-- trailing comment -->

            """
        let batch = try ECBXML.parse(Array(xml.utf8))
        #expect(batch.days == [DailyRates(day: day("2025-04-03"), rates: [code("USD"): "1.1097", code("JPY"): "162.17", code("GBP"): "0.84163"])])
    }

    @Test("reads several days in any order and returns them ascending")
    func severalDays() throws {
        let xml = envelope(
            """
            <Cube time="2025-04-04"><Cube currency="USD" rate="1.1057"/></Cube>
            <Cube time="2025-04-02"><Cube currency="USD" rate="1.0827"/></Cube>
            <Cube time="2025-04-03"><Cube currency="USD" rate="1.1097"/></Cube>
            """)
        let batch = try ECBXML.parse(Array(xml.utf8))
        #expect(batch.days.map(\.day) == [day("2025-04-02"), day("2025-04-03"), day("2025-04-04")])
        #expect(batch.days.map { $0.rates[code("USD")] } == ["1.0827", "1.1097", "1.1057"])
    }

    // MARK: - Not well-formed

    @Test("rejects every truncation of the daily file")
    func truncatedDailyFile() throws {
        let data = try [UInt8](Fixtures.data("eurofxref-daily.xml"))
        #expect(xmlError(data[..<0]) == .empty)
        for length in 1..<data.count {
            let error = xmlError(data[..<length])
            #expect(error?.isMalformedXML == true, "prefix of \(length) bytes: \(String(describing: error))")
        }
    }

    @Test("rejects truncations of the 90-day file")
    func truncatedNinetyDayFile() throws {
        let data = try [UInt8](Fixtures.data("eurofxref-hist-90d.xml"))
        for length in stride(from: 1, to: data.count, by: 4999) + [data.count - 1] {
            let error = xmlError(data[..<length])
            #expect(error?.isMalformedXML == true, "prefix of \(length) bytes: \(String(describing: error))")
        }
    }

    @Test("rejects documents that are not well-formed", arguments: [
        Sample("mismatched end tag", envelope(#"<Cube time="2025-04-03"><Cube currency="USD" rate="1.1"/></Cbue>"#)),
        Sample("unclosed day cube", envelope(#"<Cube time="2025-04-03"><Cube currency="USD" rate="1.1"/>"#)),
        Sample("unclosed rate cube", envelope(#"<Cube time="2025-04-03"><Cube currency="USD" rate="1.1"></Cube>"#)),
        Sample("unquoted attribute", envelope(#"<Cube time=2025-04-03><Cube currency="USD" rate="1.1"/></Cube>"#)),
        Sample("unterminated quote", envelope(#"<Cube time="2025-04-03><Cube currency="USD" rate="1.1"/></Cube>"#)),
        Sample("mixed quotes", envelope(#"<Cube time="2025-04-03'><Cube currency="USD" rate="1.1"/></Cube>"#)),
        Sample("no space between attributes", envelope(#"<Cube time="2025-04-03"><Cube currency="USD"rate="1.1"/></Cube>"#)),
        Sample("duplicate attribute", envelope(#"<Cube time="2025-04-03"><Cube currency="USD" rate="1.1" rate="1.2"/></Cube>"#)),
        Sample("'<' in an attribute", envelope(#"<Cube time="2025-04-03"><Cube currency="U<D" rate="1.1"/></Cube>"#)),
        Sample("space after '<'", envelope(#"<Cube time="2025-04-03">< Cube currency="USD" rate="1.1"/></Cube>"#)),
        Sample("space inside '/>'", envelope(#"<Cube time="2025-04-03"><Cube currency="USD" rate="1.1"/ ></Cube>"#)),
        Sample("undefined entity", envelope(#"<Cube time="2025-04-03"><Cube currency="USD" rate="1.1&nbsp;"/></Cube>"#)),
        Sample("bare ampersand", envelope("<Cube time=\"2025-04-03\"><Cube currency=\"USD\" rate=\"1.1\"/></Cube> & ")),
        Sample("character reference to NUL", envelope(#"<Cube time="2025-04-03"><Cube currency="USD" rate="1.1&#0;"/></Cube>"#)),
        Sample(
            "undeclared prefix",
            #"<gesmes:Envelope><Cube><Cube time="2025-04-03"><Cube currency="USD" rate="1.1"/></Cube></Cube></gesmes:Envelope>"#),
        Sample("'--' inside a comment", envelope("<!-- a -- b -->")),
        Sample("unterminated comment", envelope("<!-- never closed </Cube>")),
        Sample("XML declaration not at the start", " <?xml version=\"1.0\"?>" + envelope("")),
        Sample("two XML declarations", "<?xml version=\"1.0\"?>" + envelope("")),
        Sample("a second root element", envelope(#"<Cube time="2025-04-03"><Cube currency="USD" rate="1.1"/></Cube>"#) + "<gesmes:Envelope/>"),
        Sample("garbage after the root", envelope(#"<Cube time="2025-04-03"><Cube currency="USD" rate="1.1"/></Cube>"#) + "garbage"),
        Sample("text before the root", "Service Unavailable"),
        Sample("JSON", #"{"error": "rate limited"}"#),
        Sample("a control character", envelope("\u{01}")),
        Sample(
            "invalid UTF-8",
            bytes: Array(#"<gesmes:Envelope xmlns:gesmes="g"><gesmes:subject>"#.utf8) + [0xFF] + Array("</gesmes:subject></gesmes:Envelope>".utf8)),
        Sample("']]>' in text", #"<gesmes:Envelope xmlns:gesmes="g"><gesmes:subject>a ]]> b</gesmes:subject></gesmes:Envelope>"#),
        Sample("end tag with attributes", envelope(#"<Cube time="2025-04-03"><Cube currency="USD" rate="1.1"/></Cube time="x">"#)),
    ])
    func notWellFormed(_ sample: Sample) {
        let error = xmlError(sample.bytes)
        #expect(error?.isMalformedXML == true, "\(String(describing: error))")
    }

    @Test("says where the document breaks")
    func errorLocation() {
        let xml = "<?xml version=\"1.0\"?>\n<gesmes:Envelope xmlns:gesmes=\"g\">\n  <Cube>\n  </Cbue>\n</gesmes:Envelope>"
        let error = xmlError(Array(xml.utf8))
        #expect(error?.description.contains("line 4, column 3") == true, "\(String(describing: error))")
        #expect(error?.description.contains("</Cbue>") == true)
    }

    @Test("never traps on damaged input")
    func damagedInput() throws {
        let original = try [UInt8](Fixtures.data("eurofxref-daily.xml"))
        var random = SplitMix64(seed: 20_250_403)
        let interesting = Array("<>/='\"&;:!?-[] \tCube".utf8) + [0x00, 0x80, 0xC3, 0xFF]
        for _ in 0..<1500 {
            var bytes = original
            for _ in 0...random.next(below: 3) {
                let index = random.next(below: bytes.count)
                let byte = random.next(below: 2) == 0 ? interesting[random.next(below: interesting.count)] : UInt8(random.next(below: 256))
                switch random.next(below: 3) {
                case 0: bytes[index] = byte
                case 1: bytes.insert(byte, at: index)
                default: bytes.remove(at: index)
                }
            }
            // Either outcome is fine; trapping is not.
            if let batch = try? ECBXML.parse(bytes) { #expect(!batch.days.isEmpty) }
        }
    }

    // MARK: - Not the layout

    @Test("treats an HTML error page as an unexpected document", arguments: [
        "<html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1></body></html>",
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Error</title></head><body><p>Oops<br></p></body></html>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>Not found</p></body></html>",
        "<!doctype html><html lang=en><body>Bad Gateway</body></html>",
        "\n<html lang=en><body><p>Bad Gateway</p></body></html>",
    ])
    func htmlPage(_ html: String) {
        let error = xmlError(Array(html.utf8))
        #expect(error?.isUnexpectedDocument == true, "\(String(describing: error))")
    }

    @Test("treats well-formed XML in another layout as an unexpected document", arguments: [
        Sample("no day cube", envelope("")),
        Sample("no cube at all", #"<gesmes:Envelope xmlns:gesmes="g"><gesmes:subject>Reference rates</gesmes:subject></gesmes:Envelope>"#),
        Sample("rate cube without a day", envelope(#"<Cube currency="USD" rate="1.1"/>"#)),
        Sample("day cube without time", envelope(#"<Cube><Cube currency="USD" rate="1.1"/></Cube>"#)),
        Sample("rate cube without rate", envelope(#"<Cube time="2025-04-03"><Cube currency="USD"/></Cube>"#)),
        Sample("another element among days", envelope(#"<Cube time="2025-04-03"><Cube currency="USD" rate="1.1"/></Cube><Note/>"#)),
        Sample("another element among rates", envelope(#"<Cube time="2025-04-03"><Cube currency="USD" rate="1.1"/><Note/></Cube>"#)),
        Sample("text among rates", envelope(#"<Cube time="2025-04-03"><Cube currency="USD" rate="1.1"/>1.2</Cube>"#)),
        Sample("content in a rate cube", envelope(#"<Cube time="2025-04-03"><Cube currency="USD" rate="1.1"><Cube/></Cube></Cube>"#)),
        Sample("another root", #"<rates><Cube><Cube time="2025-04-03"><Cube currency="USD" rate="1.1"/></Cube></Cube></rates>"#),
        Sample("another encoding", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + envelope("")),
    ])
    func otherLayouts(_ sample: Sample) {
        let error = xmlError(sample.bytes)
        #expect(error?.isUnexpectedDocument == true, "\(String(describing: error))")
    }

    @Test("bounds what one tag may carry, so hostile input stays cheap")
    func limits() {
        let attributes = (0..<40).map { " a\($0)=\"\"" }.joined()
        let wide = envelope("<Cube time='2025-04-03'><Cube currency='USD' rate='1.1'\(attributes)/></Cube>")
        #expect(xmlError(Array(wide.utf8))?.isUnexpectedDocument == true)
        let declarations = (0..<40).map { " xmlns:p\($0)=\"u\"" }.joined()
        let crowded = envelope("<Cube time='2025-04-03'\(declarations)><Cube currency='USD' rate='1.1'/></Cube>")
        #expect(xmlError(Array(crowded.utf8))?.isUnexpectedDocument == true)
    }

    // MARK: - Bad values

    @Test(
        "rejects rates that are not positive plain decimals",
        arguments: ["-1.1097", "0", "0.0000", "NaN", "1e5", "1,1097", " 1.1097", "", "Infinity"])
    func invalidRates(_ rate: String) {
        let xml = envelope("<Cube time='2025-04-03'><Cube currency='USD' rate='\(rate)'/></Cube>")
        #expect(xmlError(Array(xml.utf8)) == .invalidRate(currency: code("USD"), day: day("2025-04-03"), text: rate))
    }

    @Test("rejects a currency given twice in one day")
    func duplicateCurrency() {
        let xml = envelope("<Cube time='2025-04-03'><Cube currency='USD' rate='1.1'/><Cube currency='USD' rate='1.1'/></Cube>")
        #expect(xmlError(Array(xml.utf8)) == .duplicateCurrency(code("USD"), day: day("2025-04-03")))
    }

    @Test("rejects currency codes that are not three capital letters", arguments: ["usd", "US", "USDX", "U5D", "ÜSD"])
    func invalidCurrencyCode(_ text: String) {
        let xml = envelope("<Cube time='2025-04-03'><Cube currency='\(text)' rate='1.1'/></Cube>")
        #expect(xmlError(Array(xml.utf8)) == .invalidCurrencyCode(text, day: day("2025-04-03")))
    }

    @Test(
        "rejects days that do not exist or are not YYYY-MM-DD",
        arguments: ["2024-02-30", "2025-13-01", "2025-4-3", "03.04.2025", "2025-04-03T00:00:00Z", ""])
    func invalidDay(_ text: String) {
        let xml = envelope("<Cube time='\(text)'><Cube currency='USD' rate='1.1'/></Cube>")
        #expect(xmlError(Array(xml.utf8)) == .invalidDay(text))
    }

    @Test("rejects a day given twice")
    func duplicateDay() {
        let cube = "<Cube time='2025-04-03'><Cube currency='USD' rate='1.1'/></Cube>"
        #expect(xmlError(Array(envelope(cube + cube).utf8)) == .duplicateDay(day("2025-04-03")))
    }

    @Test("rejects a day without rates", arguments: ["<Cube time='2025-04-03'/>", "<Cube time='2025-04-03'>\n</Cube>"])
    func emptyDay(_ cube: String) {
        #expect(xmlError(Array(envelope(cube).utf8)) == .emptyDay(day("2025-04-03")))
    }

    @Test("rejects an empty document", arguments: ["", " \n\t"])
    func emptyDocument(_ text: String) {
        #expect(xmlError(Array(text.utf8)) == .empty)
    }
}

// MARK: - Helpers

/// A named document for parameterized tests.
struct Sample: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var testDescription: String { name }

    init(_ name: String, _ text: String) {
        self.init(name, bytes: Array(text.utf8))
    }

    init(_ name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

/// A document in the ECB layout whose outer cube holds `cubes`.
func envelope(_ cubes: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
    \t<gesmes:subject>Reference rates</gesmes:subject>
    \t<gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
    \t<Cube>\(cubes)</Cube>
    </gesmes:Envelope>
    """
}

/// The error parsing `bytes` as ECB XML throws, or `nil` when it parses.
func xmlError(_ bytes: some Collection<UInt8>) -> UpstreamDataError? {
    do {
        _ = try ECBXML.parse(bytes)
        return nil
    } catch {
        return error
    }
}

func day(_ text: String) -> Day { Day(text)! }

func code(_ text: String) -> CurrencyCode { CurrencyCode(text)! }

extension UpstreamDataError {
    var isMalformedXML: Bool { if case .malformedXML = self { true } else { false } }
    var isUnexpectedDocument: Bool { if case .unexpectedDocument = self { true } else { false } }
    var isMalformedCSV: Bool { if case .malformedCSV = self { true } else { false } }
    var isUnreadableArchive: Bool { if case .unreadableArchive = self { true } else { false } }
}
