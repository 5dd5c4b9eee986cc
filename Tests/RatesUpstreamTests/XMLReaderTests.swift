import Foundation
import RatesTestFixtures
import RatesUpstream
import Testing

@Suite("XML reader")
struct XMLReaderTests {
    // MARK: - Events

    @Test("reports start tags, text and end tags in document order; an empty-element tag as a start and an end")
    func events() throws {
        let xml = "<?xml version='1.0'?><!-- c --><a x='1'>hi<b/><?pi data?><c y=\"2\" z='3'>there</c>\n</a><!-- after -->\n"
        #expect(try trace(xml) == ["<a x=1>", "'hi'", "<b>", "</b>", "<c y=2 z=3>", "'there'", "</c>", "'\n'", "</a>"])
    }

    @Test("tells white space between elements from content; a reference is content")
    func whitespace() throws {
        var reader = try XMLReader(Array("<a> \n\t<b/>&#32;</a>".utf8))
        var blank: [Bool] = []
        while let event = try reader.next() {
            if event == .text { blank.append(reader.isWhitespace) }
        }
        #expect(blank == [true, false])
    }

    @Test("gives each element its depth, the root at 1")
    func depth() throws {
        var reader = try XMLReader(Array("<a><b><c/></b>x</a>".utf8))
        var depths: [String] = []
        while let event = try reader.next() {
            depths.append("\(event == .startElement ? "<" : event == .endElement ? "/" : "'")\(reader.localName)\(reader.depth)")
        }
        #expect(depths == ["<a1", "<b2", "<c3", "/c3", "/b2", "'a1", "/a1"])
    }

    @Test("ends only after the root element and what follows it were read, then stays at the end")
    func end() throws {
        var reader = try XMLReader(Array("<a/>\n<!-- trailing -->\n".utf8))
        #expect(try reader.next() == .startElement)
        #expect(try reader.next() == .endElement)
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
        #expect(reader.event == nil)
    }

    // MARK: - Namespaces

    @Test("resolves prefixes and the default namespace to namespace URIs, innermost declaration first")
    func namespaces() throws {
        let xml = """
            <g:Envelope xmlns:g="urn:gesmes" xmlns="urn:ecb">
              <Cube><g:subject/><inner xmlns="urn:other"><leaf/></inner><bare xmlns=""/><x:y xmlns:x="urn:x" xmlns:g="urn:g2"><g:z/></x:y></Cube>
            </g:Envelope>
            """
        var reader = try XMLReader(Array(xml.utf8))
        var names: [String] = []
        while let event = try reader.next() {
            if event == .startElement { names.append("{\(reader.namespaceURI ?? "")}\(reader.localName) \(reader.qualifiedName)") }
        }
        #expect(
            names == [
                "{urn:gesmes}Envelope g:Envelope", "{urn:ecb}Cube Cube", "{urn:gesmes}subject g:subject", "{urn:other}inner inner",
                "{urn:other}leaf leaf", "{}bare bare", "{urn:x}y x:y", "{urn:g2}z g:z",
            ])
    }

    @Test("matches elements by local name, with or without their namespace")
    func elementNames() throws {
        var reader = try XMLReader(Array("<g:Envelope xmlns:g='urn:g'><plain/></g:Envelope>".utf8))
        _ = try reader.next()
        #expect(reader.isElement("Envelope"))
        #expect(!reader.isElement("g:Envelope"))
        #expect(reader.isElement("Envelope", namespaceURI: "urn:g"))
        #expect(!reader.isElement("Envelope", namespaceURI: nil))
        #expect(!reader.isElement("Envelope", namespaceURI: "urn:h"))
        _ = try reader.next()
        #expect(reader.isElement("plain", namespaceURI: nil))
        #expect(!reader.isElement("plain", namespaceURI: "urn:g"))
    }

