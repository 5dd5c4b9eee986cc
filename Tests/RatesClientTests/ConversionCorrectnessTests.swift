import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import HummingbirdTesting
import RatesClient
import RatesCore
import RatesServer
import RatesTestSupport
import Testing

/// Conversions checked against values computed here, independently, from the ECB's published
/// texts (the bundled full history, 1999-01-04…2026-10-30), for random dates and currency pairs:
/// `/v1/convert` over HTTP and the SDK after a full sync must both give exactly the documented
/// answer. The rule (README, DESIGN, openapi.yaml): a day without a publication uses the nearest
/// earlier one; a rate from EUR is the published text; any other rate is
/// `rate(EUR→to) / rate(EUR→from)` rounded half away from zero to 8 significant digits; the result
/// is `amount × rate`, exact. A currency not published on that day is absent (404 / SDK error).
///
/// The samples are the same every run (a fixed seed; set `CONVERSION_SEED` to try another,
/// `CONVERSION_SAMPLES` for more), plus conversions whose cross rate is an exact rounding tie,
/// found by scanning the whole history, so that the tie rule is exercised every run.
@Suite("Conversions match the ECB's published data")
struct ConversionCorrectnessTests {
    /// One sampled conversion.
    struct Sample: CustomStringConvertible {
        var day: Day
        var from: CurrencyCode
        var to: CurrencyCode
        var amount: Decimal
        var description: String { "\(amount) \(from)→\(to) on \(day)" }
    }

    /// The documented answer, or `nil` when a currency has no rate on that day's publication.
    struct Expected {
        var publication: Day
        var rate: Decimal
        var result: Decimal
        /// `amount × rate(to) / rate(from)` before any rounding.
        var unrounded: Decimal
    }

    static let euro = CurrencyCode("EUR")!

    @Test("sampled dates and pairs across 1999–2026, rounding ties included, convert exactly as computed from the published rates, over HTTP and in the SDK")
    func randomConversionsMatch() async throws {
        let history = FakeUpstream.history
        let seed = ProcessInfo.processInfo.environment["CONVERSION_SEED"].flatMap(UInt64.init) ?? 20_261_030
        let count = ProcessInfo.processInfo.environment["CONVERSION_SAMPLES"].flatMap(Int.init) ?? 500
        var generator = SplitMix64(seed: seed)
        let ties = Self.roundingTies(history: history, limit: 30)
        print("ConversionCorrectnessTests: seed \(seed), \(count) samples and \(ties.count) rounding ties")
        // Ties where the 8th digit is even are those where half away from zero (the rule) and half to even differ.
        #expect(ties.filter { !$0.roundsDownToEven }.count >= 10 && ties.filter(\.roundsDownToEven).count >= 10, "\(ties)")
        let samples = Self.samples(count, history: history, using: &generator) + ties.map(\.sample)

        let cache = TemporaryCache()
        try await TestServer.withSeededDatabase { database in
            let configuration = TestServer.configuration(database: database, upstream: "http://127.0.0.1:9/")
            try await buildApplication(configuration, logger: TestServer.logger).test(.live) { server in
                let client = try RatesClient(configuration: .init(
                    server: URL(string: "http://127.0.0.1:\(server.port!)/")!, cacheURL: cache.url, session: URLSession(configuration: .ephemeral),
                    window: history.first!.day, retry: RetryPolicy(maxAttempts: 1)))
                let report = try await client.sync()
                #expect(report.latestDate == history.last!.day)

                var compared = 0, absent = 0, nonPublicationDays = 0
                var maxRoundingError = Decimal(0)
                for sample in samples {
                    let expected = Self.expected(sample, history: history)
                    let query = "/v1/convert?from=\(sample.from)&to=\(sample.to)&amount=\(sample.amount)&date=\(sample.day)"
                    let response = try await server.request(query)
                    guard let expected else {
                        absent += 1
                        #expect(response.status == .notFound, "\(sample): \(response.text)")
                        #expect(response.json["type"] as? String == "urn:rates-relay:problem:unknown-currency", "\(sample)")
                        #expect(throws: RatesClientError.self, "\(sample)") { try client.convert(sample.amount, from: sample.from, to: sample.to, on: sample.day) }
                        continue
                    }
                    compared += 1
                    if expected.publication != sample.day { nonPublicationDays += 1 }

                    // Over HTTP: the exact decimal texts of the JSON numbers.
                    #expect(response.status == .ok, "\(sample): \(response.text)")
                    #expect(response.json["date"] as? String == expected.publication.description, "\(sample)")
                    #expect(response.decimalText("info", "rate").flatMap(Self.decimal) == expected.rate, "\(sample): \(response.text)")
                    #expect(response.decimalText("result").flatMap(Self.decimal) == expected.result, "\(sample): \(response.text)")

                    // In the SDK, from its local cache.
                    let conversion = try client.convert(sample.amount, from: sample.from, to: sample.to, on: sample.day)
                    #expect(conversion.date == expected.publication, "\(sample)")
                    #expect(conversion.rate.decimal == expected.rate, "\(sample): SDK rate \(conversion.rate)")
                    #expect(conversion.result == expected.result, "\(sample): SDK result \(conversion.result)")

                    // The documented rounding (8 significant digits on the rate) bounds the error against the unrounded value.
                    if !expected.unrounded.isZero {
                        maxRoundingError = max(maxRoundingError, Self.magnitude((expected.result - expected.unrounded) / expected.unrounded))
                    }
                }
                print("ConversionCorrectnessTests: \(compared) conversions compared over HTTP and in the SDK (\(nonPublicationDays) on days without a publication), "
                    + "\(absent) absent currencies checked; max relative difference to the unrounded value \(maxRoundingError)")
                #expect(compared + absent == samples.count)
                #expect(compared >= samples.count / 2, "most samples are real conversions")
                #expect(maxRoundingError <= Decimal(string: "0.00000005")!, "8 significant digits: relative error at most 5e-8")
            }
        }
    }

