import RatesClient
import RatesCore

/// Where cached rates came from, in words: "USD from ECB, 2026-03-02; UAH from NBU, 2026-03-02".
enum Provenance {
    /// The sources of `codes` (the euro, every value's pivot, has none), or `nil` when there is
    /// nothing to name: only the euro.
    static func line(for codes: [CurrencyCode], sources: [CurrencyCode: RateSource]) -> String? {
        var named: [CurrencyCode] = []
        for code in codes where code != .euro && !named.contains(code) { named.append(code) }
        guard !named.isEmpty else { return nil }
        guard named.allSatisfy({ sources[$0] != nil }) else { return "sources not known yet: run `rates sync`" }
        return named.map { "\($0) from \(sources[$0]!.provider), \(sources[$0]!.day)" }.joined(separator: "; ")
    }
}