    @Test("puts unprefixed attributes in no namespace and prefixed ones in their prefix's; leaves declarations out")
    func attributeNamespaces() throws {
        let xml = #"<a xmlns="urn:default" xmlns:p="urn:p&amp;q" id="1" p:id="2" xml:lang="tr"/>"#
        var reader = try XMLReader(Array(xml.utf8))
        #expect(try reader.next() == .startElement)
        #expect(
            reader.attributes == [
                XMLAttribute(qualifiedName: "id", localName: "id", namespaceURI: nil, value: "1"),
                XMLAttribute(qualifiedName: "p:id", localName: "id", namespaceURI: "urn:p&q", value: "2"),
                XMLAttribute(qualifiedName: "xml:lang", localName: "lang", namespaceURI: "http://www.w3.org/XML/1998/namespace", value: "tr"),
            ])
        #expect(reader.attribute("id") == "1")
        #expect(reader.attribute("id", namespaceURI: "urn:p&q") == "2")
        #expect(reader.attribute("id", namespaceURI: "urn:default") == nil)
        #expect(reader.attribute("lang") == nil)
        #expect(reader.attribute("lang", namespaceURI: "http://www.w3.org/XML/1998/namespace") == "tr")
        #expect(reader.attribute("xmlns") == nil)
        #expect(reader.namespaceURI == "urn:default")
        // Attributes belong to the start event only.
        #expect(try reader.next() == .endElement)
        #expect(reader.attributes.isEmpty)
        #expect(reader.attribute("id") == nil)
    }

    // MARK: - Text

    @Test("replaces the predefined entities and character references, in text and in attributes")
    func references() throws {
        let references = "&lt;&gt;&amp;&apos;&quot;&#65;&#x42;&#x263A;&#128512;"
        let root = try XMLReader.Element(parsing: Array("<a v='\(references)'>\(references)</a>".utf8))
        #expect(root.text == "<>&'\"AB☺😀")
        #expect(root.attribute("v") == "<>&'\"AB☺😀")
    }

    @Test("reads a CDATA section as written, markup and references included")
    func cdata() throws {
        var reader = try XMLReader(Array("<a><![CDATA[<b>&amp; ]] ]>]]><![CDATA[ ]]></a>".utf8))
        _ = try reader.next()
        #expect(try reader.next() == .text)
        #expect(reader.text == "<b>&amp; ]] ]>")
        #expect(!reader.isWhitespace)
        #expect(try reader.next() == .text)
        #expect(reader.isWhitespace)
        #expect(try reader.next() == .endElement)
    }

    @Test("normalizes line ends in text, and white space in attribute values, as XML requires")
    func lineEnds() throws {
        let root = try XMLReader.Element(parsing: Array("<a v='x\ty\r\nz\rw&#10;'>1\r\n2\r3<![CDATA[\r\n]]></a>".utf8))
        #expect(root.text == "1\n2\n3\n")
        #expect(root.attribute("v") == "x y z w\n")
    }

    @Test("reads an element's text whole, across references, CDATA sections and comments")
    func readText() throws {
        var reader = try XMLReader(Array("<r><Name>Australian &amp; <!-- x -->dollar<![CDATA[!]]></Name><Empty/><Next>n</Next></r>".utf8))
        _ = try reader.next()
        _ = try reader.next()
        #expect(try reader.readText() == "Australian & dollar!")
        #expect(try reader.next() == .startElement)
        #expect(try reader.readText() == "")
        #expect(try reader.next() == .startElement)
        #expect(reader.localName == "Next")
    }

    @Test("declines to read as text an element that holds an element")
    func readTextOfElement() throws {
        var reader = try XMLReader(Array("<r><Name>a<b/>c</Name></r>".utf8))
        _ = try reader.next()
        _ = try reader.next()
        #expect(throws: UpstreamDataError.self) { try reader.readText() }
    }

    @Test("skips an element whole and goes on after it")
    func skipElement() throws {
        var reader = try XMLReader(Array("<r><skip a='1'><x><y/>text</x></skip><keep/></r>".utf8))
        _ = try reader.next()
        _ = try reader.next()
        try reader.skipElement()
        #expect(try reader.next() == .startElement)
        #expect(reader.localName == "keep")
    }

    @Test("checks the well-formedness of what it skips")
    func skipChecks() throws {
        var reader = try XMLReader(Array("<r><skip><x></y></skip></r>".utf8))
        _ = try reader.next()
        _ = try reader.next()
        #expect(readError { try reader.skipElement() }?.isMalformedXML == true)
    }

    // MARK: - Trees

    @Test("reads a small document into a tree of elements with their attributes, text and children")
    func tree() throws {
        let xml = """
            <?xml version="1.0"?>
            <ValCurs Date="25.04.2026" xmlns:m="urn:m">
              <Valute ID="R01010"><CharCode>AUD</CharCode><Name>Australian dollar</Name></Valute>
              <Valute ID="R01020A"><CharCode>AZN</CharCode><m:Name>Manat</m:Name></Valute>
            </ValCurs>
            """
        let root = try XMLReader.Element(parsing: Array(xml.utf8), root: "ValCurs")
        #expect(root.localName == "ValCurs")
        #expect(root.attribute("Date") == "25.04.2026")
        #expect(root.children.count == 2)
        #expect(root.children("Valute").map { $0.attribute("ID") } == ["R01010", "R01020A"])
        #expect(root.child("Valute")?.child("Name")?.text == "Australian dollar")
        let second = try #require(root.children("Valute").last)
        #expect(second.child("Name")?.namespaceURI == "urn:m")
        #expect(second.child("Name")?.qualifiedName == "m:Name")
        #expect(second.child("Missing") == nil)
        let blank = root.text.allSatisfy(\.isWhitespace)
        #expect(blank)
    }

    @Test("reads trees up to 100 elements deep and declines deeper ones")
    func treeDepth() throws {
        func nested(_ depth: Int) -> [UInt8] { Array((String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)).utf8) }
        _ = try XMLReader.Element(parsing: nested(XMLReader.Element.maxDepth))
        #expect(readError { _ = try XMLReader.Element(parsing: nested(XMLReader.Element.maxDepth + 1)) }?.isUnexpectedDocument == true)
        // The pull reader has no depth limit.
        var reader = try XMLReader(nested(10_000))
        var events = 0
        while try reader.next() != nil { events += 1 }
        #expect(events == 20_000)
    }

    // MARK: - Documents it declines

    @Test("checks the root element's name before its attributes, so an HTML page is an unexpected document", arguments: [
        "<html lang=en><body>Bad Gateway</body></html>",
        "<?xml version='1.0'?><html xmlns='http://www.w3.org/1999/xhtml'/>",
        "<h:ValCurs2 xmlns:h='u'/>",
    ])
    func wrongRoot(_ html: String) {
        #expect(readError { _ = try XMLReader.Element(parsing: Array(html.utf8), root: "ValCurs") }?.isUnexpectedDocument == true)
    }

    @Test("accepts the root element asked for with any prefix")
    func rightRoot() throws {
        let root = try XMLReader.Element(parsing: Array("<v:ValCurs xmlns:v='u'/>".utf8), root: "ValCurs")
        #expect(root.namespaceURI == "u")
    }

    @Test("declines a document type declaration", arguments: [
        "<!DOCTYPE html><html/>", "<?xml version='1.0'?>\n<!doctype a [<!ENTITY x 'y'>]><a>&x;</a>",
    ])
    func doctype(_ xml: String) {
        #expect(readError { _ = try XMLReader.Element(parsing: Array(xml.utf8)) }?.isUnexpectedDocument == true)
    }

    @Test("reports an empty or blank document as empty", arguments: ["", " \n\t\r", "\u{FEFF}", "\u{FEFF}  "])
    func empty(_ xml: String) {
        #expect(readError { _ = try XMLReader(Array(xml.utf8)) } == .empty)
    }

    @Test("bounds attributes per tag and namespace declarations in scope, so hostile input stays cheap")
    func limits() throws {
        func attributes(_ count: Int) -> [UInt8] { Array("<a\((0..<count).map { " a\($0)=''" }.joined())/>".utf8) }
        _ = try XMLReader.Element(parsing: attributes(XMLReader.maxAttributes))
        #expect(readError { _ = try XMLReader.Element(parsing: attributes(XMLReader.maxAttributes + 1)) }?.isUnexpectedDocument == true)

        func declarations(_ count: Int) -> [UInt8] {
            let outer = (0..<count / 2).map { " xmlns:o\($0)='u'" }.joined()
            let inner = (0..<(count - count / 2)).map { " xmlns:i\($0)='u'" }.joined()
            return Array("<a\(outer)><b\(inner)/><b\(inner)/></a>".utf8)
        }
        _ = try XMLReader.Element(parsing: declarations(XMLReader.maxNamespaceDeclarations))
        #expect(readError { _ = try XMLReader.Element(parsing: declarations(XMLReader.maxNamespaceDeclarations + 1)) }?.isUnexpectedDocument == true)
    }

    // MARK: - Not well-formed

    @Test("rejects documents that are not well-formed", arguments: [
        Sample("mismatched end tag", "<a><b></c></a>"),
        Sample("end tag without a start", "<a></b></a>"),
        Sample("unclosed element", "<a><b></a>"),
        Sample("unclosed root", "<a>text"),
        Sample("no root element", "<!-- only a comment -->"),
        Sample("two root elements", "<a/><b/>"),
        Sample("text after the root", "<a/>x"),
        Sample("text before the root", "x<a/>"),
        Sample("unquoted attribute", "<a x=1/>"),
        Sample("mixed quotes", "<a x='1\"/>"),
        Sample("attribute without value", "<a x/>"),
        Sample("no space between attributes", "<a x='1'y='2'/>"),
        Sample("duplicate attribute", "<a x='1' x='2'/>"),
        Sample("same attribute in one namespace twice", "<a xmlns:p='u' xmlns:q='u' p:x='1' q:x='2'/>"),
        Sample("same attribute in one namespace written two ways", "<a xmlns:p='u' xmlns:q='&#117;'><b p:x='1' q:x='2'/></a>"),
        Sample("prefix bound to the xml namespace", "<a xmlns:p='http://www.w3.org/XML/1998/namespace'/>"),
        Sample("default namespace bound to the xmlns namespace", "<a xmlns='http://www.w3.org/2000/xmlns/'/>"),
        Sample("'<' in an attribute", "<a x='<'/>"),
        Sample("space after '<'", "< a/>"),
        Sample("space inside '/>'", "<a/ >"),
        Sample("empty element name", "<>x</>"),
        Sample("name starting with a digit", "<1a/>"),
        Sample("two colons in a name", "<a:b:c xmlns:a='u'/>"),
        Sample("empty local name", "<a: xmlns:a='u'/>"),
        Sample("undeclared element prefix", "<p:a/>"),
        Sample("undeclared attribute prefix", "<a p:x='1'/>"),
        Sample("prefix used outside its declaration", "<a><b xmlns:p='u'/><p:c/></a>"),
        Sample("prefix declared empty", "<a xmlns:p=''/>"),
        Sample("xmlns declared as a prefix", "<a xmlns:xmlns='u'/>"),
        Sample("xmlns used as a prefix", "<xmlns:a/>"),
        Sample("undefined entity", "<a>&nbsp;</a>"),
        Sample("bare ampersand", "<a>fish & chips</a>"),
        Sample("unterminated reference", "<a>&amp</a>"),
        Sample("empty character reference", "<a>&#;</a>"),
        Sample("character reference to NUL", "<a>&#0;</a>"),
        Sample("character reference to a surrogate", "<a>&#xD800;</a>"),
        Sample("character reference beyond Unicode", "<a>&#x110000;</a>"),
        Sample("']]>' in text", "<a>a ]]> b</a>"),
        Sample("unterminated CDATA section", "<a><![CDATA[x</a>"),
        Sample("CDATA section outside the root", "<![CDATA[x]]><a/>"),
        Sample("unknown markup", "<a><!ELEMENT a ANY></a>"),
        Sample("'--' inside a comment", "<a><!-- a -- b --></a>"),
        Sample("comment ending in '--->'", "<a><!-- a ---></a>"),
        Sample("unterminated comment", "<a><!-- x </a>"),
        Sample("processing instruction without a target", "<a><? x?></a>"),
        Sample("processing instruction named xml", "<a><?xml version='1.0'?></a>"),
        Sample("unterminated processing instruction", "<a><?pi x</a>"),
        Sample("XML declaration not at the start", " <?xml version='1.0'?><a/>"),
        Sample("XML declaration without a version", "<?xml encoding='UTF-8'?><a/>"),
        Sample("XML declaration out of order", "<?xml encoding='UTF-8' version='1.0'?><a/>"),
        Sample("unsupported XML version", "<?xml version='2.0'?><a/>"),
        Sample("invalid standalone", "<?xml version='1.0' standalone='maybe'?><a/>"),
        Sample("invalid encoding name", "<?xml version='1.0' encoding='windows 1251'?><a/>"),
        Sample("control character", "<a>\u{01}</a>"),
        Sample("invalid UTF-8 byte", bytes: Array("<a>".utf8) + [0xFF] + Array("</a>".utf8)),
        Sample("overlong UTF-8", bytes: Array("<a>".utf8) + [0xC0, 0xBC] + Array("</a>".utf8)),
        Sample("UTF-8 surrogate", bytes: Array("<a>".utf8) + [0xED, 0xA0, 0x80] + Array("</a>".utf8)),
        Sample("truncated UTF-8", bytes: Array("<a>".utf8) + [0xE2, 0x82]),
        Sample("U+FFFE", bytes: Array("<a>".utf8) + [0xEF, 0xBF, 0xBE] + Array("</a>".utf8)),
    ])
    func notWellFormed(_ sample: Sample) {
        let error = readError { _ = try XMLReader.Element(parsing: sample.bytes) }
        #expect(error?.isMalformedXML == true, "\(String(describing: error))")
    }

    @Test("rejects every truncation of a document as malformed")
    func truncations() throws {
        let xml = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?><!-- c --><?pi x?><r:root xmlns:r="urn:r" a='1' b="&amp;"><![CDATA[d]]>t&#x41;<e/><f>é</f></r:root>
            """.utf8)
        for length in 1..<xml.count {
            let error = readError { _ = try XMLReader.Element(parsing: xml[..<length]) }
            #expect(error?.isMalformedXML == true, "prefix of \(length) bytes: \(String(describing: error))")
        }
    }

    @Test("says where the document breaks: line, column and byte offset")
    func errorLocation() {
        let error = readError { _ = try XMLReader.Element(parsing: Array("<a>\n  <b>\n  </c>\n</a>".utf8)) }
        #expect(error?.description.contains("line 3, column 3 (byte 12)") == true, "\(String(describing: error))")
        #expect(error?.description.contains("</c>") == true)
    }

    @Test("never traps on damaged input")
    func damagedInput() throws {
        let synthetic = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <v:ValCurs xmlns:v="urn:v" xmlns="urn:d" Date="25.04.2026"><!-- c --><?pi x?>
              <Valute ID='R01010'><Name>Австралийский &amp; <![CDATA[доллар]]>&#x41;</Name><Value>53,8359</Value><e/></Valute>
            </v:ValCurs>
            """.utf8)
        let recorded = try [UInt8](Fixtures.data("cbr-russia/XML_daily_2026-04-25.xml"))
        var random = SplitMix64(seed: 20_260_425)
        let interesting = Array("<>/='\"&;:!?-[]# \tx".utf8) + [0x00, 0x80, 0x98, 0xC3, 0xFE, 0xFF]
        for original in [synthetic, recorded] {
            for _ in 0..<1000 {
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
                if let root = try? XMLReader.Element(parsing: bytes) { #expect(!root.localName.isEmpty) }
            }
        }
    }
}

// MARK: - Helpers

/// The events of reading `xml`, one string each: `<name a=1>`, `'text'`, `</name>`.
private func trace(_ xml: String) throws -> [String] {
    var reader = try XMLReader(Array(xml.utf8))
    var trace: [String] = []
    while let event = try reader.next() {
        switch event {
        case .startElement:
            trace.append("<" + ([reader.qualifiedName] + reader.attributes.map { "\($0.qualifiedName)=\($0.value)" }).joined(separator: " ") + ">")
        case .endElement:
            trace.append("</\(reader.qualifiedName)>")
        case .text:
            trace.append("'\(reader.text)'")
        }
    }
    return trace
}

/// The error `body` throws, or nil when it returns.
func readError(_ body: () throws -> Void) -> UpstreamDataError? {
    do {
        try body()
        return nil
    } catch let error as UpstreamDataError {
        return error
    } catch {
        Issue.record("not an UpstreamDataError: \(error)")
        return nil
    }
}
