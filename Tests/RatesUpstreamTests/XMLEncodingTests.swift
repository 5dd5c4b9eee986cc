import RatesUpstream
import Testing

@Suite("XML encodings")
struct XMLEncodingTests {
    /// What Python 3.11's codecs make of each byte from 0x80 to 0xFF, in byte order, 32 a line;
    /// U+FFFD marks a byte they refuse (`UnicodeDecodeError`). Generated with
    /// `bytes([b]).decode(codec)` for `cp1251`, `cp1252`, `latin_1` and `iso8859_9`.
    static let python: [(XMLEncoding, [String])] = [
        (
            .windows1251,
            [
                "ЂЃ‚ѓ„…†‡€‰Љ‹ЊЌЋЏђ‘’“”•–—\u{FFFD}™љ›њќћџ",  // 0x80
                "\u{A0}ЎўЈ¤Ґ¦§Ё©Є«¬\u{AD}®Ї°±Ііґµ¶·ё№є»јЅѕї",  // 0xA0
                "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ",  // 0xC0
                "абвгдежзийклмнопрстуфхцчшщъыьэюя",  // 0xE0
            ]
        ),
        (
            .windows1252,
            [
                "€\u{FFFD}‚ƒ„…†‡ˆ‰Š‹Œ\u{FFFD}Ž\u{FFFD}\u{FFFD}‘’“”•–—˜™š›œ\u{FFFD}žŸ",  // 0x80
                "\u{A0}¡¢£¤¥¦§¨©ª«¬\u{AD}®¯°±²³´µ¶·¸¹º»¼½¾¿",  // 0xA0
                "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞß",  // 0xC0
                "àáâãäåæçèéêëìíîïðñòóôõö÷øùúûüýþÿ",  // 0xE0
            ]
        ),
        (
            .iso8859_1,
            [
                "\u{80}\u{81}\u{82}\u{83}\u{84}\u{85}\u{86}\u{87}\u{88}\u{89}\u{8A}\u{8B}\u{8C}\u{8D}\u{8E}\u{8F}\u{90}\u{91}\u{92}\u{93}\u{94}\u{95}\u{96}\u{97}\u{98}\u{99}\u{9A}\u{9B}\u{9C}\u{9D}\u{9E}\u{9F}",  // 0x80
                "\u{A0}¡¢£¤¥¦§¨©ª«¬\u{AD}®¯°±²³´µ¶·¸¹º»¼½¾¿",  // 0xA0
                "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞß",  // 0xC0
                "àáâãäåæçèéêëìíîïðñòóôõö÷øùúûüýþÿ",  // 0xE0
            ]
        ),
        (
            .iso8859_9,
            [
                "\u{80}\u{81}\u{82}\u{83}\u{84}\u{85}\u{86}\u{87}\u{88}\u{89}\u{8A}\u{8B}\u{8C}\u{8D}\u{8E}\u{8F}\u{90}\u{91}\u{92}\u{93}\u{94}\u{95}\u{96}\u{97}\u{98}\u{99}\u{9A}\u{9B}\u{9C}\u{9D}\u{9E}\u{9F}",  // 0x80
                "\u{A0}¡¢£¤¥¦§¨©ª«¬\u{AD}®¯°±²³´µ¶·¸¹º»¼½¾¿",  // 0xA0
                "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏĞÑÒÓÔÕÖ×ØÙÚÛÜİŞß",  // 0xC0
                "àáâãäåæçèéêëìíîïğñòóôõö÷øùúûüışÿ",  // 0xE0
            ]
        ),
    ]

