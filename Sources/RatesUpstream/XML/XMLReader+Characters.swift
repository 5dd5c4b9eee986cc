// Encodings, characters, references, and the byte-level helpers every part of the reader uses.
extension XMLReader {
    /// The namespace the prefix `xml` is bound to, without a declaration.
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    /// The namespace of namespace declarations, which no prefix may be bound to.
    static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"

    // MARK: - Encodings and characters

    /// Replaces the document by its UTF-8 text: bytes below 0x80 are ASCII, the others the
    /// characters `upperHalf` gives (see ``XMLEncoding/upperHalf``).
    mutating func decode(_ upperHalf: [UInt16], from encoding: XMLEncoding) throws(UpstreamDataError) {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(count + count / 2)
        for index in 0..<count {
            let byte = bytes[index]
            guard byte >= 0x80 else {
                decoded.append(byte)
                continue
            }
            guard let scalar = Unicode.Scalar(upperHalf[Int(byte - 0x80)]), scalar.value != 0 else {
                throw malformed("byte 0x\(hex(byte)), which \(encoding.rawValue) does not define", at: index)
            }
            decoded.append(contentsOf: scalar.utf8)
        }
        storage = Storage(copying: decoded)
        bytes = UnsafeBufferPointer(storage.bytes)
    }

    /// Checks the whole document is UTF-8 made of characters XML 1.0 allows.
    func checkCharacters() throws(UpstreamDataError) {
        var index = 0
        while index < count {
            // Eight plain ASCII bytes (no control character, no high bit) at a time.
            if index + 8 <= count, let base = bytes.baseAddress {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let high: UInt64 = 0x8080_8080_8080_8080
                if word & high == 0, (word &- 0x2020_2020_2020_2020) & ~word & high == 0 {
                    index += 8
                    continue
                }
            }
            let lead = bytes[index]
            if lead < 0x80 {
                if lead < 0x20, lead != ASCII.tab, lead != ASCII.lineFeed, lead != ASCII.carriageReturn {
                    throw malformed("control character U+00\(hex(lead)), which XML does not allow", at: index)
                }
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F  // no surrogates
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: throw malformed("invalid UTF-8 byte 0x\(hex(lead))", at: index)
            }
            guard index + length <= count else { throw malformed("truncated UTF-8 sequence", at: index) }
            guard (low...high).contains(bytes[index + 1]) else { throw malformed("invalid UTF-8 sequence", at: index) }
            for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
                throw malformed("invalid UTF-8 sequence", at: index)
            }
            // U+FFFE and U+FFFF are not XML characters.
            if lead == 0xEF, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
                throw malformed("character U+FFF\(bytes[index + 2] == 0xBE ? "E" : "F"), which XML does not allow", at: index)
            }
            index += length
        }
    }

    // MARK: - References and values

    /// The character a reference at `start` (`&amp;`, `&#65;`, `&#x41;`) stands for, and where it ends.
    func reference(at start: Int) throws(UpstreamDataError) -> (Unicode.Scalar, end: Int) {
        var index = start + 1
        guard index < count else { throw truncated("inside a reference") }
        if bytes[index] == ASCII.hash {
            index += 1
            var radix: UInt32 = 10
            if index < count, bytes[index] == ASCII.lowercaseX {
                radix = 16
                index += 1
            }
            var value: UInt32 = 0
            var digits = 0
            while index < count, let digit = bytes[index].digitValue(radix: radix) {
                value = value * radix + digit
                guard value <= 0x10FFFF else { throw malformed("character reference beyond U+10FFFF", at: start) }
                digits += 1
                index += 1
            }
            guard index < count else { throw truncated("inside a character reference") }
            guard digits > 0, bytes[index] == ASCII.semicolon else { throw malformed("invalid character reference", at: start) }
            guard isXMLCharacter(value), let scalar = Unicode.Scalar(value) else {
                throw malformed("character reference to a character XML does not allow", at: start)
            }
            return (scalar, index + 1)
        }
        let nameStart = index
        while index < count, bytes[index].isXMLNameCharacter { index += 1 }
        guard index < count else { throw truncated("inside an entity reference") }
        guard bytes[index] == ASCII.semicolon else { throw malformed("'&' that starts no reference (write &amp;)", at: start) }
        let name = nameStart..<index
        guard let entity = ASCII.predefinedEntities.first(where: { equal(name, $0.name) }) else {
            throw malformed("undefined entity &\(text(name));", at: start)
        }
        return (entity.scalar, index + 1)
    }

    /// How the bytes of some text become a string.
    enum TextKind {
        /// Text between markup: references replaced, CR LF and CR made LF.
        case characterData
        /// A CDATA section's content: CR LF and CR made LF.
        case cdata
        /// An attribute value: references replaced, CR LF, CR, LF and tab made a space.
        case attributeValue
    }

    /// The string `range` stands for; `verbatim` says its bytes are that string already.
    /// References were checked when the range was read.
    func decode(_ range: Range<Int>, as kind: TextKind, verbatim: Bool) -> String {
        if verbatim { return text(range) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == ASCII.ampersand, kind != .cdata, let (scalar, end) = try? reference(at: index) {
                decoded.append(contentsOf: scalar.utf8)
                index = end
                continue
            }
            index += 1
            switch byte {
            case ASCII.carriageReturn:
                if index < range.upperBound, bytes[index] == ASCII.lineFeed { index += 1 }
                decoded.append(kind == .attributeValue ? ASCII.space : ASCII.lineFeed)
            case ASCII.tab where kind == .attributeValue, ASCII.lineFeed where kind == .attributeValue:
                decoded.append(ASCII.space)
            default:
                decoded.append(byte)
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// An attribute's value, with references replaced and white space normalized.
    func value(of attribute: Attribute) -> String {
        decode(attribute.value, as: .attributeValue, verbatim: attribute.isVerbatim)
    }

    // MARK: - Helpers

    /// Skips XML white space; whether there was any.
    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = position
        while position < count, bytes[position].isXMLWhitespace { position += 1 }
        return position > start
    }

    /// Whether the bytes at `position` are `literal`; with `ignoringCase`, ASCII letters compared without case.
    func hasLiteral(_ literal: StaticString, ignoringCase: Bool = false) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard position + length <= count else { return false }
        let characters = literal.utf8Start
        for offset in 0..<length {
            let byte = bytes[position + offset]
            let expected = characters[offset]
            guard byte == expected || (ignoringCase && expected.isASCIILetter && byte | 0x20 == expected | 0x20) else { return false }
        }
        return true
    }

    func equal(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        let characters = literal.utf8Start
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != characters[offset] { return false }
        return true
    }

    func equal(_ range: Range<Int>, _ string: String) -> Bool {
        let utf8 = string.utf8
        guard range.count == utf8.count else { return false }
        if let equal = utf8.withContiguousStorageIfAvailable({ characters in
            for offset in 0..<characters.count where bytes[range.lowerBound + offset] != characters[offset] { return false }
            return true
        }) {
            return equal
        }
        return bytes[range].elementsEqual(utf8)
    }

    func equal(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for offset in 0..<lhs.count where bytes[lhs.lowerBound + offset] != bytes[rhs.lowerBound + offset] { return false }
        return true
    }

    /// The bytes in `range` as they are.
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// "line 3, column 7 (byte 120)": lines and columns from 1, the byte offset from 0, columns
    /// and offsets in bytes of the document as given (in characters, for a single-byte encoding).
    func location(_ offset: Int) -> String {
        // A single-byte document was decoded to UTF-8: each of its bytes is one character now.
        let countsCharacters = encoding.upperHalf != nil
        var line = 1
        var column = 1
        var original = 0
        for index in 0..<min(offset, count) {
            let byte = bytes[index]
            if countsCharacters, byte & 0xC0 == 0x80 { continue }
            original += 1
            if byte == ASCII.lineFeed {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return "line \(line), column \(column) (byte \(original))"
    }

    func malformed(_ reason: String, at offset: Int) -> UpstreamDataError {
        .malformedXML("\(reason) at \(location(offset))")
    }

    func truncated(_ detail: String) -> UpstreamDataError {
        .malformedXML("unexpected end of document (\(documentSize) bytes) \(detail)")
    }

    /// Two hexadecimal digits.
    func hex(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + text : text
    }

    func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    enum ASCII {
        static let tab = UInt8(ascii: "\t")
        static let lineFeed = UInt8(ascii: "\n")
        static let carriageReturn = UInt8(ascii: "\r")
        static let space = UInt8(ascii: " ")
        static let doubleQuote = UInt8(ascii: "\"")
        static let hash = UInt8(ascii: "#")
        static let ampersand = UInt8(ascii: "&")
        static let singleQuote = UInt8(ascii: "'")
        static let hyphen = UInt8(ascii: "-")
        static let period = UInt8(ascii: ".")
        static let slash = UInt8(ascii: "/")
        static let colon = UInt8(ascii: ":")
        static let semicolon = UInt8(ascii: ";")
        static let lessThan = UInt8(ascii: "<")
        static let equals = UInt8(ascii: "=")
        static let greaterThan = UInt8(ascii: ">")
        static let questionMark = UInt8(ascii: "?")
        static let exclamationMark = UInt8(ascii: "!")
        static let closingBracket = UInt8(ascii: "]")
        static let underscore = UInt8(ascii: "_")
        static let lowercaseX = UInt8(ascii: "x")

        static let byteOrderMark: StaticString = "\u{FEFF}"
        static let xmlDeclarationStart: StaticString = "<?xml"
        static let processingInstructionStart: StaticString = "<?"
        static let processingInstructionEnd: StaticString = "?>"
        static let commentStart: StaticString = "<!--"
        static let cdataStart: StaticString = "<![CDATA["
        static let cdataEnd: StaticString = "]]>"
        static let doctypeStart: StaticString = "<!DOCTYPE"
        static let xml: StaticString = "xml"
        static let xmlns: StaticString = "xmlns"
        static let version: StaticString = "version"
        static let encoding: StaticString = "encoding"
        static let standalone: StaticString = "standalone"
        /// The five entities XML predefines, and the characters they stand for.
        static let predefinedEntities: [(name: StaticString, scalar: Unicode.Scalar)] = [
            ("lt", "<"), ("gt", ">"), ("amp", "&"), ("apos", "'"), ("quot", "\""),
        ]
    }
}

// MARK: - Bytes

extension UInt8 {
    var isXMLWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x09 || self == 0x0D }

    var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }

    var isASCIILetter: Bool { self | 0x20 >= 0x61 && self | 0x20 <= 0x7A }

    /// Letters, `_` and any non-ASCII byte (the document is known to be valid UTF-8). The colon is handled apart.
    var isXMLNameStart: Bool {
        self >= 0x80 || (self >= 0x40 && (0x07FF_FFFE_87FF_FFFE as UInt64) >> (self & 0x3F) & 1 == 1)
    }

    /// A name start byte, a digit, `-` or `.`.
    var isXMLNameCharacter: Bool {
        self >= 0x40 ? isXMLNameStart : (0x03FF_6000_0000_0000 as UInt64) >> self & 1 == 1
    }

    func digitValue(radix: UInt32) -> UInt32? {
        if isASCIIDigit { return UInt32(self - 0x30) }
        guard radix == 16 else { return nil }
        let lower = self | 0x20
        guard lower >= 0x61, lower <= 0x66 else { return nil }
        return UInt32(lower - 0x61) + 10
    }
}
