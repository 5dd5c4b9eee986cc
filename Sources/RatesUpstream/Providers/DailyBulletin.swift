import Foundation
import RatesCore

/// What the adapters of sources publishing one PDF bulletin a day share (BM, BRB, BSP): the bulletin's
/// text as lines, its date as the bulletin writes it (day, month name, year, in the publisher's
/// language), and the requests for the bulletins an index lists by day.
enum DailyBulletin {
    /// The rows of every page of a bulletin, top to bottom (``PDFPage/rows(tolerance:)``).
    static func rows(_ body: [UInt8]) throws(UpstreamDataError) -> [PDFTextRow] {
        guard PDFDocument.isPDF(body) else { throw .layout("not a PDF bulletin: the answer does not start with %PDF-") }
        return try PDFDocument(body).pages.flatMap { $0.rows() }
    }

    /// `text` in lower case, accents dropped and white space collapsed to single spaces: how labels
    /// written by hand (`Àfrica do Sul`, `Suíça`, `Zâmbia`) are compared.
    static func folded(_ text: some StringProtocol) -> String {
        String(text).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Month names, folded (``folded(_:)``), with their numbers.
    static let portugueseMonths = months([
        "janeiro", "fevereiro", "marco", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro",
    ])
    static let frenchMonths = months([
        "janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout", "septembre", "octobre", "novembre", "decembre",
    ])
    /// The English names and abbreviations the date formats declare (``Day/ProviderFormat``).
    static let englishMonths = months(Day.ProviderFormat.monthNames.map { $0.lowercased() })
        .merging(months(Day.ProviderFormat.monthAbbreviations.map { $0.lowercased() })) { first, _ in first }

    private static func months(_ names: [String]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0 + 1) })
    }

    /// The day written right after the words `marker` in `text` (both compared folded): a day number,
    /// a month's name in `months`, perhaps `de`, and a year (`DO DIA 02 Setembro de 2026`,
    /// `EN DATE DU 20 MAI 2026`); the first such in the text.
    ///
    /// - Throws: ``UpstreamDataError/layout(_:)`` when the text has no `marker`, or no real day follows it.
    static func day(after marker: String, in text: String, months: [String: Int]) throws(UpstreamDataError) -> Day {
        let words = folded(text).split(separator: " ").map(String.init)
        let wanted = folded(marker).split(separator: " ").map(String.init)
        guard words.count >= wanted.count, let start = (0...(words.count - wanted.count)).first(where: { Array(words[$0..<($0 + wanted.count)]) == wanted }) else {
            throw .layout("the bulletin does not say its date (no \(UpstreamDataError.quoted(marker)))")
        }
        var rest = words[(start + wanted.count)...].prefix(4).map { $0 }
        if rest.count == 4, rest[2] == "de" { rest.remove(at: 2) }
        guard rest.count >= 3, (1...2).contains(rest[0].count), PublishedText.isDigits(rest[0]), let dayNumber = Int(rest[0]),
            let month = months[rest[1]], rest[2].count == 4, PublishedText.isDigits(rest[2]), let year = Int(rest[2]),
            let day = Day(year: year, month: month, day: dayNumber)
        else {
            throw .layout("the bulletin's date after \(UpstreamDataError.quoted(marker)) is \(UpstreamDataError.quoted(rest.joined(separator: " "))), not a day")
        }
        return day
    }

    /// The requests for `window` among the bulletins an index lists (`bulletins`: each day's address):
    /// the newest one for `.latest`, each one of the range's days for a range (none for a range without one).
    static func requests(for window: FetchWindow, bulletins: [Day: String]) -> [ProviderRequest] {
        window.requests(latest: bulletins.keys.max().map { [ProviderRequest(url: bulletins[$0]!)] } ?? []) { first, last in
            bulletins.keys.filter { $0 >= first && $0 <= last }.sorted().map { ProviderRequest(url: bulletins[$0]!) }
        }
    }
}
