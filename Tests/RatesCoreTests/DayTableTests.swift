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
        #expect(table.codes == [code("PLN"), code("TTD"), code("USD"), code("XAU")])
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

    @Test("a text that is not a rate is left out of the table")
    func invalidTextLeftOut() {
        let table = DayTable(day: day, rates: [code("USD"): "1.1702", code("GBP"): "0,8338", code("JPY"): "-1"])
        #expect(table.codes == [code("USD")])
        #expect(table.nonDefaultSources.isEmpty)
    }
}
