import Foundation
import RatesCore
import Testing

@testable import RatesUpstream

@Suite("JSON reader of the provider adapters")
struct ProviderJSONTests {
    func read(_ text: String) throws(UpstreamDataError) -> ProviderJSON {
        try ProviderJSON(answer: Array(text.utf8))
    }

    func error(_ bytes: [UInt8]) -> UpstreamDataError? {
        do {
            _ = try ProviderJSON(answer: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("keeps every number as the text it was written in, members in document order")
    func numbersAsText() throws {
        let value = try read(#" {"mid": 2.6410, "units": 100, "neg": -1.5e-3, "list": [0, true, null, "x"]} "#)
        #expect(value["mid"] == .number("2.6410"))
        #expect(value["units"] == .number("100"))
        #expect(value["neg"] == .number("-1.5e-3"))
        #expect(value["list"] == .array([.number("0"), .bool(true), .null, .string("x")]))
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["mid", "units", "neg", "list"])
    }

    @Test("gives a string's text, a number's literal and an array's elements, nil for any other kind")
    func optionalViews() throws {
        let value = try read(#"{"s": "24,170", "n": 24.170, "a": [1], "o": {"x": null}}"#)
        #expect(value["s"]?.stringValue == "24,170")
        #expect(value["s"]?.numberText == nil)
        #expect(value["n"]?.numberText == "24.170")
        #expect(value["n"]?.stringValue == nil)
        #expect(value["a"]?.elements == [.number("1")])
        #expect(value["o"]?.elements == nil)
        #expect(value["o"]?["x"] == .null)
        #expect(value["missing"] == nil)
        #expect(value["a"]?["x"] == nil)
    }

    @Test("decodes escapes, surrogate pairs and UTF-8 text")
    func strings() throws {
        #expect(try read(#""\u0414\u043e\u043b\u043b\u0430\u0440 \"US\"\n\/""#) == .string("Доллар \"US\"\n/"))
        #expect(try read(#""\ud83d\ude00 Złoto""#) == .string("😀 Złoto"))
        #expect(try read(#""არაბეთის""#) == .string("არაბეთის"))
    }

    @Test("reads a rate as published, or rounds a double printed in full to 15 significant digits")
    func publishedDecimals() {
        let cases: [(ProviderJSON, String?)] = [
            (.number("2.6410"), "2.6410"), (.number("0.0000028"), "0.0000028"), (.number("223871.54"), "223871.54"),
            (.number("4.2199999999999998"), "4.22"), (.number("7.8245000000000005"), "7.8245"), (.number("0.014999999999999999"), "0.015"),
            (.number("99.999999999999999"), "100"), (.number("10.75757525"), "10.75757525"), (.number("123456789012345.6"), "123456789012346"),
            (.number("1e-5"), nil), (.number("0"), nil), (.number("-1.5"), nil), (.string("53,8359"), "53.8359"), (.string("n/a"), nil),
            (.null, nil), (.bool(true), nil),
        ]
        for (value, expected) in cases {
            #expect(value.publishedDecimal == expected, "\(value)")
        }
    }

    @Test("refuses what RFC 8259 does not allow, duplicate keys and deep nesting")
    func refusals() {
        let bad = [
            #"{"a": 1, "a": 2}"#, #"[1, 2,]"#, #"{"a": 1,}"#, "[1] // comment", "[NaN]", "[01]", "[1.]", "[.5]", "[+1]", #"["\ud800"]"#,
            "[\"tab\there\"]", #"["\x"]"#, "[1] [2]", "{a: 1}", "['a']", "[tru]", #"{"a" 1}"#, String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
        ]
        for text in bad {
            #expect(error(Array(text.utf8))?.isUnexpectedLayout == true, "\(text)")
        }
        #expect(error([0x5B, 0x22, 0xFF, 0x22, 0x5D])?.isUnexpectedLayout == true, "invalid UTF-8")
        #expect(error(Array("<html><body>Service Unavailable</body></html>".utf8)) == .unexpectedLayout(
            provider: nil, "not JSON: the answer starts with '<' (an HTML or XML page)"))
        #expect(error([]) == .empty)
        #expect(error(Array(" \n ".utf8)) == .empty)
        #expect(error(Array((String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).utf8)) == nil)
    }
}
