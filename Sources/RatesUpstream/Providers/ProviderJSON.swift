import Foundation
import RatesCore

/// A JSON answer read strictly (RFC 8259), every number kept as the text it was written in.
///
/// Central banks publish rates as JSON numbers (`"mid":2.6410`). Foundation's `JSONSerialization`
/// turns them into binary doubles, which drops the published trailing zero (`2.641`) and can
/// change digits, so the adapters read answers with this reader instead: a number stays its
/// literal text, ``publishedDecimal`` turns it into a ``RatesCore/RateText``.
///
/// Strict means: one value with only whitespace around it, valid UTF-8, no duplicate key in an
/// object, no trailing comma, no comment, no `NaN`, nesting at most 64 deep. Anything else is an
/// ``UpstreamDataError/unexpectedLayout(provider:_:)`` naming the byte offset; an empty body is
/// ``UpstreamDataError/empty``.
enum ProviderJSON: Equatable, Sendable {
    case object([Member])
    case array([ProviderJSON])
    case string(String)
    /// The number's literal text (`"2.6410"`, `"-1"`, `"1e-5"`).
    case number(String)
    case bool(Bool)
    case null

    /// One `"key": value` pair of an object, in document order.
    struct Member: Equatable, Sendable {
        let key: String
        let value: ProviderJSON
    }

    /// Reads `bytes` as one JSON document for `provider` (its key, named in errors).
    init(parsing bytes: [UInt8], provider: String) throws(UpstreamDataError) {
        var parser = Parser(bytes: bytes, provider: provider)
        self = try parser.document()
    }
}

// MARK: - Reading values

extension ProviderJSON {
    /// The member named `key` of an object; `nil` when absent or when this is not an object.
    subscript(key: String) -> ProviderJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var isNull: Bool { self == .null }

    /// The text of a string value; `nil` for any other kind.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The literal text of a number value (`"24.170"`); `nil` for any other kind.
    var numberText: String? {
        if case .number(let text) = self { return text }
        return nil
    }

