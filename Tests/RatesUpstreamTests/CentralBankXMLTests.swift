import Foundation
import RatesUpstream
import RatesTestFixtures
import Testing

@Suite("XML reader on central banks' files")
struct CentralBankXMLTests {
    @Test("reads the Bank of Russia's daily file in windows-1251: 54 currencies with their Russian names")
    func bankOfRussia() throws {
        let data = try Fixtures.data("cbr-russia/XML_daily_2026-04-25.xml")
        #expect(try XMLReader(data).encoding == .windows1251)

        let root = try XMLReader.Element(parsing: data, root: "ValCurs")
        #expect(root.attribute("Date") == "25.04.2026")
        #expect(root.attribute("name") == "Foreign Currency Market")
        let valutes = root.children("Valute")
        #expect(valutes.count == 54)
        #expect(root.children.count == 54)

        let first = try #require(valutes.first)
        #expect(first.attribute("ID") == "R01010")
        #expect(first.child("CharCode")?.text == "AUD")
        #expect(first.child("Name")?.text == "Австралийский доллар")
        #expect(first.child("Value")?.text == "53,8359")

        let dollar = try #require(valutes.first { $0.attribute("ID") == "R01235" })
        #expect(dollar.child("Name")?.text == "Доллар США")
        #expect(dollar.child("Value")?.text == "75,5273")
        #expect(valutes.last?.child("Name")?.text == "Кьятов")
        #expect(valutes.allSatisfy { $0.child("CharCode")?.text.utf8.count == 3 })
    }

    @Test("reads the Bank of Russia's file event by event as it reads it into a tree")
    func bankOfRussiaEvents() throws {
        var reader = try XMLReader(Fixtures.data("cbr-russia/XML_daily_2026-04-25.xml"), root: "ValCurs")
        var names: [String] = []
        var valutes = 0
        while let event = try reader.next() {
            guard event == .startElement else { continue }
            if reader.isElement("Valute") { valutes += 1 }
            if reader.isElement("Name") { names.append(try reader.readText()) }
        }
        #expect(valutes == 54)
        #expect(names.count == 54)
        #expect(names.first == "Австралийский доллар")
    }

    @Test("reads the Central Bank of Turkey's file in ISO-8859-9: 19 currencies with their Turkish names")
    func centralBankOfTurkey() throws {
        let data = try Fixtures.data("tcmb-turkey/kurlar_today_2016-03-15.xml")
        #expect(try XMLReader(data).encoding == .iso8859_9)

        let root = try XMLReader.Element(parsing: data, root: "Tarih_Date")
        #expect(root.attribute("Tarih") == "15.03.2016")
        #expect(root.attribute("Bulten_No") == "2016/52")
        let currencies = root.children("Currency")
        #expect(currencies.count == 19)

        func name(_ code: String) -> String? {
            currencies.first { $0.attribute("CurrencyCode") == code }?.child("Isim")?.text
        }
        #expect(name("USD") == "ABD DOLARI")
        #expect(name("DKK") == "DANİMARKA KRONU")
        #expect(name("GBP") == "İNGİLİZ STERLİNİ")
        #expect(name("CHF") == "İSVİÇRE FRANGI")
        #expect(name("CNY") == "ÇİN YUANI")
        #expect(name("XDR") == "")
        #expect(currencies.first?.child("ForexBuying")?.text == "2.8852")
    }

    @Test("rejects truncated copies of the central banks' files", arguments: [
        "cbr-russia/XML_daily_2026-04-25.xml", "tcmb-turkey/kurlar_today_2016-03-15.xml",
    ])
    func truncated(_ name: String) throws {
        let data = try [UInt8](Fixtures.data(name))
        // The Turkish file ends with a line feed after its root element: that prefix is whole.
        let end = data.last == UInt8(ascii: "\n") ? data.count - 1 : data.count
        for length in stride(from: 1, to: end, by: 97) + [end - 1] {
            let error = readError { _ = try XMLReader.Element(parsing: data[..<length]) }
            #expect(error?.isMalformedXML == true, "prefix of \(length) bytes: \(String(describing: error))")
        }
    }
}
