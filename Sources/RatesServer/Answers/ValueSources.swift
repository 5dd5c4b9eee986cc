import RatesCore
import RatesIngest

/// `expand=sources`: finds where each value of an answer came from, before the answer is written.
struct SourceLookup: Sendable {
    let quotes: ProviderQuotes

    /// The sources of `codes` in `publication`: for each currency with a value (EUR, the dataset's
    /// base, has none; a cross rate comes from the sources of both its currencies), its provider,
    /// that provider's own day and the figure as published.
    ///
    /// - Throws: `Problem` (503) when the store cannot be read: an answer never lacks a figure it should name.
    func sources(of codes: [CurrencyCode], in publication: DayTable) throws(Problem) -> ValueSources {
        var entries: [ValueSources.Entry] = []
        var seen: Set<CurrencyCode> = []
        do {
            for code in codes where code != .euro && seen.insert(code).inserted {
                guard let index = publication.index(of: code) else { continue }
                let source = publication.source(at: index)
                entries.append(
                    .init(
                        currency: code, source: source, figure: try quotes.publishedFigure(of: code, from: source),
                        servedAs: quotes.precedence(of: source.provider, for: code)))
            }
        } catch {
            throw Problem.unreadable("The published figures")
        }
        return ValueSources(entries: entries.sorted { $0.currency < $1.currency })
    }
}

/// The sources of an answer's values, written as its `"sources"` member.
struct ValueSources {
    struct Entry {
        var currency: CurrencyCode
        var source: RateSource
        /// `nil` when the store no longer holds the figure (pruned).
        var figure: PublishedFigure?
        /// Why this source's value is the one served: the reference, the issuer, the peg, or its rank.
        var servedAs: MergePolicy.Precedence
    }

    let entries: [Entry]

    /// `"sources": {"USD": {"provider": "ECB", "date": "2026-03-02", "servedAs": "reference", "published": {…}}, …}`;
    /// why this source is served (`reference`, `issuer`, `peg` or `rank`); the published figure as its
    /// provider wrote it: decimal text, unit, direction and pivot; for a fixed rate (a peg, a
    /// conversion rate to the euro) also who declares it and the day it holds from.
    func write(to json: inout JSONWriter) {
        json.field("sources") { json in
            for entry in entries {
                json.field(entry.currency.rawValue) { json in
                    json.field("provider", string: entry.source.provider)
                    json.field("date", string: entry.source.day.description)
                    json.field("servedAs", string: entry.servedAs.rawValue)
                    guard let figure = entry.figure else { return }
                    json.field("published") { json in
                        json.field("currency", string: figure.quote.currency.rawValue)
                        json.field("value", string: figure.quote.value)
                        json.field("unit", number: String(figure.quote.unit))
                        json.field("direction", string: figure.quote.direction.rawValue)
                        json.field("pivot", string: figure.pivot.rawValue)
                    }
                    if let parity = figure.parity {
                        json.field("authority", string: parity.authority)
                        json.field("since", string: parity.since.description)
                    }
                }
            }
        }
    }
}
