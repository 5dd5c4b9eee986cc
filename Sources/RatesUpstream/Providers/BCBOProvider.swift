import RatesCore

/// The Banco Central de Bolivia's exchange rates of the boliviano: the official dollar rate and 21 other
/// currencies each working day; the dollar alone, as buying and selling rates, in its yearly files before 2008.
///
/// - Source: two kinds of legacy Excel workbook (read with ``BIFFWorkbook``), one sheet each:
///   - the day's table, `https://www.bcb.gob.bo/librerias/indicadores/otras/otras_imprimir2XLS.php?qaa=2026&qdd=13&qmm=7`
///     (year, day, month), sheet `TABLA DE COTIZACIONES`: the title `TABLA DE COTIZACIONES DEL 13 DE JULIO DE 2026`
///     in column A names the day; under the header `Pais / Concepto | Moneda | Codigo | Tipo de Cambio Oficial (TCO)
///     (Bs/USD)` the official dollar rate (code in C, figure in D); under the header `Pais / Region | Moneda | Codigo |
///     TIPO DE CAMBIO EN Bs POR UNIDAD DE MONEDA EXTRANJERA | TIPO CAMBIO EN M.E.` one row per currency (code in C,
///     bolivianos per unit in D, units per dollar in E), up to the first gap;
///   - the year's file, `https://www.bcb.gob.bo/tiposDeCambioHistorico/xls.php?anio=2007`, sheet `COTIZACIONES
///     OFICIALES 2007` (its cell A2 says `AÑO 2007`): under the header row `DIAS | ENERO | | FEBRERO | …` and the row
///     `VENTA | COMPRA` for each month, one row per day of the month (1 to 31 in column A), each month's selling and
///     buying rates of the dollar in its two columns, both empty on a day without rates; then the row `PROM` of
///     monthly averages (as text) and a footer, skipped.
/// - Quote convention: bolivianos for 1 unit of the currency: ``RatesCore/PublishedQuote/Direction/pivotPerUnits``,
///   unit 1. From the day's table: the official rate (TCO) of the dollar (10.4 on 2026-07-13) and the other
///   currencies' indicative rates in bolivianos (`0.00699` per ARS, `11.8716` per EUR). Not read: the column of units
///   per dollar (`TIPO CAMBIO EN M.E.`, the same rates against the dollar), and the blocks after the currencies (the UFV housing unit in bolivianos,
///   gold, silver and the SDR in dollars, the SOFR rate), which are no rate of a currency against the boliviano.
///   The offshore yuan's row (`CNH`) is read as its own currency, beside the onshore CNY's.
///   From the year's file: the exact midpoint of the selling and buying rates (``RatesCore/RateText/midpoint(_:_:)``:
///   8.03 and 7.93 give 7.98); a month with one of the two rates and not the other rejects the answer. Figures
///   are stored as doubles and read as ``BIFFCell/decimalText`` says. The day's table as published before July
///   2026 had another layout (the dollar as `USD.VENTA` and `USD.COMPRA` rows); no recording of it is at hand, and
///   the adapter rejects it as a layout it does not know.
/// - Schedule: America/La_Paz (UTC-4), Monday to Friday, usually by 08:00; a table is dated by its title, the day
///   it is published for.
/// - Ranges: one request per working day from 2008 on (the endpoint answers one day's table), one per year
///   before 2008 (a year's file holds the dollar only; history from 2000). The newest publication is asked for
///   as the tables of today and the working days among the three before.
public struct BCBOProvider: RatesProvider {
    public let source: ProviderSource

    public init(source: ProviderSource) { self.source = source }

