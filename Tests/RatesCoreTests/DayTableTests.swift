import RatesCore
import Testing

@Suite("Day tables")
struct DayTableTests {
    let day = Day("2026-04-30")!

    func code(_ text: String) -> CurrencyCode { CurrencyCode(text)! }

    @Test("each rate prints back as stored and keeps its source: the ECB of the day unless another provider or day is named")
    func ratesAndSources() {
        let rates = [code("USD"): "1.1702", code("PLN"): "4.2590", code("TTD"): "7.88170657", code("XAU"): "403022.367531696"]
        let sources = [
            code("PLN"): RateSource(provider: "NBP", day: day),
            code("TTD"): RateSource(provider: "CBTT", day: day),
            code("XAU"): RateSource(provider: "CBR", day: Day("2026-04-25")!),
        ]
        let table = DayTable(day: day, rates: rates, sources: sources)
        #expect(Array(table.codes) == [code("PLN"), code("TTD"), code("USD"), code("XAU")])
        #expect(table.texts == rates, "trailing zeros kept")
        #expect(table.nonDefaultSources == sources)
        #expect(table.source(at: table.index(of: code("USD"))!) == RateSource(provider: "ECB", day: day))
        #expect(table.source(at: table.index(of: code("XAU"))!) == RateSource(provider: "CBR", day: Day("2026-04-25")!))
        #expect(table.dailyRates == DailyRates(day: day, rates: rates, sources: sources))
    }

    @Test("a table of more distinct sources than a byte can number keeps every one; the order of entries does not matter")
    func manyDistinctSources() {
        // 26 × 26 codes, each from its own provider's day: 676 distinct sources in one table.
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var entries: [DayTable.Entry] = []
        for (first, a) in letters.enumerated() {
            for (second, b) in letters.enumerated() {
                let source = RateSource(provider: "P\(first)", day: day.adding(days: -second))
                entries.append(DayTable.Entry(code: code("Z\(a)\(b)"), text: Substring("\(first + 1).\(second)5"), source: source))
            }
        }
        let table = DayTable(day: day, entries: entries)
        #expect(table.count == 676)
        for entry in entries {
            let index = table.index(of: entry.code)!
            #expect(table.source(at: index) == entry.source && table.rate(at: index).description == String(entry.text))
        }
        #expect(DayTable(day: day, entries: entries.reversed()) == table)
    }

    @Test("every significand reads back exact, short or long, around 2^31 and up to 18 digits, with codes from AAA to ZZZ")
    func significandsOfEverySize() {
        let texts = ["2147483647", "2147483648", "0.2147483649", "999999999999999999", "1", "0.000000001", "4294967296", "12.5"]
        let codes = ["AAA", "ABC", "EUR", "MZN", "USD", "XAU", "ZZY", "ZZZ"].map(code)
        let rates = Dictionary(uniqueKeysWithValues: zip(codes, texts))
        let sources = [code("ZZZ"): RateSource(provider: "INFOREURO", day: day), code("AAA"): RateSource(provider: "X", day: Day("1901-01-01")!)]
        let table = DayTable(day: day, rates: rates, sources: sources)
        #expect(Array(table.codes) == codes)
        #expect(table.texts == rates)
        #expect(table.nonDefaultSources == sources)
        #expect(table.index(of: code("AAB")) == nil && table.index(of: code("ZZZ")) == 7 && table.index(of: code("EUR")) == 2)
        #expect(DayTable(day: day, encoded: table.encoded) == table)
        var other = rates
        other[code("ZZZ")] = "12.6"
        #expect(DayTable(day: day, rates: other, sources: sources) != table, "one value differs")
        #expect(DayTable(day: day, rates: rates) != table, "the sources differ")
        #expect(Set([table, DayTable(day: day, rates: rates, sources: sources)]).count == 1, "equal tables hash alike")
    }

    @Test("a day of 255 distinct sources and one of 256 each keep every value's source, read back and stored alike")
    func sourcesAroundOneByte() throws {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for sourceCount in [255, 256] {
            let entries = (0..<sourceCount).map { number in
                DayTable.Entry(
                    code: code("Y\(letters[number / 26])\(letters[number % 26])"), text: Substring("\(number + 1).5"),
                    source: RateSource(provider: "P\(number)", day: day.adding(days: -number)))
            }
            let table = DayTable(day: day, entries: entries)
            #expect(table.count == sourceCount)
            for entry in entries {
                let index = try #require(table.index(of: entry.code))
                #expect(table.source(at: index) == entry.source && table.rate(at: index).description == String(entry.text))
            }
            #expect(DayTable(day: day, encoded: table.encoded) == table)
        }
    }

    @Test("a text that is not a rate is left out of the table")
    func invalidTextLeftOut() {
        let table = DayTable(day: day, rates: [code("USD"): "1.1702", code("GBP"): "0,8338", code("JPY"): "-1"])
        #expect(Array(table.codes) == [code("USD")])
        #expect(table.nonDefaultSources.isEmpty)
    }

    @Test("a table's bytes read back to an equal table: rates, trailing zeros and sources")
    func encodingRoundTrip() throws {
        let sources = [code("PLN"): RateSource(provider: "NBP", day: day), code("XAU"): RateSource(provider: "CBR", day: Day("1998-12-31")!)]
        let rates = [code("USD"): "1.1702", code("PLN"): "4.2590", code("XAU"): "403022.367531696", code("JPY"): "0.000001"]
        for table in [
            DayTable(day: day, rates: rates, sources: sources), DayTable(day: day, rates: rates), DayTable(day: day, rates: [:]),
        ] {
            let decoded = try #require(DayTable(day: day, encoded: table.encoded))
            #expect(decoded == table)
            #expect(decoded.texts == table.texts && decoded.nonDefaultSources == table.nonDefaultSources)
        }
    }

    @Test("bytes that are not a whole table read as none: every truncation, a byte too many, altered bytes never crash")
    func encodingRejectsDamage() {
        let table = DayTable(
            day: day, rates: [code("USD"): "1.1702", code("PLN"): "4.2590", code("GBP"): "0.8338"],
            sources: [code("PLN"): RateSource(provider: "NBP", day: day)])
        let bytes = table.encoded
        for length in 0..<bytes.count { #expect(DayTable(day: day, encoded: Array(bytes.prefix(length))) == nil, "truncated to \(length)") }
        #expect(DayTable(day: day, encoded: bytes + [0]) == nil)
        var other = bytes
        other[0] = 2
        #expect(DayTable(day: day, encoded: other) == nil, "another format")
        other = bytes
        other[5...7] = [UInt8(ascii: "Z"), UInt8(ascii: "Z"), UInt8(ascii: "Z")]
        #expect(DayTable(day: day, encoded: other) == nil, "codes out of order")
        other = bytes
        other[other.count - 2] = 9
        #expect(DayTable(day: day, encoded: other) == nil, "a source position past the list")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var altered = bytes
            altered[Int.random(in: 0..<altered.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            if let read = DayTable(day: day, encoded: altered) {
                #expect(read.count == 3 && Array(read.codes) == read.codes.sorted())
            }
        }
    }
}
