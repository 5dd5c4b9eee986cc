/// A character encoding ``XMLReader`` reads: UTF-8, and the single-byte encodings central banks
/// publish in (the Bank of Russia writes windows-1251, the Central Bank of the Republic of
/// Turkey ISO-8859-9).
///
/// A document's encoding is named by its byte order mark or by the `encoding` of its XML
/// declaration; a document with neither is UTF-8. Decoding is exact: every byte of a
/// single-byte encoding maps to the one character its table gives (the tables match the
/// Unicode Consortium's mappings, as glibc's `iconv` and Python's `codecs` implement them), and
/// a byte the encoding leaves undefined is an error, never a replacement character.
public enum XMLEncoding: String, CaseIterable, Sendable {
    /// UTF-8, checked byte for byte: no overlong form, surrogate or truncated sequence.
    case utf8 = "UTF-8"
    /// windows-1251 (Cyrillic), as the Bank of Russia publishes.
    case windows1251 = "windows-1251"
    /// windows-1252 (Western European).
    case windows1252 = "windows-1252"
    /// ISO-8859-1 (Latin-1): each byte is the character U+0000 to U+00FF of the same value.
    case iso8859_1 = "ISO-8859-1"
    /// ISO-8859-9 (Latin-5, Turkish), as the Central Bank of the Republic of Turkey publishes.
    case iso8859_9 = "ISO-8859-9"

    /// The encoding an XML declaration names, in any case: the IANA name, an alias the IANA
    /// registry lists that XML can declare (no `:`), or a `cp125x` spelling in wide use. Nil
    /// for any other name.
    public init?(name: String) {
        guard let encoding = Self.names[name.lowercased()] else { return nil }
        self = encoding
    }

    /// The names ``init(name:)`` accepts, in lower case.
    static let names: [String: XMLEncoding] = [
        "utf-8": .utf8, "utf8": .utf8, "csutf8": .utf8,
        "windows-1251": .windows1251, "cp1251": .windows1251, "x-cp1251": .windows1251, "cswindows1251": .windows1251,
        "windows-1252": .windows1252, "cp1252": .windows1252, "x-cp1252": .windows1252, "cswindows1252": .windows1252,
        "iso-8859-1": .iso8859_1, "iso_8859-1": .iso8859_1, "iso-ir-100": .iso8859_1,
        "latin1": .iso8859_1, "l1": .iso8859_1, "ibm819": .iso8859_1, "cp819": .iso8859_1, "csisolatin1": .iso8859_1,
        "iso-8859-9": .iso8859_9, "iso_8859-9": .iso8859_9, "iso-ir-148": .iso8859_9,
        "latin5": .iso8859_9, "l5": .iso8859_9, "csisolatin5": .iso8859_9,
    ]

    /// The encodings read, for messages: "UTF-8, windows-1251, …".
    static var readable: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// For a single-byte encoding, the Unicode scalar value of each byte from 0x80 to 0xFF in
    /// byte order, 0 where the encoding defines no character; nil for UTF-8. Bytes below 0x80
    /// are ASCII in every encoding here.
    var upperHalf: [UInt16]? {
        switch self {
        case .utf8: nil
        case .windows1251: Self.windows1251UpperHalf
        case .windows1252: Self.windows1252UpperHalf
        case .iso8859_1: Self.iso8859_1UpperHalf
        case .iso8859_9: Self.iso8859_9UpperHalf
        }
    }
}

// MARK: - Tables

// Generated from glibc's iconv (one byte at a time, to UTF-32) and checked in the tests against
// Python's codecs; 0 marks a byte the encoding does not define.
extension XMLEncoding {
    /// windows-1251 (Cyrillic): 0xC0 to 0xFF are А to я in order; 0x98 is undefined.
    static let windows1251UpperHalf: [UInt16] = [
        0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021,  // 0x80
        0x20AC, 0x2030, 0x0409, 0x2039, 0x040A, 0x040C, 0x040B, 0x040F,  // 0x88
        0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,  // 0x90
        0x0000, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F,  // 0x98
        0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7,  // 0xA0
        0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407,  // 0xA8
        0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7,  // 0xB0
        0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457,  // 0xB8
    ] + Array(0x0410...0x044F)

    /// windows-1252 (Western European): ISO-8859-1 from 0xA0 on; 0x81, 0x8D, 0x8F, 0x90 and 0x9D are undefined.
    static let windows1252UpperHalf: [UInt16] = [
        0x20AC, 0x0000, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,  // 0x80
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x0000, 0x017D, 0x0000,  // 0x88
        0x0000, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,  // 0x90
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x0000, 0x017E, 0x0178,  // 0x98
    ] + Array(0xA0...0xFF)

    /// ISO-8859-9 (Latin-5, Turkish): ISO-8859-1 with Ğ, İ, Ş, ğ, ı, ş in place of Ð, Ý, Þ, ð, ý, þ.
    static let iso8859_9UpperHalf: [UInt16] = {
        var table = iso8859_1UpperHalf
        for (byte, scalar) in [(0xD0, 0x011E), (0xDD, 0x0130), (0xDE, 0x015E), (0xF0, 0x011F), (0xFD, 0x0131), (0xFE, 0x015F)] {
            table[byte - 0x80] = UInt16(scalar)
        }
        return table
    }()

    /// ISO-8859-1: the byte's own value.
    static let iso8859_1UpperHalf: [UInt16] = Array(0x80...0xFF)
}
