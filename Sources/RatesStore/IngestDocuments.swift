import Foundation
import RatesCore

/// What travels between the server and a database in bulk: an ingest's rows as one JSON document
/// for PostgreSQL (compared and applied with set operations in the database, a handful of
/// statements for a full history rather than 400,000, with no round trip per row; SQLite, in
/// process, binds each row instead: ``SQLiteRowInsert``), a publication's days as a JSON list, and
/// a stored day's values as one line of text, for either.
enum IngestDocuments {
    /// The batch as a JSON array of `[day, currency, value, provider, providerDay]` rows
    /// (`providerDay` null when it is the day itself).
    static func mergedRows(_ batch: RatesBatch) -> String {
        var json = "["
        json.reserveCapacity(batch.valueCount * 40)
        for daily in batch.days {
            let day = daily.day.description
            for (currency, value) in daily.rates {
                if json.utf8.count > 1 { json += "," }
                let source = rowSource(of: currency, in: daily, batch: batch)
                let providerDay = source.providerDay.map { "\"\($0)\"" } ?? "null"
                json += "[\"\(day)\",\"\(currency.rawValue)\",\"\(escaped(value))\",\"\(escaped(source.provider))\",\(providerDay)]"
            }
        }
        return json + "]"
    }

    /// Where a merged row's value comes from, as both stores keep it: its provider (the batch's
    /// when the day names none) and that provider's own day, `nil` when it is the row's day itself.
    static func rowSource(of currency: CurrencyCode, in daily: DailyRates, batch: RatesBatch) -> (provider: String, providerDay: String?) {
        let source = daily.sources[currency]
        return (source?.provider ?? batch.provider, source.flatMap { $0.day == daily.day ? nil : $0.day.description })
    }

    /// The publications' days as a JSON array of `"YYYY-MM-DD"`.
    static func days(_ publications: [ProviderPublication]) -> String {
        "[" + publications.map { "\"\($0.day)\"" }.joined(separator: ",") + "]"
    }

    /// The publications' quotes as a JSON array of `[day, currency, value, unit, direction]` rows.
    static func quotes(_ publications: [ProviderPublication]) -> String {
        var quotes = "["
        quotes.reserveCapacity(publications.reduce(0) { $0 + $1.quotes.count } * 48)
        for publication in publications {
            let day = publication.day.description
            for quote in publication.quotes {
                if quotes.utf8.count > 1 { quotes += "," }
                quotes += "[\"\(day)\",\"\(quote.currency.rawValue)\",\"\(escaped(quote.value))\",\(quote.unit),\"\(quote.direction.rawValue)\"]"
            }
        }
        return quotes + "]"
    }

    /// `text` safe inside a JSON string (rate text is validated upstream; the store does not rely on it).
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case let control where control.value < 0x20: escaped += String(format: "\\u%04x", control.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// The batch's days as the tables a store keeps beside their rows (``DayTable/encoded``): each
    /// day as served, its pegs derived (``RatesCore/DayTable/derivingPegs(_:base:)``), which the
    /// rows do not hold, so a start reads the days and derives nothing. The sources are named as
    /// ``day(_:list:)`` reads them back from the rows: `nil` for the ECB of the day itself. A day the
    /// batch leaves empty has an empty table, which the stores skip: an empty day of a batch
    /// withdraws nothing.
    static func dayTables(_ batch: RatesBatch) -> [DayTable] {
        batch.days.map { daily in
            DayTable(
                day: daily.day,
                entries: daily.rates.map { currency, value in
                    let source = daily.sources[currency] ?? RateSource(provider: batch.provider, day: daily.day)
                    let isDefault = source.provider == ProviderKey.ecb && source.day == daily.day
                    return DayTable.Entry(code: currency, text: Substring(value), source: isDefault ? nil : source)
                }
            ).derivingPegs()
        }
    }

    /// The SQL expression, per `rate` row, of its entry in a day's line: `USD=1.1172`, and
    /// `UAH=48.1@NBU 2026-03-01` for a value from another provider or day than the ECB's of that day.
    /// `providerDay` names that column (SQLite's and PostgreSQL's spell it differently).
    static func dayLineEntry(providerDay: String) -> String {
        """
        currency || '=' || value || CASE WHEN provider = '\(ProviderKey.ecb)' AND \(providerDay) IS NULL
            THEN '' ELSE '@' || provider || ' ' || coalesce(\(providerDay), day) END
        """
    }

    /// A stored day read back from its line (entries of ``dayLineEntry(providerDay:)`` joined by
    /// commas) straight into its table, as served (its pegs derived, as ``dayTables(_:)`` stores
    /// it): one row per day decodes far faster than one per value (7,000 rows, not 500,000), and no
    /// text of a value outlives its line.
    static func day(_ dayText: String, list: String) -> DayTable? {
        guard let day = Day(dayText) else { return nil }
        var entries: [DayTable.Entry] = []
        entries.reserveCapacity(64)
        for pair in list.utf8.split(separator: UInt8(ascii: ",")) {
            guard pair.count > 4, let code = CurrencyCode(ascii: pair.prefix(3)) else { continue }
            let entry = pair.dropFirst(4)
            guard let at = entry.firstIndex(of: UInt8(ascii: "@")) else {
                entries.append(DayTable.Entry(code: code, text: Substring(entry)))
                continue
            }
            let source = entry[entry.index(after: at)...]
            var rateSource: RateSource?
            if let space = source.firstIndex(of: UInt8(ascii: " ")), let ownDay = Day(Substring(source[source.index(after: space)...])) {
                rateSource = RateSource(provider: String(Substring(source[..<space])), day: ownDay)
            }
            entries.append(DayTable.Entry(code: code, text: Substring(entry[..<at]), source: rateSource))
        }
        return DayTable(day: day, entries: entries).derivingPegs()
    }
}
