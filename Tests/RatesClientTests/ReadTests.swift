import Foundation
import RatesCore
import Testing
@testable import RatesClient

@Suite("Reading rates from the cache")
struct ReadTests {
    let temporary = TemporaryCache()
    let client: RatesClient

    init() throws {
        client = try temporary.client()
        try client.cache.apply(snapshot(threeDays), sentCursor: false, window: nil, etag: nil, now: Date())
    }

    @Test("latest answers the newest day; EUR rates are the published text")
    func latestInEuro() throws {
        let table = try #require(try client.latest())
        #expect(table.date == day("2026-11-02"))
        #expect(table.requestedDate == nil)
        #expect(table.base == .euro)
        #expect(table.rates == [.usd: .published("1.1200"), .jpy: .published("176.00"), .gbp: .published("0.87100")])
    }

    @Test("another base gives exact cross rates with 8 significant digits, and the euro itself")
    func crossRates() throws {
        let table = try #require(try client.latest(base: .usd, symbols: [.euro, .jpy, .usd]))
        #expect(table[.euro] == .computed("0.89285714"))   // 1 / 1.12
        #expect(table[.jpy] == .computed("157.14286"))     // 176 / 1.12
        #expect(table[.usd] == .computed(1))                                 // listed explicitly
        #expect(try client.latest(base: .usd)?.rates.keys.contains(.usd) == false)
    }

    @Test("a day without publication answers the nearest earlier one and says so")
    func nearestEarlier() throws {
        let saturday = try #require(try client.rates(on: day("2026-10-31"), symbols: [.usd]))
        #expect(saturday.date == day("2026-10-30"))
        #expect(saturday.requestedDate == day("2026-10-31"))
        #expect(saturday[.usd] == .published("1.1172"))
        let friday = try #require(try client.rates(on: day("2026-10-30")))
        #expect(friday.requestedDate == nil)
        #expect(try client.rates(on: day("2026-10-28")) == nil)   // before the first cached day
    }

    @Test("a currency absent on a day is 'no rate', an unknown one is 'unknown currency'")
    func unknownCurrencies() throws {
        #expect(throws: RatesClientError.noRate(.bgn, on: day("2026-11-02"))) { try client.latest(symbols: [.bgn]) }
        #expect(throws: RatesClientError.unknownCurrency(.chf)) { try client.latest(base: .chf) }
        #expect(try client.rates(on: day("2026-10-29"), base: .bgn, symbols: [.euro])?[.euro] == .computed("0.51129972"))
    }

    @Test("convert multiplies the amount by the rate exactly")
    func convert() throws {
        let conversion = try client.convert(100, from: .usd, to: .euro)
        #expect(conversion.rate == .computed("0.89285714"))
        #expect(conversion.result == Decimal(string: "89.285714")!)
        #expect(conversion.date == day("2026-11-02"))
        let fromEuro = try client.convert(Decimal(string: "12.5")!, from: .euro, to: .gbp, on: day("2026-10-30"))
        #expect(fromEuro.rate == .published("0.87005"))
        #expect(fromEuro.result == Decimal(string: "10.875625")!)
        #expect(fromEuro.requestedDate == nil)
        let weekend = try client.convert(1, from: .gbp, to: .jpy, on: day("2026-11-01"))
        #expect(weekend.date == day("2026-10-30") && weekend.requestedDate == day("2026-11-01"))
        #expect(weekend.rate == .computed("201.91943"))   // 175.68 / 0.87005
    }

