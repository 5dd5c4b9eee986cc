import Foundation
import Testing
@testable import RatesClient

@Suite("Reading JSON documents")
struct JSONValueTests {
    func read(_ text: String) -> JSONValue? { JSONValue(parsing: Array(text.utf8)) }

    @Test("reads objects, arrays, strings with every escape, numbers as written, true, false and null, white space around")
    func readsValues() {
        #expect(read(#" {"a": [1, -2.50, 3e-2, 0], "b": {"c": true, "d": false, "e": null}, "f": "x"} "#) == .object([
            "a": .array([.number("1"), .number("-2.50"), .number("3e-2"), .number("0")]),
            "b": .object(["c": .bool(true), "d": .bool(false), "e": .null]),
            "f": .string("x"),
        ]))
        #expect(read(#""\"\\\/\b\f\n\r\t\u00e9\u20AC\ud83d\ude00 plain""#) == .string("\"\\/\u{08}\u{0C}\n\r\t\u{E9}\u{20AC}\u{1F600} plain"))
        #expect(read("\"ünïcode\"") == .string("ünïcode"))
        #expect(read(#"{"a": 1, "a": 2}"#) == .object(["a": .number("2")]))
        #expect(read("[]") == .array([]) && read("{}") == .object([:]))
    }

    @Test("refuses what is not one JSON value: bad literals, numbers, escapes, control characters, trailing text, lone surrogates")
    func refusesInvalid() {
        for bad in [
            "", " ", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[1 2]", "tru", "nul", "True", "01", "-", "1.", ".5", "1e", "+1",
            "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud83d\"", "\"\\ude00\"", "\"a\u{01}b\"", "[1] [2]", "{\"a\":1}x", "'a'",
        ] {
            #expect(read(bad) == nil, "\(bad)")
        }
        #expect(JSONValue(parsing: [0x22, 0xFF, 0x22]) == nil, "not UTF-8")
    }

    @Test("nesting deeper than the limit is refused, not a crash")
    func depthLimit() {
        let deep = String(repeating: "[", count: JSONValue.maxDepth) + String(repeating: "]", count: JSONValue.maxDepth)
        #expect(read(deep) != nil)
        #expect(read("[" + deep + "]") == nil)
        #expect(read(String(repeating: "[", count: 100_000)) == nil)
    }

    @Test("reads what JSONSerialization reads from a sync page, and refuses every truncation of it")
    func agreesWithFoundation() throws {
        let page = #"{"epoch":"e1","cursor":"c1","more":false,"reset":true,"base":"EUR","latestDate":"2026-11-02","upserts":{"2026-11-02":{"USD":"1.0857","JPY":"163.25"}},"sources":[["CBR","2026-11-01"]],"upsertSources":{"2026-11-02":[1,0]},"deletes":{}}"#
        let value = try #require(read(page))
        guard case .object(let object) = value, case .object(let upserts)? = object["upserts"] else {
            Issue.record("not an object with upserts")
            return
        }
        let foundation = try #require(try JSONSerialization.jsonObject(with: Data(page.utf8)) as? [String: Any])
        #expect(Set(object.keys) == Set(foundation.keys))
        #expect(upserts["2026-11-02"] == .object(["USD": .string("1.0857"), "JPY": .string("163.25")]))
        for count in 0..<page.utf8.count {
            #expect(JSONValue(parsing: Array(page.utf8.prefix(count))) == nil, "prefix of \(count) bytes")
        }
    }
}
