import RatesCore
import Testing

@Suite("Time series points")
struct SeriesPointsTests {
    @Test("at most N of the days, the first and the last always, in order, gaps differing by one at most")
    func evenlySpaced() {
        for count in 0...60 {
            let days = Array(0..<count)
            for points in 2...64 {
                let picked = RatesRules.evenlySpaced(days, atMost: points)
                #expect(picked.count == min(count, points), "\(count) days, \(points) points")
                guard count > 0 else { continue }
                #expect(picked.first == 0 && picked.last == count - 1, "\(count) days, \(points) points")
                let gaps = zip(picked, picked.dropFirst()).map { $1 - $0 }
                #expect(gaps.allSatisfy { $0 > 0 }, "\(count) days, \(points) points: \(picked)")
                #expect((gaps.max() ?? 0) - (gaps.min() ?? 0) <= 1, "\(count) days, \(points) points: \(picked)")
            }
        }
    }

    @Test("points= reads plain whole numbers from 2 to 100000 only")
    func parsing() {
        #expect(RatesRules.seriesPoints("2") == 2)
        #expect(RatesRules.seriesPoints("300") == 300)
        #expect(RatesRules.seriesPoints("100000") == 100_000)
        for text in ["", "1", "0", "-3", "+3", "2.0", "1e3", " 3", "100001", "999999999999999999999", "٣"] {
            #expect(RatesRules.seriesPoints(text) == nil, "\(text)")
        }
    }
}