    @Test("convert explains what is missing")
    func convertErrors() throws {
        #expect(throws: RatesClientError.dateBeforeData(requested: day("2020-01-01"), firstDate: day("2026-10-29"))) {
            try client.convert(1, from: .usd, to: .euro, on: day("2020-01-01"))
        }
        #expect(throws: RatesClientError.unknownCurrency(CurrencyCode("XXX")!)) { try client.convert(1, from: CurrencyCode("XXX")!, to: .euro) }
        #expect(throws: RatesClientError.noRate(.bgn, on: day("2026-11-02"))) { try client.convert(1, from: .euro, to: .bgn) }
        #expect(throws: RatesClientError.dateInFuture(day("2030-01-01"))) { try client.convert(1, from: .usd, to: .euro, on: day("2030-01-01")) }
        let empty = TemporaryCache()
        #expect(throws: RatesClientError.noData) { try empty.client().convert(1, from: .usd, to: .euro) }
        #expect(try empty.client().latest() == nil)
    }

    @Test("a timeseries lists each publication in the range, skipping days the base lacks")
    func timeseries() throws {
        let series = try client.timeseries(from: day("2026-10-29"), through: day("2026-11-02"), base: .bgn, symbols: [.euro])
        #expect(series == [day("2026-10-29"): [.euro: .computed("0.51129972")]])
        let usd = try client.timeseries(from: day("2026-10-30"), through: day("2026-11-01"), symbols: [.usd])
        #expect(usd == [day("2026-10-30"): [.usd: .published("1.1172")]])
        #expect(throws: RatesClientError.invalidRange(from: day("2026-11-02"), through: day("2026-10-29"))) {
            try client.timeseries(from: day("2026-11-02"), through: day("2026-10-29"))
        }
        #expect(throws: RatesClientError.noRate(.bgn, on: day("2026-11-02"))) {
            try client.timeseries(from: day("2026-10-30"), through: day("2026-11-02"), symbols: [.bgn])
        }
    }

    @Test("currencies lists the cached codes and the euro, with ISO 4217 names")
    func currencies() throws {
        #expect(try client.currencies() == [
            .euro: "Euro", .usd: "US Dollar", .jpy: "Yen", .gbp: "Pound Sterling", .bgn: "Bulgarian Lev",
        ])
        let empty = TemporaryCache()
        #expect(try empty.client().currencies().isEmpty)
    }

    @Test("reads follow a sync at once: the memory cache is invalidated by writes")
    func memoryInvalidation() throws {
        #expect(try client.convert(1, from: .euro, to: .usd).result == Decimal(string: "1.12")!)
        #expect(try client.convert(1, from: .usd, to: .jpy).rate == .computed("157.14286"))
        #expect(try client.convert(1, from: .usd, to: .jpy, on: day("2026-11-01")).rate == .computed("157.25027"))
        try client.cache.apply(page(cursor: "c2", upserts: [day("2026-11-02"): rates(["USD": "1.1300"]), day("2026-10-30"): rates(["JPY": "180.00"])]), sentCursor: true, window: nil, etag: nil, now: Date())
        #expect(try client.convert(1, from: .euro, to: .usd).rate == .published("1.1300"))
        #expect(try client.convert(1, from: .usd, to: .jpy).rate == .computed("155.75221"))
        #expect(try client.convert(1, from: .usd, to: .jpy, on: day("2026-11-01")).rate == .computed("161.11708"))
        try client.cache.apply(page(cursor: "c3", upserts: [day("2026-11-03"): rates(["USD": "1.1400"])]), sentCursor: true, window: nil, etag: nil, now: Date())
        #expect(try client.latest()?.date == day("2026-11-03"))
        #expect(try client.rates(on: day("2026-11-02"))?.date == day("2026-11-02"))
        #expect(try client.rates(on: day("2026-11-03"))?.date == day("2026-11-03"))
    }

    @Test("another process's sync of the same file is seen by reads within the check interval")
    func otherProcessWrites() throws {
        let other = try RatesCache(url: temporary.url)
        let reader = try RatesCache(url: temporary.url, externalChangeCheckInterval: .milliseconds(50))
        #expect(try reader.latestPublication()?.rates.published[.usd] == "1.1200")
        try other.apply(page(cursor: "c2", upserts: [day("2026-11-02"): rates(["USD": "1.1300"])]), sentCursor: true, window: nil, etag: nil, now: Date())
        Thread.sleep(forTimeInterval: 0.1)
        #expect(try reader.latestPublication()?.rates.published[.usd] == "1.1300")
    }
}
