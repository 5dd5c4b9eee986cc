import Foundation
import RatesCore

/// The European Commission's InforEuro monthly accounting rates: about 150 currencies per euro, each
/// valid for one calendar month (the rates the EU's institutions keep their accounts and pay grants in).
///
/// - Source: `https://ec.europa.eu/budg/inforeuro/api/public/monthly-rates?lang=en&month=M&year=YYYY`
///   (the month without a leading zero), one JSON array per month of
///   `{"country", "currency", "isoA3Code", "isoA2Code", "value", "comment"}`, one per country or
///   territory (`{"country":"United States","currency":"US dollar","isoA3Code":"USD","isoA2Code":"US","value":1.1643,…}`).
/// - Quote convention: `value` units of the currency per 1 EUR, ``PublishedQuote/Direction/unitsPerPivot``,
///   unit 1; the euro's own rows (value 1) are skipped, as is a `null` value (no rate set that month:
///   KGS, MDL, MKD in March 1994). A code repeated for several territories is one quote when its figures
///   agree and rejects the answer when they do not. Codes are ISO 4217's, but for labels of the
///   Commission's own: `FRC` (July 1998 – February 1999) is the Congolese franc (CDF), `ZIG` Zimbabwe Gold
///   (ZWG), and `AOK` after the kwanza's withdrawal in 1990 (January and February 2000, about 5.5 per EUR)
///   the kwanza of 1999 (AOA), whose magnitude its figures have. Any other code ISO 4217 does not list rejects the answer.
/// - Schedule: Europe/Brussels, monthly. A month's rates are set in the last days of the month before
///   and hold from its first day through its last: a publication is dated its month's first day and
///   stays current 31 days (``validityDays``).
/// - Ranges: one request per month (``MonthlyFileProvider``). Months before 1999 are per ECU, not per euro,
///   and lie before the source's history (``ProviderIdentity/historyStart``): such an answer is rejected.
public struct INFOREUROProvider: MonthlyFileProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The request for `month`'s rates, its subject the month (`2026-09`): the answer does not say it.
    func request(for month: Day) -> ProviderRequest {
        let (year, number, _) = month.parts
        return ProviderRequest(
            url: "\(baseURL)/budg/inforeuro/api/public/monthly-rates?lang=en&month=\(number)&year=\(year)",
            subject: month.yearMonth)
    }

    /// A file is read as the answer for the month given as its subject (`--subject 2026-09`), or else
    /// the month its name gives as its request's query did (`…month=9_year=2026.json`); a file that
    /// says neither is refused, since its figures would be dated no month.
    public func publications(inFiles files: [URL], subjects: [String?], today: Day) throws -> [ProviderPublication] {
        let months = try files.indices.map { index in
            let given = subjects.isEmpty ? nil : subjects[index]
            guard let month = given ?? Self.month(namedIn: files[index].lastPathComponent) else {
                throw ProviderFileError.unreadable(
                    provider: key, reasons: [.layout("\(files[index].lastPathComponent) does not say its month: give it as --subject YYYY-MM")])
            }
            return month
        }
        return try ProviderFile.read(files.map { Array(try Data(contentsOf: $0)) }, provider: self, subjects: months, today: today)
    }

    /// `YYYY-MM` of a file named for its request's query, `month=M` and `year=YYYY` as words of the name.
    static func month(namedIn fileName: String) -> String? {
        let words = fileName.split { !$0.isLetter && !$0.isNumber }
        func number(after name: String) -> Int? {
            words.firstIndex(of: Substring(name)).flatMap { $0 + 1 < words.count ? Int(words[$0 + 1]) : nil }
        }
        guard let year = number(after: "year"), let month = number(after: "month"), let day = Day(year: year, month: month, day: 1) else {
            return nil
        }
        return day.yearMonth
    }

    /// Labels the Commission writes for currencies ISO 4217 codes otherwise.
    static let aliases = ["FRC": CurrencyCode("CDF")!, "ZIG": CurrencyCode("ZWG")!]
    /// The kwanza of 1977, replaced in 1990: a later `AOK` row is the kwanza of 1999.
    static let oldKwanza = (label: "AOK", withdrawn: Day(year: 1991, month: 1, day: 1)!, successor: CurrencyCode("AOA")!)

    /// The currency `label` names in the month starting `month`.
    static func currency(labelled label: String, in month: Day) throws(UpstreamDataError) -> CurrencyCode {
        if let alias = aliases[label] { return alias }
        if label == oldKwanza.label, month >= oldKwanza.withdrawn { return oldKwanza.successor }
        guard let currency = CurrencyCode(label), currency.name != nil else { throw .invalidCurrencyCode(label, day: month) }
        return currency
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        guard let month = request.subject.flatMap({ Day($0 + "-01") }) else { throw .layout("the request names no month (YYYY-MM)") }
        var quotes = RepeatedQuotes()
        for (index, row) in try ProviderJSON(answer: body).array("the answer").enumerated() {
            let currency = try Self.currency(labelled: row.string("isoA3Code", of: "row \(index + 1)"), in: month)
            let value = try row.field("value", of: "row \(index + 1)")
            guard currency != pivot, value != .null else { continue }
            guard let text = value.publishedDecimal else { throw .invalidRate(currency: currency, day: month, text: "\(value)") }
            try quotes.add(PublishedQuote(currency: currency, value: text, unit: 1, direction: .unitsPerPivot), on: month)
        }
        return quotes.publications
    }
}