    // MARK: - Independent computation

    /// Random samples: any calendar day in the history's range (weekends and holidays included),
    /// pairs of currencies (EUR included) mostly in force that day, sometimes not, with varied amounts.
    static func samples(_ count: Int, history: [DailyRates], using generator: inout SplitMix64) -> [Sample] {
        let first = history.first!.day, last = history.last!.day
        let span = last.dayNumber - first.dayNumber
        let codes = Array(Set(history.flatMap(\.rates.keys)).union([euro])).sorted { $0.rawValue < $1.rawValue }
        let amounts = ["1", "10", "0.01", "99.95", "1000", "123456.789", "2.5", "100000000"].map { Decimal(string: $0, locale: nil)! }
        return (0..<count).map { _ in
            let day = first.adding(days: Int.random(in: 0...span, using: &generator))
            // Mostly currencies of the publication in force that day; one pick in five from all time,
            // so currencies that did not exist yet or any more (CYP, HRK, RUB after 2022-03-01, …) come up too.
            let inForce = history.last { $0.day <= day }.map { (Array($0.rates.keys) + [euro]).sorted { $0.rawValue < $1.rawValue } } ?? codes
            func code() -> CurrencyCode {
                Int.random(in: 0..<5, using: &generator) == 0 ? codes.randomElement(using: &generator)! : inForce.randomElement(using: &generator)!
            }
            return Sample(day: day, from: code(), to: code(), amount: amounts.randomElement(using: &generator)!)
        }
    }

    /// A conversion whose exact cross rate has 9 significant digits, the last a 5: a tie at 8 digits.
    struct Tie: CustomStringConvertible {
        var sample: Sample
        /// The 8th digit is even: half to even would round down where the rule (half away from zero) rounds up.
        var roundsDownToEven: Bool
        var description: String { "\(sample)\(roundsDownToEven ? " (even)" : "")" }
    }

    /// The first `limit` ties of each kind (8th digit even and odd) in the history, oldest first.
    ///
    /// `to/from` for published texts `T·10^-t` and `F·10^-f` terminates exactly when `F` without
    /// its factors 2 and 5 (`F'`) divides `T`; its digits are then those of `(T/F')·2^i·5^j`.
    static func roundingTies(history: [DailyRates], limit: Int) -> [Tie] {
        struct Rate {
            var code: CurrencyCode
            var mantissa: UInt64
            var oddPart: UInt64   // the mantissa without its factors 2 and 5
            var twos = 0, fives = 0
            init?(_ code: CurrencyCode, _ text: String) {
                guard let mantissa = UInt64(text.filter { $0 != "." }), mantissa > 0 else { return nil }
                self.code = code
                self.mantissa = mantissa
                var odd = mantissa
                while odd % 2 == 0 { odd /= 2; twos += 1 }
                while odd % 5 == 0 { odd /= 5; fives += 1 }
                oddPart = odd
            }
        }
        var even: [Tie] = [], odd: [Tie] = []
        for publication in history {
            let rates = ([Rate(euro, "1")] + publication.rates.map { Rate($0.key, $0.value) }).compactMap { $0 }.sorted { $0.code.rawValue < $1.code.rawValue }
            for from in rates where from.code != euro {
                for to in rates where to.code != from.code && to.mantissa % from.oddPart == 0 {
                    var digits = to.mantissa / from.oddPart
                    let (twos, fives) = (max(from.twos, from.fives) - from.twos, max(from.twos, from.fives) - from.fives)
                    var overflow = false
                    for factor in Array(repeating: UInt64(2), count: twos) + Array(repeating: UInt64(5), count: fives) where !overflow {
                        (digits, overflow) = digits.multipliedReportingOverflow(by: factor)
                    }
                    guard !overflow else { continue }
                    while digits % 10 == 0 { digits /= 10 }
                    guard (100_000_000..<1_000_000_000).contains(digits), digits % 10 == 5 else { continue }
                    let tie = Tie(sample: Sample(day: publication.day, from: from.code, to: to.code, amount: 1), roundsDownToEven: (digits / 10) % 2 == 0)
                    if tie.roundsDownToEven, even.count < limit { even.append(tie) } else if !tie.roundsDownToEven, odd.count < limit { odd.append(tie) }
                }
            }
            if even.count == limit && odd.count == limit { break }
        }
        return even + odd
    }

    /// The documented conversion of `sample`, computed from the published texts with `Decimal`.
    static func expected(_ sample: Sample, history: [DailyRates]) -> Expected? {
        // The latest publication on or before the day.
        guard let publication = history.last(where: { $0.day <= sample.day }) else { return nil }
        func published(_ code: CurrencyCode) -> Decimal? { code == euro ? 1 : publication.rates[code].flatMap(decimal) }
        guard let fromRate = published(sample.from), let toRate = published(sample.to) else { return nil }
        let exact = toRate / fromRate
        let rate: Decimal
        if sample.from == sample.to {
            rate = 1
        } else if sample.from == euro {
            rate = toRate
        } else {
            rate = roundedToEightSignificantDigits(exact)
        }
        return Expected(publication: publication.day, rate: rate, result: sample.amount * rate, unrounded: sample.amount * exact)
    }

    static func decimal(_ text: String) -> Decimal? { Decimal(string: text, locale: nil) }

    static func magnitude(_ value: Decimal) -> Decimal { value < 0 ? -value : value }
}
