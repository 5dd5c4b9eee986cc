import Foundation

/// What the text reader needs of a simple font (Type1, TrueType, Type3 read alike): the character
/// each one-byte code stands for, by its encoding (``PDFEncoding``: StandardEncoding, WinAnsiEncoding, and
/// `/Differences` over either), and each code's width, for where the next text goes.
///
/// Widths are the font's `/Widths` from `/FirstChar` (its descriptor's `/MissingWidth` elsewhere), 600 for
/// every code of a Courier without widths (the standard fixed-pitch font), and otherwise an estimate of
/// 500 (half an em). Not read: `ToUnicode` maps and composite (Type0) fonts, whose two-byte codes are read
/// as two one-byte codes.
struct PDFFont {
    /// The text of each code (empty for a code the encoding leaves undefined).
    var characters: [String]
    /// The width of each code in thousandths of the text size.
    var widths: [Double]

    /// A font with StandardEncoding and estimated widths: what text in a font the page does not name is read with.
    static let fallback = PDFFont(characters: PDFEncoding.standard, widths: Array(repeating: 500, count: 256))

    /// The text of `codes`.
    func text(_ codes: [UInt8]) -> String {
        codes.map { characters[Int($0)] }.joined()
    }
}

extension PDFFont {
    init(_ dictionary: [String: PDFObject], in file: PDFFile) {
        let baseFont = file.resolve(dictionary["BaseFont"]).name ?? ""
        let descriptor = file.dictionary(dictionary["FontDescriptor"])
        // The base encoding: the one named, or the font's own: StandardEncoding for a non-symbolic font.
        var characters = PDFEncoding.standard
        let encoding = file.resolve(dictionary["Encoding"])
        let named = encoding.name ?? file.resolve(encoding.dictionary?["BaseEncoding"]).name
        if named == "WinAnsiEncoding" || (named == nil && dictionary["Subtype"]?.name == "TrueType") { characters = PDFEncoding.winAnsi }
        if let differences = file.resolve(encoding.dictionary?["Differences"]).array {
            var code = 0
            for item in differences.prefix(1024) {
                switch file.resolve(item) {
                case .integer(let value): code = value
                case .name(let glyph):
                    if (0..<256).contains(code) { characters[code] = PDFEncoding.character(named: glyph) }
                    code += 1
                default: break
                }
            }
        }
        let missing = file.number(descriptor?["MissingWidth"])
        var widths = Array(repeating: missing ?? (baseFont.contains("Courier") ? 600 : 500), count: 256)
        if let first = file.resolve(dictionary["FirstChar"]).integer, let list = file.resolve(dictionary["Widths"]).array {
            for (offset, width) in list.prefix(256).enumerated() where (0..<256).contains(first + offset) {
                if let value = file.number(width), value.isFinite { widths[first + offset] = value }
            }
        }
        self.init(characters: characters, widths: widths)
    }
}

/// The one-byte encodings of simple fonts (ISO 32000-1, Annex D) and the glyph names `/Differences` use.
enum PDFEncoding {
    /// Adobe's StandardEncoding: ASCII but for the quotes at 0x27 and 0x60, and its own upper half.
    static let standard: [String] = {
        var table = ascii
        table[0x27] = "\u{2019}"
        table[0x60] = "\u{2018}"
        let upper: [Int: String] = [
            0xA1: "¡", 0xA2: "¢", 0xA3: "£", 0xA4: "⁄", 0xA5: "¥", 0xA6: "ƒ", 0xA7: "§", 0xA8: "¤", 0xA9: "'", 0xAA: "“", 0xAB: "«",
            0xAC: "‹", 0xAD: "›", 0xAE: "ﬁ", 0xAF: "ﬂ", 0xB1: "–", 0xB2: "†", 0xB3: "‡", 0xB4: "·", 0xB6: "¶", 0xB7: "•", 0xB8: "‚",
            0xB9: "„", 0xBA: "”", 0xBB: "»", 0xBC: "…", 0xBD: "‰", 0xBF: "¿", 0xC1: "`", 0xC2: "´", 0xC3: "ˆ", 0xC4: "˜", 0xC5: "¯",
            0xC6: "˘", 0xC7: "˙", 0xC8: "¨", 0xCA: "˚", 0xCB: "¸", 0xCD: "˝", 0xCE: "˛", 0xCF: "ˇ", 0xD0: "—", 0xE1: "Æ", 0xE3: "ª",
            0xE8: "Ł", 0xE9: "Ø", 0xEA: "Œ", 0xEB: "º", 0xF1: "æ", 0xF5: "ı", 0xF8: "ł", 0xF9: "ø", 0xFA: "œ", 0xFB: "ß",
        ]
        for (code, character) in upper { table[code] = character }
        return table
    }()

