import NIOCore
import RatesCore

/// Writes JSON straight into a `ByteBuffer`, with numbers given as exact decimal text.
///
/// Rates are decimals published as text; writing the text as the JSON number keeps every
/// digit, which a round trip through `Double` would not.
struct JSONWriter {
    private(set) var buffer: ByteBuffer
    private var needsComma: Bool

    /// A writer of a document; with `continuing`, of members or elements that follow others written
    /// before (a comma comes first), without the braces around them: one segment of a ``SegmentedBody``.
    init(continuing: Bool = false, capacity: Int = 256) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
        needsComma = continuing
    }

    /// Whether the next member or element needs a comma before it: something precedes it.
    var isContinuing: Bool { needsComma }

    /// The bytes of the one object `body` writes.
    static func object(_ body: (inout JSONWriter) -> Void) -> ByteBuffer {
        var json = JSONWriter()
        json.object(body)
        return json.buffer
    }

    /// The bytes of the one top-level ``array(_:)`` `body` writes.
    static func array(_ body: (inout JSONWriter) -> Void) -> ByteBuffer {
        var json = JSONWriter()
        json.array(body)
        return json.buffer
    }

    mutating func object(_ body: (inout JSONWriter) -> Void) { enclosed("{", "}", body) }

    /// What `body` writes between `opening` and `closing`: an object's members or an array's elements.
    private mutating func enclosed(_ opening: StaticString, _ closing: StaticString, _ body: (inout JSONWriter) -> Void) {
        buffer.writeStaticString(opening)
        needsComma = false
        body(&self)
        buffer.writeStaticString(closing)
        needsComma = true
    }

    /// A field whose value is an object.
    mutating func field(_ key: String, object body: (inout JSONWriter) -> Void) {
        writeKey(key)
        object(body)
    }

    mutating func field(_ key: String, string value: String) {
        writeKey(key)
        writeString(value)
    }

    mutating func field(_ key: String, optionalString value: String?) {
        if let value { field(key, string: value) } else { field(key, raw: "null") }
    }

    /// A number given as valid JSON number text (a decimal's plain text).
    mutating func field(_ key: String, number text: String) {
        field(key, raw: text)
    }

    /// A field whose value is an array of strings.
    mutating func field(_ key: String, strings values: [String]) {
        writeKey(key)
        writeArray(values) { $0.writeString($1) }
    }

    /// A field whose value is an array of rows, each an array of strings.
    mutating func field(_ key: String, rows: [[String]]) {
        writeKey(key)
        writeArray(rows) { json, row in json.writeArray(row) { $0.writeString($1) } }
    }

    /// A field whose value is an array of integers.
    mutating func field(_ key: String, integers values: [Int]) {
        writeKey(key)
        writeArray(values) { $0.buffer.writeString(String($1)) }
    }

    private mutating func writeArray<Element>(_ elements: [Element], _ write: (inout JSONWriter, Element) -> Void) {
        buffer.writeStaticString("[")
        for (index, element) in elements.enumerated() {
            if index > 0 { buffer.writeStaticString(",") }
            write(&self, element)
        }
        buffer.writeStaticString("]")
        needsComma = true
    }

    /// A field whose value is an array of what `element` writes for each of `values` (an ``object(_:)`` each, usually).
    mutating func field<Element>(_ key: String, array values: [Element], _ element: (inout JSONWriter, Element) -> Void) {
        writeKey(key)
        writeArray(values, element)
    }

    /// A top-level array of what `body` writes, each element with ``element(_:)``.
    mutating func array(_ body: (inout JSONWriter) -> Void) { enclosed("[", "]", body) }

    /// An object as the next element of an ``array(_:)``.
    mutating func element(_ body: (inout JSONWriter) -> Void) {
        if needsComma { buffer.writeStaticString(",") }
        object(body)
    }

    /// An exact decimal as a JSON number, its digits written straight into the buffer.
    mutating func field(_ key: String, number value: ExactDecimal) {
        writeKey(key)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: value.plainTextCapacity) { value.writePlainText(into: $0) }
        needsComma = true
    }

    /// A currency's value: the code as the key, the exact decimal as the number.
    ///
    /// One write into the buffer per value (an answer lists every currency): the comma, the key
    /// and the digits.
    mutating func field(_ code: CurrencyCode, number value: ExactDecimal) {
        let comma = needsComma
        let (first, second, third) = code.letters
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 7 + value.plainTextCapacity) { bytes in
            var position = 0
            if comma {
                bytes[0] = UInt8(ascii: ",")
                position = 1
            }
            bytes[position] = UInt8(ascii: "\"")
            bytes[position + 1] = first
            bytes[position + 2] = second
            bytes[position + 3] = third
            bytes[position + 4] = UInt8(ascii: "\"")
            bytes[position + 5] = UInt8(ascii: ":")
            position += 6
            return position + value.writePlainText(into: UnsafeMutableRawBufferPointer(rebasing: bytes[position...]))
        }
        needsComma = true
    }

    mutating func field(_ key: String, bool value: Bool) {
        field(key, raw: value ? "true" : "false")
    }

    private mutating func field(_ key: String, raw: String) {
        writeKey(key)
        buffer.writeString(raw)
        needsComma = true
    }

    private mutating func writeKey(_ key: String) {
        if needsComma { buffer.writeStaticString(",") }
        writeString(key)
        buffer.writeStaticString(":")
        needsComma = false
    }

    private mutating func writeString(_ value: String) {
        buffer.writeStaticString("\"")
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.writeStaticString("\\\"")
            case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                buffer.writeBytes([UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: buffer.writeInteger(byte)
            }
        }
        buffer.writeStaticString("\"")
        needsComma = true
    }
}