    /// The first year of the yearly files, and the first day served by the day's table.
    static let firstYear = 2000
    static let firstDailyDay = Day(year: 2008, month: 1, day: 1)!
    /// The sheet of a day's table, and its two headers.
    static let dailySheet = "TABLA DE COTIZACIONES"
    static let officialHeader = ["Pais / Concepto", "Moneda", "Codigo", "Tipo de Cambio Oficial (TCO) (Bs/USD)"]
    static let currenciesHeader = ["Pais / Region", "Moneda", "Codigo", "TIPO DE CAMBIO EN Bs POR UNIDAD DE MONEDA EXTRANJERA", "TIPO CAMBIO EN M.E."]
    /// The months as the titles and headers name them.
    static let months = ["ENERO", "FEBRERO", "MARZO", "ABRIL", "MAYO", "JUNIO", "JULIO", "AGOSTO", "SEPTIEMBRE", "OCTUBRE", "NOVIEMBRE", "DICIEMBRE"]

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        guard case let (first, last)? = window.span(latestDays: 3, today: today()) else { return [] }
        let lastYearly = min(last.parts.year, Self.firstDailyDay.parts.year - 1)
        let yearly = stride(from: max(first.parts.year, Self.firstYear), through: lastYearly, by: 1).map { year in
            ProviderRequest(url: "\(baseURL)/tiposDeCambioHistorico/xls.php?anio=\(year)")
        }
        return yearly + Day.days(from: max(first, Self.firstDailyDay), through: last, on: schedule.weekdays).map { day in
            let (year, month, dayOfMonth) = day.parts
            return ProviderRequest(url: "\(baseURL)/librerias/indicadores/otras/otras_imprimir2XLS.php?qaa=\(year)&qdd=\(dayOfMonth)&qmm=\(month)")
        }
    }

    public func read(_ body: [UInt8], of request: ProviderRequest) throws(UpstreamDataError) -> [ProviderPublication] {
        let workbook = try BIFFWorkbook(body)
        guard workbook.sheets.count == 1, let sheet = try workbook.sheet(named: workbook.sheets[0].name) else {
            throw .layout("the workbook has \(workbook.sheets.count) sheets, expected one")
        }
        if sheet.name == Self.dailySheet { return [try readDailyTable(sheet)] }
        guard sheet.name.hasPrefix("COTIZACIONES OFICIALES ") else {
            throw .layout("a sheet named \(UpstreamDataError.quoted(sheet.name)), neither a day's table nor a year's rates")
        }
        return try readYear(sheet)
    }

    // MARK: - The day's table

    /// The official dollar rate and the currencies of one day's table.
    private func readDailyTable(_ sheet: BIFFSheet) throws(UpstreamDataError) -> ProviderPublication {
        func layout(_ text: String) -> UpstreamDataError { .layout("the day's table: \(text)") }
        let titles = sheet.rows.compactMap { $0[0]?.text }.filter { $0.hasPrefix("TABLA DE COTIZACIONES DEL ") }
        guard titles.count == 1 else { throw layout("\(titles.count) titles TABLA DE COTIZACIONES DEL …, expected one") }
        let day = try Self.day(titled: titles[0])

        /// The rows right under the header row `header` (columns A on), up to the first gap.
        func block(under header: [String]) throws(UpstreamDataError) -> [BIFFRow] {
            let starts = sheet.rows.indices.filter { sheet.rows[$0].cells.map(\.text) == header.map(Optional.some) }
            guard starts.count == 1, sheet.rows[starts[0]].cells.map(\.column) == Array(header.indices) else {
                throw layout("\(starts.count) header rows \(header.joined(separator: " | ")), expected one")
            }
            var end = starts[0] + 1
            while end < sheet.rows.count, sheet.rows[end].number == sheet.rows[end - 1].number + 1 { end += 1 }
            return Array(sheet.rows[(starts[0] + 1)..<end])
        }
        /// The figure in column D of a row whose code is in column C.
        func quote(_ row: BIFFRow, columns: Int) throws(UpstreamDataError) -> PublishedQuote {
            guard row.cells.map(\.column) == Array(0..<columns), let code = row[2]?.text, let cell = row[3] else {
                throw layout("row \(row.number) is not a country, a currency, its code and \(columns - 3) figures")
            }
            let currency = try PublishedText.currency(code, day: day)
            guard let decimal = cell.decimalText else { throw .invalidRate(currency: currency, day: day, text: cell.text ?? "\(cell.value)") }
            return try .reading(decimal, of: currency, direction: .pivotPerUnits, day: day)
        }

        let official = try block(under: Self.officialHeader)
        guard official.count == 1, official[0][2]?.text == "USD" else { throw layout("the official rate is not one row of USD") }
        let dollar = try quote(official[0], columns: 4)
        let currencies = try block(under: Self.currenciesHeader)
        guard !currencies.isEmpty else { throw layout("no currency under the header \(Self.currenciesHeader.joined(separator: " | "))") }
        return try ProviderPublication(day: day, quotes: [dollar] + currencies.map { row throws(UpstreamDataError) in try quote(row, columns: 5) })
    }

    /// The day a table's title names: `TABLA DE COTIZACIONES DEL 13 DE JULIO      DE 2026`.
    static func day(titled title: String) throws(UpstreamDataError) -> Day {
        let words = title.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count == 9, words[..<4] == ["TABLA", "DE", "COTIZACIONES", "DEL"], words[5] == "DE", words[7] == "DE",
            let dayOfMonth = Int(words[4]), let month = months.firstIndex(of: words[6]), let year = Int(words[8]),
            let day = Day(year: year, month: month + 1, day: dayOfMonth)
        else { throw .invalidDay(title) }
        return day
    }

    // MARK: - The year's file

    /// The dollar's midpoint on each day of a year's file.
    private func readYear(_ sheet: BIFFSheet) throws(UpstreamDataError) -> [ProviderPublication] {
        func layout(_ text: String) -> UpstreamDataError { .layout("sheet \(sheet.name): \(text)") }
        guard let year = Int(sheet.name.dropFirst("COTIZACIONES OFICIALES ".count)), sheet["A2"]?.text == "AÑO \(year)" else {
            throw layout("cell A2 does not name the sheet's year")
        }
        let monthColumns = Array(stride(from: 1, through: 23, by: 2))
        let sides: [String?] = (0..<24).map { $0 % 2 == 0 ? "VENTA" : "COMPRA" }
        guard let header = sheet.rows.firstIndex(where: { $0[0]?.text == "DIAS" }),
            sheet.rows[header].cells.map(\.column) == [0] + monthColumns,
            sheet.rows[header].cells.dropFirst().map(\.text) == Self.months.map(Optional.some),
            header + 1 < sheet.rows.count, sheet.rows[header + 1].number == sheet.rows[header].number + 1,
            sheet.rows[header + 1].cells.map(\.column) == Array(1...24),
            sheet.rows[header + 1].cells.map(\.text) == sides
        else {
            throw layout("no header rows DIAS | ENERO | | FEBRERO | … and VENTA | COMPRA per month")
        }
        var publications: [ProviderPublication] = []
        var previousDayOfMonth = 0
        for row in sheet.rows[(header + 2)...] {
            guard let first = row[0] else { throw layout("row \(row.number) has no day or label in column A") }
            if let label = first.text {
                // The monthly averages and the footer lines: text only, or the averages' row.
                guard label == "PROM" || row.cells.count == 1 else { throw layout("row \(row.number) is labelled \(UpstreamDataError.quoted(label))") }
                continue
            }
            guard let number = first.number, number.rounded() == number, number >= 1, number <= 31, Int(number) > previousDayOfMonth else {
                throw layout("row \(row.number) does not start with the next day of the month (1 to 31)")
            }
            let dayOfMonth = Int(number)
            previousDayOfMonth = dayOfMonth
            guard row.cells.allSatisfy({ $0.column <= 24 }) else { throw layout("row \(row.number) has figures right of December") }
            for (index, sellColumn) in monthColumns.enumerated() {
                let (sell, buy) = (row[sellColumn], row[sellColumn + 1])
                guard sell != nil || buy != nil else { continue }
                guard let day = Day(year: year, month: index + 1, day: dayOfMonth) else {
                    throw .invalidDay("\(year)-\(index + 1)-\(dayOfMonth)")
                }
                guard let sellText = sell?.decimalText, let buyText = buy?.decimalText,
                    let midpoint = RateText.midpoint(sellText, buyText)
                else {
                    let shown = [sell, buy].map { $0?.decimalText ?? $0?.text ?? "none" }
                    throw .invalidRate(currency: .usDollar, day: day, text: shown.joined(separator: " / "))
                }
                publications.append(ProviderPublication(day: day, currency: .usDollar, value: midpoint, direction: .pivotPerUnits))
            }
        }
        return publications
    }
}