    /// The elements of an array value; `nil` for any other kind.
    var elements: [ProviderJSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// A short name of the value's kind for error messages.
    var kind: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// The value for an error message: a string or a number as written, otherwise its kind.
    var shown: String {
        switch self {
        case .string(let text), .number(let text): text
        default: kind
        }
    }

    /// The elements of an array, or a layout error naming `what`.
    func array(_ what: String, provider: String) throws(UpstreamDataError) -> [ProviderJSON] {
        guard case .array(let elements) = self else { throw .unexpectedLayout(provider: provider, "\(what) is \(kind), not an array") }
        return elements
    }

    /// The members of an object, or a layout error naming `what`.
    func members(_ what: String, provider: String) throws(UpstreamDataError) -> [Member] {
        guard case .object(let members) = self else { throw .unexpectedLayout(provider: provider, "\(what) is \(kind), not an object") }
        return members
    }

    /// The member `key` of this object (`what`), which must be present (it may be `null`).
    func field(_ key: String, of what: String, provider: String) throws(UpstreamDataError) -> ProviderJSON {
        guard case .object = self else { throw .unexpectedLayout(provider: provider, "\(what) is \(kind), not an object") }
        guard let value = self[key] else { throw .unexpectedLayout(provider: provider, "\(what) has no \"\(key)\"") }
        return value
    }

    /// The text of a string value, or a layout error naming `what`.
    func string(_ what: String, provider: String) throws(UpstreamDataError) -> String {
        guard case .string(let text) = self else { throw .unexpectedLayout(provider: provider, "\(what) is \(kind), not a string") }
        return text
    }

    /// A whole number (`100`, or the string `"100"` where a source quotes its numbers), or a layout error.
    func integer(_ what: String, provider: String) throws(UpstreamDataError) -> Int {
        let text: String
        switch self {
        case .number(let literal), .string(let literal): text = literal
        default: throw .unexpectedLayout(provider: provider, "\(what) is \(kind), not a whole number")
        }
        guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int(text)
        else { throw .unexpectedLayout(provider: provider, "\(what) is \(UpstreamDataError.quoted(text)), not a whole number") }
        return value
    }

    /// The published decimal text of a rate written as a JSON number or a string, or `nil` when it
    /// is neither or not a valid ``RatesCore/RateText`` (negative, zero, an exponent, garbage).
    ///
    /// A string goes through ``ProviderValidation/rateText(_:)``. A number is its literal text,
    /// except one written with 16 or more significant digits: that is a binary double printed in
    /// full (Bank Negara Malaysia's `4.2199999999999998` for 4.22, the HKMA's `7.8245000000000005`
    /// for 7.8245), a precision no bank publishes. Its text is rounded half up to 15 significant
    /// digits, the precision a double holds for any decimal, and trailing fraction zeros are
    /// dropped: the figure the publisher stored (`4.22`, `7.8245`). The rounding is done on the
    /// digits, never through a `Double`.
    var publishedDecimal: String? {
        switch self {
        case .string(let text):
            return ProviderValidation.rateText(text)
        case .number(let literal):
            guard RateText.isValid(literal) else { return nil }
            return Self.roundedToDoublePrecision(literal)
        default:
            return nil
        }
    }

    /// Significant digits a double holds for every decimal.
    static let doubleDigits = 15

    /// `text` (a valid ``RatesCore/RateText``) unchanged when it has at most 15 significant digits;
    /// otherwise rounded half up to 15, trailing fraction zeros and a bare point dropped.
    static func roundedToDoublePrecision(_ text: String) -> String {
        let halves = text.split(separator: ".", omittingEmptySubsequences: false)
        var digits = Array((halves[0] + (halves.count == 2 ? halves[1] : "")).utf8).map { Int($0 - UInt8(ascii: "0")) }
        var point = halves[0].utf8.count
        guard let first = digits.firstIndex(where: { $0 != 0 }), digits.count - first > doubleDigits else { return text }
        let cut = first + doubleDigits
        let roundUp = digits[cut] >= 5
        for index in cut..<digits.count { digits[index] = 0 }
        if roundUp {
            var index = cut - 1
            while index >= 0 {
                if digits[index] == 9 {
                    digits[index] = 0
                    index -= 1
                } else {
                    digits[index] += 1
                    break
                }
            }
            if index < 0 {
                digits.insert(1, at: 0)
                point += 1
            }
        }
        var integer = digits[..<point].drop { $0 == 0 }.map(String.init).joined()
        if integer.isEmpty { integer = "0" }
        var fraction = Array(digits[point...])
        while fraction.last == 0 { fraction.removeLast() }
        return fraction.isEmpty ? integer : integer + "." + fraction.map(String.init).joined()
    }
}

// MARK: - Parser

extension ProviderJSON {
    private struct Parser {
        let bytes: [UInt8]
        let provider: String
        var index = 0
        var depth = 0
        static let maxDepth = 64

        init(bytes: [UInt8], provider: String) {
            self.bytes = bytes
            self.provider = provider
        }

        func failure(_ reason: String) -> UpstreamDataError {
            .unexpectedLayout(provider: provider, "malformed JSON: \(reason) at byte \(index)")
        }

        mutating func document() throws(UpstreamDataError) -> ProviderJSON {
            skipWhitespace()
            guard index < bytes.count else { throw .empty }
            if bytes[index] == UInt8(ascii: "<") {
                throw .unexpectedLayout(provider: provider, "not JSON: the answer starts with '<' (an HTML or XML page)")
            }
            guard String(bytes: bytes, encoding: .utf8) != nil else { throw .unexpectedLayout(provider: provider, "not JSON: invalid UTF-8") }
            let value = try self.value()
            skipWhitespace()
            guard index == bytes.count else { throw failure("unexpected text after the document") }
            return value
        }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value() throws(UpstreamDataError) -> ProviderJSON {
            skipWhitespace()
            guard index < bytes.count else { throw failure("the document ends where a value was expected") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw failure("unexpected character \(UpstreamDataError.quoted(String(decoding: [bytes[index]], as: UTF8.self)))")
            }
        }

