import Foundation
import RatesCore
import Testing

@Suite("Reading JSON documents")
struct JSONValueTests {
    func read(_ text: String) -> JSONValue? { try? JSONValue(parsing: Array(text.utf8)) }
    func member(_ key: String, _ value: JSONValue) -> JSONValue.Member { JSONValue.Member(key: key, value: value) }

    @Test("reads objects in order, arrays, strings with every escape, numbers as written, true, false and null, white space around")
    func readsValues() {
        #expect(read(#" {"a": [1, -2.50, 3e-2, 0], "b": {"c": true, "d": false, "e": null}, "f": "x"} "#) == .object([
            member("a", .array([.number("1"), .number("-2.50"), .number("3e-2"), .number("0")])),
            member("b", .object([member("c", .bool(true)), member("d", .bool(false)), member("e", .null)])),
            member("f", .string("x")),
        ]))
        #expect(read(#""\"\\\/\b\f\n\r\t\u00e9\u20AC\ud83d\ude00 plain""#) == .string("\"\\/\u{08}\u{0C}\n\r\t\u{E9}\u{20AC}\u{1F600} plain"))
        #expect(read("\"ünïcode\"") == .string("ünïcode"))
        #expect(read("[]") == .array([]) && read("{}") == .object([]))
        #expect(read(#"{"a": {"b": "c"}}"#)?["a"]?["b"]?.stringValue == "c")
    }

    @Test("refuses what is not one JSON value: bad literals, numbers, escapes, control characters, trailing text, lone surrogates, a key twice")
    func refusesInvalid() {
        for bad in [
            "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[1 2]", "tru", "nul", "True", "01", "-", "1.", ".5", "1e", "+1",
            "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud83d\"", "\"\\ude00\"", "\"a\u{01}b\"", "[1] [2]", "{\"a\":1}x", "'a'", "{\"a\": 1, \"a\": 2}",
        ] {
            #expect(throws: JSONValue.SyntaxError.self, "\(bad)") { try JSONValue(parsing: Array(bad.utf8)) }
        }
        #expect(throws: JSONValue.SyntaxError.empty) { try JSONValue(parsing: Array(" \n".utf8)) }
        #expect(throws: JSONValue.SyntaxError.markup) { try JSONValue(parsing: Array("<html>".utf8)) }
        #expect(throws: JSONValue.SyntaxError.invalidUTF8) { try JSONValue(parsing: [0x22, 0xFF, 0x22]) }
        #expect(throws: JSONValue.SyntaxError.malformed(reason: "expected ',' or ']'", offset: 3)) { try JSONValue(parsing: Array("[1 2]".utf8)) }
    }

    @Test("nesting deeper than 64 is refused, not a crash")
    func depthLimit() {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(read(deep) != nil)
        #expect(read("[" + deep + "]") == nil)
        #expect(read(String(repeating: "[", count: 100_000)) == nil)
    }

    @Test("reads a sync page as JSONSerialization does, and refuses every truncation of it")
    func agreesWithFoundation() throws {
        let page = #"{"epoch":"e1","cursor":"c1","more":false,"reset":true,"base":"EUR","latestDate":"2026-11-02","upserts":{"2026-11-02":{"USD":"1.0857","JPY":"163.25"}},"sources":[["CBR","2026-11-01"]],"upsertSources":{"2026-11-02":[1,0]},"deletes":{}}"#
        let value = try #require(read(page))
        guard case .object(let members) = value else {
            Issue.record("not an object")
            return
        }
        let foundation = try #require(try JSONSerialization.jsonObject(with: Data(page.utf8)) as? [String: Any])
        #expect(members.map(\.key) == ["epoch", "cursor", "more", "reset", "base", "latestDate", "upserts", "sources", "upsertSources", "deletes"])
        #expect(Set(members.map(\.key)) == Set(foundation.keys))
        #expect(value["upserts"]?["2026-11-02"] == .object([member("USD", .string("1.0857")), member("JPY", .string("163.25"))]))
        for count in 0..<page.utf8.count {
            #expect(read(String(page.prefix(count))) == nil, "prefix of \(count) bytes")
        }
    }
}
