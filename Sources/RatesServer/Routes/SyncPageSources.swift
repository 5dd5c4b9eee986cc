import RatesCore

/// Where a sync page's values came from, compactly: a table of the page's sources and, per day,
/// one index into it for each currency upserted that day.
///
/// - `sources`: the table, `[provider, day]` pairs (`["NBU", "2026-03-02"]`: the provider's key
///   and its own publication day), each once, in order of first use.
/// - `upsertSources`: per day of `upserts` holding a value that is not the ECB's of that very day,
///   one number per currency upserted that day, in code order: `0` for the ECB's figure of that
///   day, `n` for `sources[n - 1]`.
///
/// A day whose values are all the ECB's own has no entry, and a page without any such day carries
/// neither member: the ECB's history costs nothing, and clients that predate sources ignore both.
/// On a real day of 148 currencies (119 of them the NBP's and the NBU's) they cost 88 bytes with
/// gzip (about 1,740 in all); a map per currency (`"AFN": 1`) costs about 360, lists of codes per source 250.
struct SyncPageSources {
    /// The table, in order of first use.
    private var table: [RateSource] = []
    /// Each source's number: its position in ``table`` plus one.
    private var positions: [RateSource: Int] = [:]
    /// Per day with a value not the ECB's of that day: the numbers, in code order.
    private var days: [(day: Day, indexes: [Int])] = []

    /// Adds `daily`'s upserted currencies, `codes` (its rates' codes in order).
    mutating func add(_ daily: DailyRates, codes: [CurrencyCode]) {
        guard !daily.sources.isEmpty else { return }
        let ecb = RateSource(provider: ProviderKey.ecb, day: daily.day)
        let indexes = codes.map { code -> Int in
            guard let source = daily.sources[code], source != ecb else { return 0 }
            if let position = positions[source] { return position }
            table.append(source)
            positions[source] = table.count
            return table.count
        }
        if indexes.contains(where: { $0 != 0 }) { days.append((daily.day, indexes)) }
    }

    /// Writes `sources` and `upsertSources`, or nothing when every value is the ECB's of its day.
    func write(into json: inout JSONWriter) {
        guard !days.isEmpty else { return }
        json.field("sources", rows: table.map { [$0.provider, $0.day.description] })
        json.field("upsertSources") { json in
            for (day, indexes) in days { json.field(day.description, integers: indexes) }
        }
    }
}