        mutating func literal(_ word: String) throws(UpstreamDataError) {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw failure("expected \(word)")
            }
            index += expected.count
        }

        mutating func enter() throws(UpstreamDataError) {
            depth += 1
            guard depth <= Self.maxDepth else { throw failure("nesting deeper than \(Self.maxDepth)") }
            index += 1
        }

        mutating func object() throws(UpstreamDataError) -> ProviderJSON {
            try enter()
            var members: [Member] = []
            var keys = Set<String>()
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
                let key = try string()
                guard keys.insert(key).inserted else { throw failure("duplicate key \(UpstreamDataError.quoted(key))") }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
                index += 1
                members.append(Member(key: key, value: try value()))
                skipWhitespace()
                guard index < bytes.count else { throw failure("the document ends inside an object") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                guard bytes[index] == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
                index += 1
                depth -= 1
                return .object(members)
            }
        }

        mutating func array() throws(UpstreamDataError) -> ProviderJSON {
            try enter()
            var elements: [ProviderJSON] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(elements)
            }
            while true {
                elements.append(try value())
                skipWhitespace()
                guard index < bytes.count else { throw failure("the document ends inside an array") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                guard bytes[index] == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
                index += 1
                depth -= 1
                return .array(elements)
            }
        }

        /// A string starting at the opening quote; escapes decoded, surrogate pairs joined.
        mutating func string() throws(UpstreamDataError) -> String {
            index += 1
            var text: [UInt8] = []
            while true {
                guard index < bytes.count else { throw failure("the document ends inside a string") }
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw failure("the document ends inside an escape") }
                    let escaped = bytes[index]
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                    case UInt8(ascii: "b"): text.append(0x08)
                    case UInt8(ascii: "f"): text.append(0x0C)
                    case UInt8(ascii: "n"): text.append(0x0A)
                    case UInt8(ascii: "r"): text.append(0x0D)
                    case UInt8(ascii: "t"): text.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800...0xDBFF).contains(scalar) {
                            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                                throw failure("a lone surrogate in \\u escape")
                            }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw failure("a lone surrogate in \\u escape") }
                            scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                        } else if (0xDC00...0xDFFF).contains(scalar) {
                            throw failure("a lone surrogate in \\u escape")
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw failure("an invalid \\u escape") }
                        text.append(contentsOf: Array(String(Character(unicode)).utf8))
                    default:
                        throw failure("an invalid escape")
                    }
                case 0x00..<0x20:
                    throw failure("a control character inside a string")
                default:
                    text.append(byte)
                }
            }
        }

        mutating func hex4() throws(UpstreamDataError) -> UInt32 {
            guard bytes.count - index >= 4 else { throw failure("the document ends inside a \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw failure("an invalid \\u escape")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// A number's literal text: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        mutating func number() throws(UpstreamDataError) -> String {
            let start = index
            func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9") }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw failure("a number without digits") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                guard !isDigit(index) else { throw failure("a number with a leading zero") }
            } else {
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard isDigit(index) else { throw failure("a number without digits after its point") }
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard isDigit(index) else { throw failure("a number without exponent digits") }
                while isDigit(index) { index += 1 }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }
}

// MARK: - Quotes from JSON answers

extension PublishedQuote {
    /// A quote from a JSON answer: `code` must be three capital letters and `value` a published
    /// decimal (``ProviderJSON/publishedDecimal``); otherwise the error names the code or the text.
    static func reading(code: String, value: ProviderJSON, unit: Int = 1, direction: Direction, day: Day) throws(UpstreamDataError) -> PublishedQuote {
        guard let currency = CurrencyCode(code) else { throw .invalidCurrencyCode(code, day: day) }
        guard let text = value.publishedDecimal else { throw .invalidRate(currency: currency, day: day, text: value.shown) }
        return PublishedQuote(currency: currency, value: text, unit: unit, direction: direction)
    }
}
