/// A reader of PDF syntax (ISO 32000-1, 7.2–7.3) over bytes: numbers, literal and hexadecimal strings,
/// names, arrays, dictionaries, references (`N G R`) and keywords (`obj`, `stream`, a content stream's
/// operators). Strict where a value is malformed, bounded everywhere: arrays and dictionaries nest at
/// most ``maxDepth`` deep, and nothing recurses deeper than that.
struct PDFSyntax {
    /// What one step of reading gives.
    enum Token: Equatable {
        case object(PDFObject)
        /// A bare word: `obj`, `endobj`, `stream`, `R`, an operator (`Tj`, `BT`).
        case keyword(String)
        case arrayEnd
        case dictionaryEnd
    }

    /// The deepest nesting of arrays and dictionaries read.
    static let maxDepth = 64
    /// The longest string read (a content stream's whole text is far shorter).
    static let maxStringBytes = 1 << 20

    let bytes: [UInt8]
    /// The next byte to read.
    var position: Int
    /// Where reading stops (exclusive).
    let end: Int

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.position = start
        self.end = min(end ?? bytes.count, bytes.count)
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C || byte == 0x00
    }

    static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "/"), UInt8(ascii: "%"):
            true
        default: false
        }
    }

    static func isRegular(_ byte: UInt8) -> Bool { !isWhitespace(byte) && !isDelimiter(byte) }

    static func malformed(_ what: String, at offset: Int) -> UpstreamDataError {
        .layout("not a readable PDF: \(what) at byte \(offset)")
    }

    // MARK: - Objects

    /// The next object, or `nil` at the end; a keyword or a closing bracket where an object should be is an error.
    mutating func object(depth: Int = 0) throws(UpstreamDataError) -> PDFObject? {
        let start = position
        switch try nextToken(references: true) {
        case nil: return nil
        case .object(let object): return try complete(object, depth: depth)
        case .keyword(let word): throw Self.malformed("the keyword \(UpstreamDataError.quoted(word)) where an object should be", at: start)
        case .arrayEnd, .dictionaryEnd: throw Self.malformed("a closing bracket without its opening one", at: start)
        }
    }

    /// The next token; arrays and dictionaries come as their opening marker (an empty `.array` or
    /// `.dictionary`) for ``complete(_:depth:)`` to fill. `references` reads `N G R` as a reference
    /// (content streams have none).
    mutating func nextToken(references: Bool) throws(UpstreamDataError) -> Token? {
        skipWhitespaceAndComments()
        guard position < end else { return nil }
        let start = position
        let byte = bytes[position]
        switch byte {
        case UInt8(ascii: "("):
            return .object(.string(try literalString()))
        case UInt8(ascii: "<"):
            if position + 1 < end, bytes[position + 1] == UInt8(ascii: "<") {
                position += 2
                return .object(.dictionary([:]))
            }
            return .object(.string(try hexString()))
        case UInt8(ascii: ">"):
            guard position + 1 < end, bytes[position + 1] == UInt8(ascii: ">") else { throw Self.malformed("a lone >", at: start) }
            position += 2
            return .dictionaryEnd
        case UInt8(ascii: "["):
            position += 1
            return .object(.array([]))
        case UInt8(ascii: "]"):
            position += 1
            return .arrayEnd
        case UInt8(ascii: "/"):
            position += 1
            return .object(.name(try nameText()))
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ")"):
            position += 1
            return .keyword(String(UnicodeScalar(byte)))
        default:
            break
        }
        // A number or a keyword: a run of regular characters.
        while position < end, Self.isRegular(bytes[position]) { position += 1 }
        let word = bytes[start..<position]
        if let number = Self.number(word) {
            if references, case .integer(let object) = number, object >= 0 {
                let after = position
                if case .object(.integer(let generation))? = try? nextToken(references: false), generation >= 0,
                    case .keyword("R")? = try? nextToken(references: false)
                {
                    return .object(.reference(PDFReference(number: object, generation: generation)))
                }
                position = after
            }
            return .object(number)
        }
        let text = String(decoding: word, as: UTF8.self)
        switch text {
        case "true": return .object(.bool(true))
        case "false": return .object(.bool(false))
        case "null": return .object(.null)
        default: return .keyword(text)
        }
    }

    /// `object` with its contents read, when it opens an array or a dictionary.
    mutating func complete(_ object: PDFObject, depth: Int) throws(UpstreamDataError) -> PDFObject {
        switch object {
        case .array(let items) where items.isEmpty:
            guard depth < Self.maxDepth else { throw Self.malformed("arrays and dictionaries nested more than \(Self.maxDepth) deep", at: position) }
            var items: [PDFObject] = []
            while true {
                let start = position
                switch try nextToken(references: true) {
                case nil: throw Self.malformed("an array that does not end", at: start)
                case .arrayEnd: return .array(items)
                case .object(let item): items.append(try complete(item, depth: depth + 1))
                // Content streams' arrays (TJ's) hold only objects; a keyword in an array is malformed.
                case .keyword(let word): throw Self.malformed("the keyword \(UpstreamDataError.quoted(word)) in an array", at: start)
                case .dictionaryEnd: throw Self.malformed(">> in an array", at: start)
                }
            }
        case .dictionary(let entries) where entries.isEmpty:
            guard depth < Self.maxDepth else { throw Self.malformed("arrays and dictionaries nested more than \(Self.maxDepth) deep", at: position) }
            var entries: [String: PDFObject] = [:]
            while true {
                let start = position
                switch try nextToken(references: true) {
                case nil: throw Self.malformed("a dictionary that does not end", at: start)
                case .dictionaryEnd: return .dictionary(entries)
                case .object(.name(let key)):
                    let valueStart = position
                    switch try nextToken(references: true) {
                    case .object(let value)?: entries[key] = try complete(value, depth: depth + 1)
                    default: throw Self.malformed("the key /\(key) without a value", at: valueStart)
                    }
                default: throw Self.malformed("a dictionary key that is not a name", at: start)
                }
            }
        default:
            return object
        }
    }

    // MARK: - Lexical parts

    mutating func skipWhitespaceAndComments() {
        while position < end {
            let byte = bytes[position]
            if Self.isWhitespace(byte) {
                position += 1
            } else if byte == UInt8(ascii: "%") {
                while position < end, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
            } else {
                return
            }
        }
    }

    /// An integer or a real (`12`, `-3`, `+.5`, `4.`), or `nil` for a word that is not a number.
    static func number(_ word: ArraySlice<UInt8>) -> PDFObject? {
        guard !word.isEmpty, word.count <= 40 else { return nil }
        var digits = 0
        var points = 0
        for (index, byte) in zip(word.indices, word) {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"): if index != word.startIndex { return nil }
            default: return nil
            }
        }
        guard digits > 0, points <= 1 else { return nil }
        var text = String(decoding: word, as: UTF8.self)
        if points == 0, let value = Int(text) { return .integer(value) }
        // `+.5`, `-.5`, `4.`: forms Double(_:) does not read as they are.
        var negative = false
        if text.hasPrefix("+") || text.hasPrefix("-") { negative = text.removeFirst() == "-" }
        if text.hasPrefix(".") { text = "0" + text }
        if text.hasSuffix(".") { text += "0" }
        guard let magnitude = Double(text), magnitude.isFinite else { return nil }
        return .real(negative ? -magnitude : magnitude)
    }

    /// A literal string, `(` … `)`, balanced parentheses and escapes read (7.3.4.2).
    private mutating func literalString() throws(UpstreamDataError) -> [UInt8] {
        let start = position
        position += 1
        var depth = 1
        var out: [UInt8] = []
        while position < end {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "("):
                depth += 1
                out.append(byte)
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { return out }
                out.append(byte)
            case UInt8(ascii: "\\"):
                guard position < end else { break }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case 0x0D:  // a line continued: no character
                    if position < end, bytes[position] == 0x0A { position += 1 }
                case 0x0A: break
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value = Int(escaped - UInt8(ascii: "0"))
                    var count = 1
                    while count < 3, position < end, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[position]) {
                        value = value * 8 + Int(bytes[position] - UInt8(ascii: "0"))
                        position += 1
                        count += 1
                    }
                    out.append(UInt8(truncatingIfNeeded: value))
                default: out.append(escaped)  // \( \) \\ and any other character stand for themselves
                }
            case 0x0D:  // an end of line in a string is a line feed
                if position < end, bytes[position] == 0x0A { position += 1 }
                out.append(0x0A)
            default:
                out.append(byte)
            }
            guard out.count <= Self.maxStringBytes else { throw Self.malformed("a string longer than \(Self.maxStringBytes) bytes", at: start) }
        }
        throw Self.malformed("a string that does not end", at: start)
    }

    /// A hexadecimal string, `<` … `>`, white space ignored, an odd last digit followed by 0 (7.3.4.3).
    private mutating func hexString() throws(UpstreamDataError) -> [UInt8] {
        let start = position
        position += 1
        var out: [UInt8] = []
        var high: UInt32?
        while position < end {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: ">") {
                if let high { out.append(UInt8(high << 4)) }
                return out
            }
            if Self.isWhitespace(byte) { continue }
            guard let digit = byte.digitValue(radix: 16) else {
                throw Self.malformed("a hexadecimal string with \(UpstreamDataError.quoted(String(UnicodeScalar(byte))))", at: position - 1)
            }
            if let value = high {
                out.append(UInt8(value << 4 | digit))
                high = nil
            } else {
                high = digit
            }
            guard out.count <= Self.maxStringBytes else { throw Self.malformed("a string longer than \(Self.maxStringBytes) bytes", at: start) }
        }
        throw Self.malformed("a hexadecimal string that does not end", at: start)
    }

    /// A name's characters after its slash, `#xx` escapes undone.
    private mutating func nameText() throws(UpstreamDataError) -> String {
        var out: [UInt8] = []
        while position < end, Self.isRegular(bytes[position]) {
            let byte = bytes[position]
            if byte == UInt8(ascii: "#"), position + 2 < end, let high = bytes[position + 1].digitValue(radix: 16),
                let low = bytes[position + 2].digitValue(radix: 16)
            {
                out.append(UInt8(high << 4 | low))
                position += 3
            } else {
                out.append(byte)
                position += 1
            }
        }
        return String(out.map { Character(UnicodeScalar($0)) })
    }
}
