import Foundation
@testable import RatesUpstream
import Testing

@Suite("PDF text reader")
struct PDFDocumentTests {
    let bm = "bm-mozambique/02_taxas-de-c_C3_A2mbio-de-refer_C3_AAncia-do-mercado-cambial-do-dia-02092026.pdf"
    let brb = "brb-burundi/01_Cours_20de_20change_20du_2020-05-2026.pdf"
    let bsp = "bsp-philippines/01_28May2026.pdf"

    func rows(_ bytes: [UInt8]) throws -> [PDFTextRow] {
        let document = try PDFDocument(bytes)
        return document.pages.flatMap { $0.rows() }
    }

    func error(_ bytes: [UInt8]) -> UpstreamDataError? {
        do {
            _ = try PDFDocument(bytes)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Recorded bulletins

    @Test("reads an uncompressed bulletin of fixed-pitch hex strings, its lines cut in pieces read whole (BM)")
    func fixedPitchLines() throws {
        let document = try PDFDocument(try ProviderFixture.bytes(bm))
        #expect(document.pages.count == 1)
        let lines = document.pages[0].rows().map { $0.text.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains("Àfrica do Sul Rand 3,93 4,01 3,97"))
        #expect(lines.contains("eSwatini Lilangueni 3,93 4,01 3,97"))  // `Lilangue` + `ni`: one word
        #expect(lines.contains("Estados Unidos(a) 63,27 64,54 63,91"))
        #expect(lines.contains("1. TAXAS DE CÂMBIO MÉDIAS DE REFERÊNCIA EM METICAIS DO DIA 02 Setembro"))
        // Courier's width, 600 thousandths of the size: 31 characters of 11.5 points are 213.9 points.
        let piece = try #require(document.pages[0].runs.first { $0.text == "        63,27           64,54  " })
        #expect(abs(piece.width - 31 * 6.9) < 0.001)
        #expect(piece.x == 238.8 && piece.y == 636.55)
    }

    @Test("reads a Flate-compressed bulletin in TrueType fonts with /Widths, kerned TJ arrays as one run each (BRB)")
    func compressedBulletin() throws {
        let rows = try rows(try ProviderFixture.bytes(brb))
        #expect(rows.contains { $0.cells == ["1 Dollar Canadien", "2155,4820", "2172,8650", "2190,2479"] })
        #expect(rows.contains { $0.cells == ["MONNAIES ETRANGERES", "Acheteur", "Cours moyen jour", "Vendeur"] })
        #expect(rows.contains { $0.cells == ["EN DATE DU 20 MAI  2026"] })
        #expect(rows.filter { $0.cells.count == 4 }.count == 20)  // the header and 19 currencies
    }

    @Test("reads a page tree and fonts held in object streams, a page of eight content streams and scaled text matrices (BSP)")
    func objectStreams() throws {
        let rows = try rows(try ProviderFixture.bytes(bsp))
        let dollar = try #require(rows.first { $0.cells.contains("USD") })
        #expect(dollar.cells == ["1", "UNITED STATES", "DOLLAR", "USD", "0.859771", "1.000000", "61.5820"])
        #expect(abs(dollar.y - 699.48) < 0.01)
        #expect(rows.contains { $0.cells == ["28 May 2026"] })
        // The yuan's peso figure is placed on its own, further right: the same row all the same.
        #expect(rows.contains { $0.cells == ["18", "CHINA", "YUAN**", "CNY", "0.126823", "0.147508", "9.0838"] })
    }

    // MARK: - Syntax and text operators

    @Test("reads literal strings with escapes, hex strings, TJ gaps as spaces, Td, TD, T*, ' and \" moving the line")
    func textOperators() throws {
        let content = """
            BT /F1 10 Tf 12 TL 100 700 Td (a\\(b\\)c\\\\d\\101\\
            e) Tj T* <48 65 6C6C6F> Tj 0 -20 TD [(x) -300 (y) 20 (z)] TJ (next) ' 2 1 (last) " ET
            """
        let rows = try rows(PDFFixture.file(content: content))
        #expect(rows.map(\.cells) == [["a(b)c\\dAe"], ["Hello"], ["x yz"], ["next"], ["last"]])
        let runs = try PDFDocument(PDFFixture.file(content: content)).pages[0].runs
        #expect(runs.map(\.y) == [700, 688, 668, 648, 628])
        #expect(runs.allSatisfy { $0.x == 100 })
    }

    @Test("places text through cm and Tm, a second Tj after the first's width, and reads /Differences glyph names")
    func matricesAndDifferences() throws {
        let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 65 /Widths [500 250] /Encoding << /BaseEncoding /WinAnsiEncoding /Differences [65 /Ccedilla /atilde] >> >>"
        let content = "q 2 0 0 2 10 20 cm BT /F1 10 Tf 1 0 0 1 5 5 Tm (AB) Tj (A) Tj ET Q"
        let runs = try PDFDocument(PDFFixture.file(content: content, font: font)).pages[0].runs
        #expect(runs.map(\.text) == ["Çã", "Ç"])
        #expect(runs.map(\.x) == [20, 35])  // (5 × 2 + 10); then on by (5 + 2.5) × 2
        #expect(runs.map(\.y) == [30, 30])
        #expect(runs.map(\.fontSize) == [20, 20])
    }

    @Test("a stream's /Length may be an indirect object defined after it; a wrong one gives way to its endstream")
    func streamLengths() throws {
        let content = PDFFixture.content([.init(x: 10, y: 10, text: "indirect")])
        var file = PDFFixture.file(content: content, length: "6 0 R")
        file.insert(contentsOf: Array("6 0 obj \(content.utf8.count) endobj\n".utf8), at: file.count - 6)
        #expect(try rows(file).map(\.cells) == [["indirect"]])
        #expect(try rows(PDFFixture.file(content: content, length: "12")).map(\.cells) == [["indirect"]])
    }

    @Test("inflates a /FlateDecode content stream and skips an inline image")
    func flateAndInlineImage() throws {
        let content = Array("BI /W 2 /H 1 /BPC 8 /CS /G ID \u{1}\u{2} EI BT /F1 10 Tf 1 0 0 1 10 10 Tm (packed) Tj ET".utf8)
        let packed = PDFFixture.zlibStored(content)
        var file = PDFFixture.file(content: "")
        let header = Array("4 0 obj\n<< /Length 0 >>\nstream\n\nendstream".utf8)
        let start = try #require((0...(file.count - header.count)).first { file[$0..<($0 + header.count)].elementsEqual(header) })
        file.replaceSubrange(start..<(start + header.count), with: Array("4 0 obj\n<< /Length \(packed.count) /Filter /FlateDecode >>\nstream\n".utf8) + packed + Array("\nendstream".utf8))
        #expect(try rows(file).map(\.cells) == [["packed"]])
    }

    // MARK: - Malformed input

    @Test("a file cut short anywhere is rejected, with no %%EOF at its end")
    func truncated() throws {
        for name in [bm, brb, bsp] {
            let bytes = try ProviderFixture.bytes(name)
            let cuts = [0.05, 0.3, 0.6, 0.9, 0.99].map { Array(bytes[..<Int(Double(bytes.count) * $0)]) }
            #expect(cuts.count == 5)
            for cut in cuts { #expect(error(cut)?.isUnexpectedLayout == true, "\(name) cut at \(cut.count)") }
        }
    }

    @Test("a Flate stream with a bad zlib header or bad deflate data is rejected")
    func badFlate() throws {
        let bytes = try ProviderFixture.bytes(brb)
        let marker = Array("5 0 obj\r\n<</Filter/FlateDecode/Length 2863>>\r\nstream\r\n".utf8)
        let start = try #require((0...(bytes.count - marker.count)).first { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }) + marker.count
        var header = bytes
        header[start] = 0x00
        #expect(error(header)?.isUnexpectedLayout == true)
        var data = bytes
        for offset in 2..<40 { data[start + offset] = 0xFF }  // a block of the reserved type 3
        #expect(error(data)?.isUnexpectedLayout == true)
    }

    @Test("a /Length past the end of the file is rejected, direct or indirect")
    func hugeLength() throws {
        let content = PDFFixture.content([.init(x: 10, y: 10, text: "x")])
        #expect(error(PDFFixture.file(content: content, length: "999999999999"))?.isUnexpectedLayout == true)
        var file = PDFFixture.file(content: content, length: "6 0 R")
        file.insert(contentsOf: Array("6 0 obj 2147483647 endobj\n".utf8), at: file.count - 6)
        #expect(error(file)?.isUnexpectedLayout == true)
    }

    @Test("arrays nested 100,000 deep, in an object or a content stream, are rejected without recursing")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(error(PDFFixture.file(content: "BT /F1 10 Tf \(deep) TJ ET"))?.isUnexpectedLayout == true)
        #expect(error(PDFFixture.file(content: "", catalog: "<< /Type /Catalog /Pages 2 0 R /X \(deep) >>"))?.isUnexpectedLayout == true)
        let dictionaries = String(repeating: "<< /A ", count: 10_000) + String(repeating: ">> ", count: 10_000)
        #expect(error(PDFFixture.file(content: "", catalog: dictionaries))?.isUnexpectedLayout == true)
        #expect(error(PDFFixture.file(content: String(repeating: "q ", count: 1000)))?.isUnexpectedLayout == true)
    }

    @Test("a file without a page tree, with a page tree that loops, or with no page is rejected")
    func pageTree() {
        #expect(error(PDFFixture.file(content: "", catalog: "<< /Type /Catalog >>"))?.isUnexpectedLayout == true)
        #expect(error(PDFFixture.file(content: "", catalog: "<< /Type /Catalog /Pages 1 0 R >>"))?.isUnexpectedLayout == true)
        var looping = PDFFixture.file(content: "")
        looping = ProviderFixture.replacing("/Kids [3 0 R]", with: "/Kids [2 0 R]", in: looping) ?? []
        #expect(error(looping)?.isUnexpectedLayout == true)
        let empty = ProviderFixture.replacing("/Kids [3 0 R]", with: "/Kids []", in: PDFFixture.file(content: "")) ?? []
        #expect(error(empty)?.isUnexpectedLayout == true)
    }

    @Test("garbage, an HTML page, an empty body and a header alone are rejected")
    func garbage() {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(error(Array("%PDF-1.4\n".utf8) + noise + Array("\n%%EOF\n".utf8))?.isUnexpectedLayout == true)
        #expect(error(ProviderFixture.htmlErrorPage)?.isUnexpectedLayout == true)
        #expect(error([])?.isUnexpectedLayout == true)
        #expect(error(Array("%PDF-1.7\n%%EOF".utf8))?.isUnexpectedLayout == true)
        #expect(error(Array("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj (unterminated endobj\n%%EOF".utf8))?.isUnexpectedLayout == true)
    }

    @Test("an unsupported filter is rejected rather than read as text")
    func unsupportedFilter() throws {
        let file = PDFFixture.file(content: "BT (x) Tj ET")
        let edited = try #require(ProviderFixture.replacing("<< /Length 12 >>", with: "<< /Length 12 /Filter /LZWDecode >>", in: file))
        #expect(error(edited)?.isUnexpectedLayout == true)
    }
}
