import Foundation
import RatesCore
import RatesIngest
import RatesUpstream
import RatesTestFixtures
import Testing

/// Real recorded publications, parsed by the real adapters, as the merge sees them.
enum Recorded {
    /// The bundled ECB history (1999 to 2026-10-30), read once.
    static let ecbHistory: Result<RatesBatch, any Error> = Result { try ECBHistoryFile.read(contentsOf: Fixtures.historyZip) }

    /// The ECB's publication of `day`.
    static func ecb(_ day: String) throws -> ProviderDay {
        let rates = try #require(try ecbHistory.get().days.first { $0.day == Day(day)! }, "no ECB publication on \(day)")
        return ProviderDay(ECBProvider.publications(of: RatesBatch(base: .euro, days: [rates]))[0], of: ECBProvider())
    }

    /// NBP table A of `day` (2026-03-02 … 2026-03-05): 32 currencies in PLN per 1 unit, EUR among them.
    static func nbp(_ day: String) throws -> ProviderDay {
        let provider = NBPProvider()
        let request = ProviderRequest(url: "https://api.nbp.pl/api/exchangerates/tables/A/2026-03-01/2026-03-05/?format=json", subject: "A")
        return try publication(of: provider, day, in: "nbp-poland/tables_A_2026-03-01_2026-03-05.json", request: request)
    }

    /// The CNB's fixing of `day` (2026-01-02 … 2026-04-02): 30 currencies in CZK per 1, 100 or 1000 units.
    static func cnb(_ day: String) throws -> ProviderDay {
        let provider = CNBProvider()
        let request = provider.requests(for: .range(Day("2026-01-01")!, Day("2026-04-02")!))[0]
        return try publication(of: provider, day, in: "cnb-czech/cnbapi_exrates_daily-year_2026.json", request: request)
    }

    /// Banca d'Italia's rates of `day` (2026-02-09 … 2026-02-11): about 150 currencies per 1 EUR.
    static func bdi(_ day: String) throws -> ProviderDay {
        let provider = BDIProvider(today: { Day("2026-02-14")! })
        let request = provider.requests(for: .range(Day(day)!, Day(day)!))[0]
        return try publication(of: provider, day, in: "bdi-italy/dailyRates_EUR_\(day).csv", request: request)
    }

    /// The Bank of Russia's daily file of 2026-04-25: RUB per `Nominal` units, EUR among them.
    static func cbr() throws -> ProviderDay {
        let provider = CBRProvider()
        let request = provider.requests(for: .latest)[0]
        return try publication(of: provider, "2026-04-25", in: "cbr-russia/XML_daily_2026-04-25.xml", request: request)
    }

    /// The Central Bank of Trinidad and Tobago's midpoints of `day` (2026): TTD per 1 unit, its EUR an average of few deals.
    static func cbtt(_ day: String) throws -> ProviderDay {
        let provider = CBTTProvider()
        let request = provider.requests(for: .range(Day(day)!, Day(day)!))[0]
        return try publication(of: provider, day, in: "cbtt-trinidad/01_2026-2026.json", request: request)
    }

    static func publication(of provider: some RatesProvider, _ day: String, in file: String, request: ProviderRequest) throws -> ProviderDay {
        let publications = try provider.parse([UInt8](Fixtures.data(file)), of: request)
        let publication = try #require(publications.first { $0.day == Day(day)! }, "\(provider.key) has no publication on \(day) in \(file)")
        return ProviderDay(publication, of: provider)
    }
}

/// Shorthands.
func code(_ text: String) -> CurrencyCode { CurrencyCode(text)! }
func day(_ text: String) -> Day { Day(text)! }

/// One EUR-pivot publication of `provider` on `date` valuing each currency at its figure (units per 1 EUR).
func perEuro(_ provider: String, _ date: String, _ figures: [String: String]) -> ProviderDay {
    ProviderDay(
        provider: provider, pivot: .euro, day: day(date),
        quotes: figures.map { PublishedQuote(currency: code($0.key), value: $0.value, direction: .unitsPerPivot) })
}

extension ProviderDay {
    /// This publication with the quote of `currency` replaced by `transform(quote)`, or removed for `nil`.
    func editing(_ currency: String, _ transform: (PublishedQuote) -> PublishedQuote?) -> ProviderDay {
        var copy = self
        copy.quotes = quotes.compactMap { $0.currency == code(currency) ? transform($0) : $0 }
        return copy
    }
}

extension PublishedQuote {
    /// The same figure read the other way round: an inverted quote, as in lineofflight/frankfurter#297.
    var invertedDirection: PublishedQuote {
        var copy = self
        copy.direction = direction == .pivotPerUnits ? .unitsPerPivot : .pivotPerUnits
        return copy
    }
}

/// Whether `a` and `b` differ by at most `tolerance` of `b`.
func isClose(_ a: ExactDecimal, _ b: ExactDecimal, within tolerance: Double) -> Bool {
    abs(a.approximation - b.approximation) <= tolerance * b.approximation
}