    @Test("decodes every byte of each single-byte encoding as Python's codecs do, and rejects the bytes they refuse")
    func tables() throws {
        #expect(Set(Self.python.map(\.0)) == Set(XMLEncoding.allCases).subtracting([.utf8]))
        for (encoding, reference) in Self.python {
            let expected = Array(reference.joined().unicodeScalars)
            try #require(expected.count == 128)
            for byte in UInt8(0x80)...0xFF {
                let document = declared(encoding.rawValue, bytes: [byte, UInt8(ascii: "a"), byte])
                let scalar = expected[Int(byte - 0x80)]
                if scalar == "\u{FFFD}" {
                    let error = readError { _ = try XMLReader.Element(parsing: document) }
                    #expect(error?.isMalformedXML == true, "\(encoding) byte \(byte): \(String(describing: error))")
                } else {
                    let text = try XMLReader.Element(parsing: document).text
                    #expect(text.unicodeScalars.elementsEqual([scalar, "a", scalar]), "\(encoding) byte \(byte)")
                }
            }
            // Bytes below 0x80 are ASCII.
            let ascii = (UInt8(0x20)..<0x80).filter { $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: "&") }
            #expect(try XMLReader.Element(parsing: declared(encoding.rawValue, bytes: ascii)).text == String(decoding: ascii, as: UTF8.self))
        }
    }

    @Test("decodes the Turkish letters of ISO-8859-9 exactly")
    func turkish() throws {
        // "Ğğ Şş İı" in ISO-8859-9, where ISO-8859-1 has "Ðð Þþ Ýý".
        let bytes: [UInt8] = [0xD0, 0xF0, 0x20, 0xDE, 0xFE, 0x20, 0xDD, 0xFD]
        #expect(try XMLReader.Element(parsing: declared("ISO-8859-9", bytes: bytes)).text == "Ğğ Şş İı")
        #expect(try XMLReader.Element(parsing: declared("ISO-8859-1", bytes: bytes)).text == "Ðð Þþ Ýý")
    }

    @Test("reads a single-byte document as declared, even where its bytes would be valid UTF-8")
    func declaredWins() throws {
        #expect(try XMLReader.Element(parsing: declared("ISO-8859-1", bytes: [0xC3, 0xA9])).text == "Ã©")
        #expect(try XMLReader.Element(parsing: declared("UTF-8", bytes: [0xC3, 0xA9])).text == "é")
    }

    @Test("decodes names and attribute values too, not only text")
    func namesAndAttributes() throws {
        // <Имя код="Рубль"/> in windows-1251.
        let bytes: [UInt8] = Array("<?xml version='1.0' encoding='windows-1251'?><".utf8) + [0xC8, 0xEC, 0xFF] + Array(" ".utf8)
            + [0xEA, 0xEE, 0xE4] + Array("='".utf8) + [0xD0, 0xF3, 0xE1, 0xEB, 0xFC] + Array("'/>".utf8)
        let root = try XMLReader.Element(parsing: bytes)
        #expect(root.localName == "Имя")
        #expect(root.attribute("код") == "Рубль")
    }

    @Test("names the encoding from the XML declaration, by any of its names, in any case", arguments: [
        ("UTF-8", XMLEncoding.utf8), ("utf-8", .utf8), ("windows-1251", .windows1251), ("WINDOWS-1251", .windows1251),
        ("cp1251", .windows1251), ("windows-1252", .windows1252), ("ISO-8859-1", .iso8859_1), ("latin1", .iso8859_1),
        ("ISO-8859-9", .iso8859_9), ("iso-8859-9", .iso8859_9), ("ISO_8859-9", .iso8859_9), ("latin5", .iso8859_9),
    ])
    func names(_ name: String, _ encoding: XMLEncoding) throws {
        let reader = try XMLReader(declared(name, bytes: Array("x".utf8)))
        #expect(reader.encoding == encoding)
    }

    @Test("reads UTF-8 when nothing says otherwise, and after a UTF-8 byte order mark")
    func utf8ByDefault() throws {
        #expect(try XMLReader(Array("<a>é</a>".utf8)).encoding == .utf8)
        #expect(try XMLReader(Array("<?xml version='1.0'?><a>é</a>".utf8)).encoding == .utf8)
        #expect(try XMLReader.Element(parsing: Array("\u{FEFF}<?xml version='1.0' encoding='UTF-8'?><a>é</a>".utf8)).text == "é")
        #expect(try XMLReader.Element(parsing: Array("\u{FEFF}<a>é</a>".utf8)).text == "é")
    }

    @Test("declines an encoding it does not read", arguments: [
        declared("KOI8-R", bytes: []), declared("UTF-16", bytes: []), declared("Shift_JIS", bytes: []),
        [0xFE, 0xFF, 0x00, 0x3C, 0x00, 0x61, 0x00, 0x2F, 0x00, 0x3E],  // UTF-16BE with a byte order mark
        [0xFF, 0xFE, 0x3C, 0x00, 0x61, 0x00, 0x2F, 0x00, 0x3E, 0x00],  // UTF-16LE with a byte order mark
    ])
    func unsupported(_ document: [UInt8]) {
        let error = readError { _ = try XMLReader(document) }
        #expect(error?.isUnexpectedDocument == true, "\(String(describing: error))")
    }

    @Test("rejects a UTF-8 byte order mark before a declaration of another encoding")
    func contradictoryByteOrderMark() {
        let error = readError { _ = try XMLReader([0xEF, 0xBB, 0xBF] + declared("windows-1251", bytes: [])) }
        #expect(error?.isMalformedXML == true, "\(String(describing: error))")
    }

    @Test("rejects a single-byte document with characters XML does not allow")
    func controlCharacters() {
        let error = readError { _ = try XMLReader(declared("windows-1251", bytes: [0xC0, 0x01])) }
        #expect(error?.isMalformedXML == true, "\(String(describing: error))")
    }

    @Test("counts error locations in the bytes of the document as given")
    func locations() {
        // Three Cyrillic letters (three bytes in windows-1251, six in UTF-8), then a bad reference.
        let document = declared("windows-1251", bytes: [0xC0, 0xC1, 0xC2] + Array("&bad;".utf8))
        let error = readError { _ = try XMLReader.Element(parsing: document) }
        let offset = declared("windows-1251", bytes: []).count - "</a>".utf8.count + 3
        #expect(error?.description.contains("(byte \(offset))") == true, "\(String(describing: error))")
    }
}

/// `<a>BYTES</a>` after an XML declaration naming `encoding`.
private func declared(_ encoding: String, bytes: [UInt8]) -> [UInt8] {
    Array("<?xml version=\"1.0\" encoding=\"\(encoding)\"?><a>".utf8) + bytes + Array("</a>".utf8)
}
