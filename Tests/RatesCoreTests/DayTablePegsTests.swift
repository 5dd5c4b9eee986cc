import RatesCore
import Testing

/// The declared pegs derived when a merged day is read, by the server and the SDK alike.
@Suite("Pegs derived when a day is read")
struct DayTablePegsTests {
    let day = Day("2026-03-02")!
    func code(_ text: String) -> CurrencyCode { CurrencyCode(text)! }

    @Test("a day with a source besides the ECB gets each peg whose currency has no value: anchor × rate, named PEG with the anchor's day")
    func derived() throws {
        let table = DayTable(
            day: day, rates: [code("USD"): "1.1698", code("GBP"): "0.8644", code("UAH"): "50.4597", code("XOF"): "655.957"],
            sources: [code("UAH"): RateSource(provider: "NBU", day: day), code("XOF"): RateSource(provider: "BCEAO", day: day)])
        let read = table.derivingPegs()
        #expect(read.rate(of: code("AED")) == ExactDecimal("4.2960905"), "1.1698 × 3.6725")
        #expect(read.source(at: try #require(read.index(of: code("AED")))) == RateSource(provider: "PEG", day: day))
        #expect(read.rate(of: code("FKP")) == ExactDecimal("0.8644"))
        #expect(read.rate(of: code("XAF")) == ExactDecimal("655.957"), "a peg to the euro is its rate")
        #expect(read.source(at: try #require(read.index(of: code("XOF")))).provider == "BCEAO", "the issuer's figure is not replaced")
        #expect(read.rate(of: code("MOP")) == nil, "its anchor, HKD, has no value that day")
        #expect(read.derivingPegs() == read, "deriving again changes nothing")
    }

    @Test("the ECB's own days get no peg, and values stored as a peg are derived again from the day's anchor")
    func ecbDaysAndStoredPegs() throws {
        let ecb = DayTable(day: day, rates: [code("USD"): "1.1698"])
        #expect(ecb.derivingPegs() == ecb)
        let stale = DayTable(
            day: day, rates: [code("USD"): "1.1698", code("UAH"): "50.4597", code("AED"): "4.0"],
            sources: [code("UAH"): RateSource(provider: "NBU", day: day), code("AED"): RateSource(provider: "PEG", day: day)])
        #expect(stale.derivingPegs().rate(of: code("AED")) == ExactDecimal("4.2960905"))
        let ecbWithStoredPeg = DayTable(
            day: day, rates: [code("USD"): "1.1698", code("AED"): "4.2960905"], sources: [code("AED"): RateSource(provider: "PEG", day: day)])
        #expect(ecbWithStoredPeg.derivingPegs().rate(of: code("AED")) == nil, "the ECB's values alone: no peg")
        #expect(DayTable(day: Day("1990-01-02")!, rates: [code("USD"): "1.0"], sources: [code("USD"): RateSource(provider: "BBK", day: Day("1990-01-02")!)])
            .derivingPegs().rate(of: code("TMT")) == nil, "a peg holds from its day")
    }
}
