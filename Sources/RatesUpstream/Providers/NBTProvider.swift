import RatesCore

/// The National Bank of Tajikistan's official rates of the somoni (about 36 currencies).
///
/// - Source: `https://www.nbt.tj/en/kurs/export_xml.php?date=YYYY-MM-DD&export=xmlout`, one day's
///   table as UTF-8 XML: `<ValCurs Date="2026-05-18">` holding one `<Valute ID="840">` per currency
///   with `<CharCode>`, `<Nominal>`, `<Name>` and `<Value>` (decimal point, four decimals).
/// - Quote convention: `Value` somoni for `Nominal` units of the currency (9.3450 TJS per 1 USD,
///   0.0780 per 100 UZS, 0.0071 per 1000 IRR): ``PublishedQuote/Direction/pivotPerUnits`` with unit
///   `Nominal`. Trailing zeros stay as published.
/// - Schedule: every day (Asia/Dushanbe), weekends included; a day's table is looked for from 09:00.
/// - Ranges: one request per day in the range; the newest publication is today's table (by the
///   source's clock, ``RatesProvider/today()``). A table is read under the date it states.
public struct NBTProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.days(latest: today(), on: schedule.weekdays).map { ProviderRequest(url: "\(baseURL)/en/kurs/export_xml.php?date=\($0)&export=xmlout") }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        [try XMLFields.valCursTable(body, pivot: pivot, days: .iso)]
    }
}