    /// WinAnsiEncoding (Windows code page 1252): ASCII, Latin-1 above 0xA0, and its own 0x80–0x9F; the upper
    /// half is ``XMLEncoding/windows1252UpperHalf``, nothing where it leaves a code undefined.
    static let winAnsi: [String] = ascii[..<0x80] + XMLEncoding.windows1252UpperHalf.map { $0 == 0 ? "" : String(decoding: [$0], as: UTF16.self) }

    /// Printable ASCII, with tab, line feed and carriage return as white space; nothing elsewhere.
    private static let ascii: [String] = (0..<256).map { code in
        switch code {
        case 0x20...0x7E: String(UnicodeScalar(UInt8(code)))
        case 0x09, 0x0A, 0x0D: " "
        default: ""
        }
    }

    /// The text of a glyph name (`a`, `Aacute`, `eacute`, `uni20AC`, `space`, `zero`); `"\u{FFFD}"` for a name not known.
    static func character(named name: String) -> String {
        if name.count == 1, let scalar = name.unicodeScalars.first, scalar.isASCII { return name }
        if let known = names[name] { return known }
        for prefix in ["uni", "u"] where name.hasPrefix(prefix) {
            let hex = name.dropFirst(prefix.count)
            if (4...6).contains(hex.count), let value = UInt32(hex, radix: 16), let scalar = UnicodeScalar(value) { return String(scalar) }
        }
        // A letter and its accent: `Ccedilla`, `atilde`, `Ocircumflex`.
        for (accent, mark) in accents where name.hasSuffix(accent) && name.count == accent.count + 1 {
            return (String(name.prefix(1)) + mark).precomposedStringWithCanonicalMapping
        }
        return "\u{FFFD}"
    }

    private static let accents: [(String, String)] = [
        ("acute", "\u{301}"), ("grave", "\u{300}"), ("circumflex", "\u{302}"), ("tilde", "\u{303}"), ("dieresis", "\u{308}"),
        ("ring", "\u{30A}"), ("cedilla", "\u{327}"), ("caron", "\u{30C}"),
    ]

    private static let names: [String: String] = [
        "space": " ", "exclam": "!", "quotedbl": "\"", "numbersign": "#", "dollar": "$", "percent": "%", "ampersand": "&",
        "quotesingle": "'", "quoteright": "’", "quoteleft": "‘", "parenleft": "(", "parenright": ")", "asterisk": "*", "plus": "+",
        "comma": ",", "hyphen": "-", "minus": "−", "period": ".", "slash": "/", "zero": "0", "one": "1", "two": "2", "three": "3",
        "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9", "colon": ":", "semicolon": ";", "less": "<",
        "equal": "=", "greater": ">", "question": "?", "at": "@", "bracketleft": "[", "backslash": "\\", "bracketright": "]",
        "asciicircum": "^", "underscore": "_", "grave": "`", "braceleft": "{", "bar": "|", "braceright": "}", "asciitilde": "~",
        "nbspace": "\u{A0}", "nonbreakingspace": "\u{A0}", "Euro": "€", "endash": "–", "emdash": "—", "bullet": "•", "ellipsis": "…",
        "quotedblleft": "“", "quotedblright": "”", "quotesinglbase": "‚", "quotedblbase": "„", "degree": "°", "copyright": "©",
        "registered": "®", "trademark": "™", "germandbls": "ß", "AE": "Æ", "ae": "æ", "OE": "Œ", "oe": "œ", "Oslash": "Ø",
        "oslash": "ø", "Eth": "Ð", "eth": "ð", "Thorn": "Þ", "thorn": "þ", "multiply": "×", "divide": "÷", "plusminus": "±",
        "sterling": "£", "yen": "¥", "cent": "¢", "section": "§", "paragraph": "¶", "ordfeminine": "ª", "ordmasculine": "º",
        "guillemotleft": "«", "guillemotright": "»", "exclamdown": "¡", "questiondown": "¿", "periodcentered": "·", "dotlessi": "ı",
        "currency": "¤", "brokenbar": "¦", "dieresis": "¨", "acute": "´", "cedilla": "¸", "macron": "¯", "logicalnot": "¬",
        "mu": "µ", "onehalf": "½", "onequarter": "¼", "threequarters": "¾", "onesuperior": "¹", "twosuperior": "²",
        "threesuperior": "³", "fi": "ﬁ", "fl": "ﬂ", "florin": "ƒ", "perthousand": "‰", "dagger": "†", "daggerdbl": "‡",
    ]
}
