import RatesCore

/// Hrvatska narodna banka's exchange rate list against the euro (13 currencies), since Croatia adopted the euro on 2023-01-01.
///
/// - Source: `https://api.hnb.hr/tecajn-eur/v3`, a JSON array with one object per currency and list: `{"broj_tecajnice":"1",
///   "datum_primjene":"2023-01-02","drzava":"Australija","drzava_iso":"AUS","kupovni_tecaj":"1,571700","prodajni_tecaj":"1,566900",
///   "sifra_valute":"036","srednji_tecaj":"1,569300","valuta":"AUD"}`. Without a query it answers the list that applies today.
/// - Quote convention: `srednji_tecaj` (the middle rate, decimal comma) units of `valuta` per 1 EUR: ``PublishedQuote/Direction/unitsPerPivot``, unit
///   1 (the v3 list has no unit field). The buying and selling rates (`kupovni_tecaj`, `prodajni_tecaj`) are not read. The figures are the ECB's
///   reference rates of the TARGET day before the list's date. A row of EUR itself would be skipped (it is the pivot); nothing else is.
/// - Schedule: Europe/Zagreb, lists dated Monday to Friday; a list is dated the day it applies (`datum_primjene`) and is out by 13:00 local time on
///   that day (Frankfurter polls from 12:00 UTC).
/// - Ranges: one request, `?datum-primjene-od=YYYY-MM-DD&datum-primjene-do=YYYY-MM-DD`, both days included. A range without a list (holidays) answers
///   `[]`: no publication.
/// - Kuna lists: before 2023 the lists (`https://api.hnb.hr/tecajn/v2?datum-od=…&datum-do=…`) gave kunas for `jedinica` units of each currency, dated
///   `datum`: `{"broj_tecajnice":"251","datum":"2022-12-31","jedinica":1,"srednji_tecaj":"7,534500","valuta":"EUR",…}`. Against the euro such a list
///   gives one figure as published, its euro row: the kuna, `srednji_tecaj` HRK per `jedinica` EUR (``PublishedQuote/Direction/unitsPerPivot``, unit
///   `jedinica`). Its other rows are figures against the kuna, which this source's pivot cannot express without arithmetic: they are checked (code,
///   unit, decimal) and left out. A kuna list without a euro row (before 1999) gives nothing: no publication.
public struct HNBProvider: RatesProvider, EmptyAnswerIsNoPublication {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        let url = "\(baseURL)/tecajn-eur/v3"
        return window.requests(latest: [ProviderRequest(url: url)]) { first, last in
            [ProviderRequest(url: url + "?datum-primjene-od=\(first.text(.iso))&datum-primjene-do=\(last.text(.iso))")]
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        var rows: [(day: Day, quote: PublishedQuote)] = []
        for (index, row) in try ProviderJSON(answer: body).array("the answer").enumerated() {
            let what = "row \(index + 1)"
            // A kuna list (`tecajn/v2`) states each row's unit and dates it `datum`; the euro lists do neither.
            let isKunaList = row["jedinica"] != nil
            let dateField = isKunaList && row["datum_primjene"] == nil ? "datum" : "datum_primjene"
            let day = try Day(parsing: row.string(dateField, of: what), .iso)
            let code = try row.string("valuta", of: what)
            let middle = try row.string("srednji_tecaj", of: what)
            guard let currency = CurrencyCode(code) else { throw .invalidCurrencyCode(code, day: day) }
            let value = try PublishedText.rate(middle, currency: currency, day: day)
            let unit = try row["jedinica"]?.integer("\(what)'s \"jedinica\"") ?? 1
            guard ProviderValidation.isPowerOfTen(unit) else { throw .invalidRate(currency: currency, day: day, text: "\(unit)") }
            // A euro list: every row but the euro's own. A kuna list: the euro's row alone, kunas for `jedinica` euros, the kuna's figure
            // against the euro (its other rows are against the kuna).
            guard isKunaList == (currency == pivot) else { continue }
            rows.append((day, PublishedQuote(currency: isKunaList ? Self.kuna : currency, value: value, unit: unit, direction: .unitsPerPivot)))
        }
        // A range without a list (holidays, or days before the euro's first list) answers `[]`.
        return ProviderPublication.byDay(rows)
    }

    /// The kuna, Croatia's currency until 2022.
    static let kuna = CurrencyCode("HRK")!
}
