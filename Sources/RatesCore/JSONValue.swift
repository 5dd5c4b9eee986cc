import Foundation

/// A JSON document read strictly (RFC 8259), every number kept as the text it was written in.
///
/// Rates are published and served as decimal text: a binary double would drop a published trailing
/// zero (`2.641` for `2.6410`) and can change digits, so the provider adapters and the SDK's sync pages
/// read JSON with this reader, not Foundation's. It makes each string once (most have no escape and
/// are taken as they stand), which also makes it several times faster than `JSONDecoder` on a sync
/// page of tens of thousands of values.
///
/// Strict means: one value with only whitespace around it, valid UTF-8, no duplicate key in an
/// object, no trailing comma, no comment, no `NaN`, nesting at most 64 deep. Anything else is a
/// ``SyntaxError`` naming the byte offset.
public enum JSONValue: Equatable, Sendable {
    case object([Member])
    case array([JSONValue])
    case string(String)
    /// The number's literal text (`"2.6410"`, `"-1"`, `"1e-5"`).
    case number(String)
    case bool(Bool)
    case null

    /// One `"key": value` pair of an object, in document order.
    public struct Member: Equatable, Sendable {
        public let key: String
        public let value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Why bytes are not a JSON document.
    public enum SyntaxError: Error, Equatable, Sendable {
        /// Nothing but white space.
        case empty
        /// The bytes start with `<`: an HTML or XML page.
        case markup
        case invalidUTF8
        /// What was wrong, and at which byte.
        case malformed(reason: String, offset: Int)
    }

    /// `text` in double quotes for an error message: control characters escaped, cut after 40 characters.
    public static func quoted(_ text: String) -> String {
        let limit = 40
        let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
        return "\"" + shown.unicodeScalars.map { $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }.joined() + "\""
    }

    /// Reads `bytes` as one JSON document.
    public init(parsing bytes: [UInt8]) throws(SyntaxError) {
        var parser = Parser(bytes: bytes)
        self = try parser.document()
    }
}

// MARK: - Reading values

extension JSONValue {
    /// The member named `key` of an object; `nil` when absent or when this is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var isNull: Bool { self == .null }

    /// The text of a string value; `nil` for any other kind.
    public var stringValue: String? { if case .string(let text) = self { text } else { nil } }

    /// The literal text of a number value (`"24.170"`); `nil` for any other kind.
    public var numberText: String? { if case .number(let text) = self { text } else { nil } }

    /// The elements of an array value; `nil` for any other kind.
    public var elements: [JSONValue]? { if case .array(let elements) = self { elements } else { nil } }

    /// A short name of the value's kind for error messages.
    public var kind: String {
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
    public var shown: String {
        switch self {
        case .string(let text), .number(let text): text
        default: kind
        }
    }
}

// MARK: - Parser

extension JSONValue {
    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var depth = 0
        static let maxDepth = 64

        func failure(_ reason: String) -> SyntaxError {
            .malformed(reason: reason, offset: index)
        }

        mutating func document() throws(SyntaxError) -> JSONValue {
            skipWhitespace()
            guard index < bytes.count else { throw .empty }
            if bytes[index] == UInt8(ascii: "<") { throw .markup }
            guard String(bytes: bytes, encoding: .utf8) != nil else { throw .invalidUTF8 }
            let value = try self.value()
            skipWhitespace()
            guard index == bytes.count else { throw failure("unexpected text after the document") }
            return value
        }

        mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
        }

        mutating func value() throws(SyntaxError) -> JSONValue {
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
            default: throw failure("unexpected character \(JSONValue.quoted(String(decoding: [bytes[index]], as: UTF8.self)))")
            }
        }

        mutating func literal(_ word: String) throws(SyntaxError) {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw failure("expected \(word)")
            }
            index += expected.count
        }

        /// Steps past the opening bracket of an object or array, and past its closing bracket
        /// `close` too when it is empty: `true` then.
        mutating func enterIsEmpty(closedBy close: Unicode.Scalar) throws(SyntaxError) -> Bool {
            depth += 1
            guard depth <= Self.maxDepth else { throw failure("nesting deeper than \(Self.maxDepth)") }
            index += 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: close) else { return false }
            index += 1
            depth -= 1
            return true
        }

        /// After a member or element of `container`: `true` past a comma (another follows), `false`
        /// past the closing bracket `close`.
        mutating func another(closedBy close: Unicode.Scalar, inside container: String) throws(SyntaxError) -> Bool {
            skipWhitespace()
            guard index < bytes.count else { throw failure("the document ends inside \(container)") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                return true
            }
            guard bytes[index] == UInt8(ascii: close) else { throw failure("expected ',' or '\(close)'") }
            index += 1
            depth -= 1
            return false
        }

        mutating func object() throws(SyntaxError) -> JSONValue {
            var members: [Member] = []
            var keys = Set<String>()
            guard try !enterIsEmpty(closedBy: "}") else { return .object(members) }
            repeat {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
                let key = try string()
                guard keys.insert(key).inserted else { throw failure("duplicate key \(JSONValue.quoted(key))") }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
                index += 1
                members.append(Member(key: key, value: try value()))
            } while try another(closedBy: "}", inside: "an object")
            return .object(members)
        }

        mutating func array() throws(SyntaxError) -> JSONValue {
            var elements: [JSONValue] = []
            guard try !enterIsEmpty(closedBy: "]") else { return .array(elements) }
            repeat {
                elements.append(try value())
            } while try another(closedBy: "]", inside: "an array")
            return .array(elements)
        }

        /// A string starting at the opening quote; escapes decoded, surrogate pairs joined.
        mutating func string() throws(SyntaxError) -> String {
            index += 1
            // Most strings have no escape: they are taken as they stand (the document is valid UTF-8).
            var end = index
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
            if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
                defer { index = end + 1 }
                return String(decoding: bytes[index..<end], as: UTF8.self)
            }
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

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard bytes.count - index >= 4 else { throw failure("the document ends inside a \\u escape") }
            let end = index + 4
            while index < end, "0123456789abcdefABCDEF".utf8.contains(bytes[index]) { index += 1 }
            guard index == end else { throw failure("an invalid \\u escape") }
            return UInt32(String(decoding: bytes[(end - 4)..<end], as: UTF8.self), radix: 16)!
        }

        /// A number's literal text: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        mutating func number() throws(SyntaxError) -> String {
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
