/// A small strict JSON reader (RFC 8259) that keeps every number as the text it was written
/// with, so a rate published as `24.170` is stored as `24.170`, digit for digit; Foundation's
/// readers turn numbers into binary floating point first.
enum RawJSON: Equatable {
    case object([String: RawJSON])
    case array([RawJSON])
    case string(String)
    /// The number's text as written (`-1.5e3` stays `-1.5e3`).
    case number(String)
    case bool(Bool)
    case null

    struct SyntaxError: Error {
        var reason: String
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The JSON document of a provider's answer: ``UpstreamDataError/empty`` for a body of white
    /// space only, ``UpstreamDataError/unexpectedLayout(provider:_:)`` for anything that is not
    /// one JSON value (an HTML error page, a body cut short).
    static func document(_ body: [UInt8], provider: String) throws(UpstreamDataError) -> RawJSON {
        guard body.contains(where: { !isSpace($0) }) else { throw .empty }
        do {
            return try parse(body)
        } catch {
            throw .unexpectedLayout(provider: provider, "the body is not JSON: \(error.reason)")
        }
    }

    // MARK: - Access

    /// The member `name` of an object; `nil` for a missing member or a value that is not an object.
    subscript(name: String) -> RawJSON? {
        if case .object(let members) = self { return members[name] }
        return nil
    }

    /// The text of a string value, else `nil`.
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The text of a number value as written, else `nil`.
    var number: String? {
        if case .number(let text) = self { return text }
        return nil
    }

    /// The elements of an array value, else `nil`.
    var array: [RawJSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    // MARK: - Reading

    /// Reads one JSON document; anything after it but white space is an error.
    static func parse(_ body: [UInt8]) throws(SyntaxError) -> RawJSON {
        var reader = Reader(bytes: body)
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == body.count else { throw reader.failure("text after the JSON value") }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        func failure(_ reason: String) -> SyntaxError { SyntaxError(reason: "\(reason) at byte \(index)") }

        mutating func skipSpace() {
            while index < bytes.count, RawJSON.isSpace(bytes[index]) { index += 1 }
        }

        mutating func expect(_ literal: String) throws(SyntaxError) {
            for byte in literal.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw failure("expected \(literal)") }
                index += 1
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> RawJSON {
            guard depth < 64 else { throw failure("nesting too deep") }
            skipSpace()
            guard index < bytes.count else { throw failure("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [String: RawJSON] = [:]
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    let name = try string()
                    skipSpace()
                    try expect(":")
                    guard members.updateValue(try value(depth: depth + 1), forKey: name) == nil else { throw failure("member \(name) twice") }
                    skipSpace()
                    guard index < bytes.count else { throw failure("unexpected end") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect("}")
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [RawJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                }
                while true {
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw failure("unexpected end") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    try expect("]")
                    return .array(elements)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"):
                try expect("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            default:
                return .number(try number())
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            try expect("\"")
            var chunkStart = index
            var utf8: [UInt8] = []
            while true {
                guard index < bytes.count else { throw failure("unterminated string") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    utf8.append(contentsOf: bytes[chunkStart..<index])
                    index += 1
                    break
                }
                guard byte >= 0x20 else { throw failure("control character in a string") }
                if byte == UInt8(ascii: "\\") {
                    utf8.append(contentsOf: bytes[chunkStart..<index])
                    index += 1
                    guard index < bytes.count else { throw failure("unterminated escape") }
                    let escaped = bytes[index]
                    index += 1
                    let simple: [UInt8: String] = [
                        UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/", UInt8(ascii: "b"): "\u{08}",
                        UInt8(ascii: "f"): "\u{0C}", UInt8(ascii: "n"): "\n", UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
                    ]
                    if let text = simple[escaped] {
                        utf8.append(contentsOf: text.utf8)
                    } else if escaped == UInt8(ascii: "u") {
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code) {
                            try expect("\\u")
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw failure("invalid \\u escape") }
                        utf8.append(contentsOf: String(scalar).utf8)
                    } else {
                        throw failure("invalid escape")
                    }
                    chunkStart = index
                } else {
                    index += 1
                }
            }
            guard let text = String(validating: utf8, as: UTF8.self) else { throw failure("a string that is not UTF-8") }
            return text
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw failure("invalid \\u escape")
            }
            index += 4
            return code
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, returned as written.
        mutating func number() throws(SyntaxError) -> String {
            let start = index
            func digits() -> Int {
                let from = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
                return index - from
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            let integerDigits = digits()
            guard integerDigits > 0 else { throw failure("not a JSON value") }
            guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw failure("a number with a leading zero") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw failure("no digit after the decimal point") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw failure("no digit in the exponent") }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }
}
