import NIOCore
import RatesCore
import RatesIngest

/// The records of a Frankfurter v2 rates answer: for each publication the query covers, one
/// `{date, base, quote, rate}` per quote currency with a rate that day (the base itself among
/// them, at 1), by date and then by quote, as v2 orders them.
///
/// A publication without a rate of the base gives no records (v2 answers such a day with none).
/// With `group=week|month`, one record per period and quote instead: the mean of the rates served
/// on the period's publications in the range (``ExactDecimal/mean(of:significantDigits:)``: exact,
/// rounded once to 8 significant digits), dated the period's first day (its ISO week's Monday, or
/// the first of its month), as v2 averages and dates its periods.
struct FrankfurterV2Records: Sendable {
    /// One record.
    struct Record: Sendable {
        var day: Day
        var base: CurrencyCode
        var quote: CurrencyCode
        var rate: ExactDecimal
    }

    /// A period of `group=week|month`: its first day and its publications within the range, in order.
    struct Period: Sendable {
        var day: Day
        var publications: ArraySlice<DayTable>
    }

    let base: CurrencyCode
    /// Sorted; `nil` for every currency.
    let quotes: [CurrencyCode]?
    /// Every publication the records are of (with `group`, those the periods' means are of).
    let publications: [DayTable]
    /// With `group`, the periods, in order; `nil` without.
    let periods: [Period]?
    let snapshot: RatesSnapshot

    init(_ query: FrankfurterV2Query, snapshot: RatesSnapshot) {
        base = query.base
        quotes = query.quotes?.sorted()
        self.snapshot = snapshot
        let publications = Self.publications(query.dates, base: query.base, snapshot: snapshot)
        self.publications = publications
        if case .range = query.dates, let grouping = query.grouping {
            periods = Self.periods(of: publications, grouping)
        } else {
            periods = nil
        }
    }

    /// The publications of `dates` with a rate of `base`: the newest (on or before the day asked),
    /// or each in the range.
    static func publications(_ dates: FrankfurterV2Query.Dates, base: CurrencyCode, snapshot: RatesSnapshot) -> [DayTable] {
        let hasBase = { (publication: DayTable) in snapshot.crossRates(publication).contains(base) }
        switch dates {
        case .latest: return snapshot.latest.map { [$0] } ?? []
        case .day(let day): return snapshot.publication(onOrBefore: day).map { [$0] } ?? []
        case .range(let start, let end):
            guard start <= end else { return [] }
            return snapshot.publications(from: start, through: end).filter { $0.day >= start && hasBase($0) }
        }
    }

    /// `publications` (in order) cut into ISO weeks (Monday to Sunday) or calendar months.
    static func periods(of publications: [DayTable], _ grouping: FrankfurterV2Query.Grouping) -> [Period] {
        var periods: [Period] = []
        var start = publications.startIndex
        while start < publications.endIndex {
            let first = Self.firstDay(of: publications[start].day, grouping)
            var end = start + 1
            while end < publications.endIndex, Self.firstDay(of: publications[end].day, grouping) == first { end += 1 }
            periods.append(Period(day: first, publications: publications[start..<end]))
            start = end
        }
        return periods
    }

    /// The first day of the period `day` falls in: its ISO week's Monday, or the first of its month.
    static func firstDay(of day: Day, _ grouping: FrankfurterV2Query.Grouping) -> Day {
        switch grouping {
        case .week: return day.adding(days: 1 - day.isoWeekday)
        case .month: return day.monthStart
        }
    }

    /// Calls `body` with each publication of `publications` that has records, its table and the quotes to list, in order.
    func forEachPublication(of publications: some Sequence<DayTable>, _ body: (DayTable, CrossRates, [CurrencyCode]) -> Void) {
        for publication in publications {
            let table = snapshot.crossRates(publication)
            guard table.contains(base) else { continue }
            body(publication, table, quotes ?? table.currencies.sorted())
        }
    }

    /// The first record, if any, and the publication it is of (`/v2/rate`'s one record).
    var first: (record: Record, publication: DayTable)? {
        var first: (record: Record, publication: DayTable)?
        forEachRecord(of: publications) { record, publication in
            if first == nil { first = (record, publication) }
        }
        return first
    }

    /// Calls `body` with each record of `publications`, in order, and the publication it is of.
    func forEachRecord(of publications: some Sequence<DayTable>, _ body: (Record, DayTable) -> Void) {
        forEachPublication(of: publications) { publication, table, codes in
            for quote in codes {
                guard let rate = table.rate(from: base, to: quote) else { continue }
                body(Record(day: publication.day, base: base, quote: quote, rate: rate.exact), publication)
            }
        }
    }

    /// The answer in `format`, in segments of a few publications (``SegmentedBody``): JSON's array
    /// of `{"date","base","quote","rate"}`, NDJSON's line per record (`Accept: application/x-ndjson`),
    /// or CSV's `date,base,quote,rate` lines under a header line. When `expanded` (`expand=providers`),
    /// each record's rate is followed by its providers: a day's as `weighing` gives them for a segment
    /// (``FrankfurterV2Weighed``, read from the store), a period's as ``PeriodSources``.
    func body(
        _ format: AnswerFormat, records: Int, expanded: Bool, weighing: (@Sendable (ArraySlice<DayTable>) throws(Problem) -> FrankfurterV2Weighed)?
    ) -> SegmentedBody {
        let source = self
        let (opening, closing, bytesPerRecord): (String, String, Int) = switch format {
        case .json: ("[", "]", 60)
        case .ndjson: ("", "", 61)
        case .csv: ("date,base,quote,rate\n", "", 30)
        }
        return SegmentedBody(
            opening: ByteBuffer(string: opening), closing: ByteBuffer(string: closing),
            segmentCount: SegmentedBody.segments(of: periods?.count ?? publications.count),
            segment: { index, continuing throws(Problem) in
                if let periods = source.periods {
                    return source.segment(SegmentedBody.slice(periods, segment: index), format: format, continuing: continuing, expanded: expanded)
                }
                let publications = SegmentedBody.slice(source.publications, segment: index)
                let weighed = try weighing?(publications)
                return source.segment(publications, format: format, continuing: continuing, weighed: weighed)
            },
            estimatedBytes: periods.map { $0.count * (quotes?.count ?? 32) * (expanded ? bytesPerRecord * 2 : bytesPerRecord) }
                ?? records * (weighing == nil ? bytesPerRecord : bytesPerRecord * 5))
    }

    /// The records of `publications` in `format`, after records written before when `continuing`;
    /// with each record's providers when `weighed` is given (JSON and NDJSON).
    ///
    /// Without providers, JSON and CSV are written as bytes rather than through ``JSONWriter``: a
    /// long range has a few hundred thousand records whose only varying parts are a code and a
    /// number (nothing to escape), so each publication's records are made from its common prefix.
    func segment(
        _ publications: ArraySlice<DayTable>, format: AnswerFormat, continuing: Bool, weighed: FrankfurterV2Weighed?
    ) -> (bytes: ByteBuffer, continuing: Bool) {
        let capacity = publications.count * 64 * (quotes?.count ?? 32)
        switch (format, weighed) {
        case (.json, let weighed?):
            var json = JSONWriter(continuing: continuing, capacity: capacity * 5)
            forEachRecord(of: publications) { record, publication in
                let providers = weighed.entries(base: base, quote: record.quote, publication: publication)
                json.element { Self.write(record, providers: providers, into: &$0) }
            }
            return (json.buffer, json.isContinuing)
        case (.ndjson, _):
            var buffer = ByteBufferAllocator().buffer(capacity: weighed == nil ? capacity : capacity * 5)
            forEachRecord(of: publications) { record, publication in
                let providers = weighed?.entries(base: base, quote: record.quote, publication: publication)
                buffer.writeImmutableBuffer(JSONWriter.object { Self.write(record, providers: providers, into: &$0) })
                buffer.writeStaticString("\n")
            }
            return (buffer, continuing)
        case (.json, nil):
            var bytes: [UInt8] = []
            bytes.reserveCapacity(capacity)
            var separator = continuing
            forEachPublication(of: publications) { publication, table, codes in
                let prefix = Array(#"{"date":"\#(publication.day)","base":"\#(base)","quote":""#.utf8)
                for quote in codes {
                    guard let rate = table.rate(from: base, to: quote) else { continue }
                    if separator { bytes.append(UInt8(ascii: ",")) }
                    separator = true
                    bytes.append(contentsOf: prefix)
                    Self.append(quote, to: &bytes)
                    bytes.append(contentsOf: Self.rateMember)
                    rate.exact.withPlainText { bytes.append(contentsOf: $0) }
                    bytes.append(UInt8(ascii: "}"))
                }
            }
            return (ByteBuffer(bytes: bytes), separator)
        case (.csv, _):
            var bytes: [UInt8] = []
            bytes.reserveCapacity(capacity / 2)
            forEachPublication(of: publications) { publication, table, codes in
                let prefix = Array("\(publication.day),\(base),".utf8)
                for quote in codes {
                    guard let rate = table.rate(from: base, to: quote) else { continue }
                    bytes.append(contentsOf: prefix)
                    Self.append(quote, to: &bytes)
                    bytes.append(UInt8(ascii: ","))
                    rate.exact.withPlainText { bytes.append(contentsOf: $0) }
                    bytes.append(UInt8(ascii: "\n"))
                }
            }
            return (ByteBuffer(bytes: bytes), continuing)
        }
    }

    /// Calls `body` with each record of `period`, by quote: the mean of the quote's rates on the
    /// period's publications, with how many there were and how many of them each provider's figure served.
    func forEachMean(of period: Period, _ body: (Record, PeriodSources) -> Void) {
        let tables = period.publications.map { (publication: $0, table: snapshot.crossRates($0)) }
        for quote in quotes ?? Set(tables.flatMap { $0.table.currencies }).sorted() {
            // As for a day's record, the providers named are those of the currency that is not EUR.
            let listed = quote == .euro ? base : quote
            var rates: [ExactDecimal] = []
            var served: [String: Int] = [:]
            for (publication, table) in tables {
                guard let rate = table.rate(from: base, to: quote) else { continue }
                rates.append(rate.exact)
                if base != quote, let index = publication.index(of: listed) { served[publication.source(at: index).provider, default: 0] += 1 }
            }
            guard let mean = ExactDecimal.mean(of: rates) else { continue }
            body(Record(day: period.day, base: base, quote: quote, rate: mean), PeriodSources(days: rates.count, providers: served))
        }
    }

    /// What a period's record averaged (`expand=providers` with `group`): how many publications, and
    /// how many of them each provider's figure served (a peg's as `PEG`); no providers for the base itself.
    struct PeriodSources {
        var days: Int
        var providers: [String: Int]

        /// `"days":N,"providers":[{"key","days"}, …]`, the providers by key.
        func write(into json: inout JSONWriter) {
            json.field("days", number: String(days))
            json.field("providers", array: providers.sorted { $0.key < $1.key }) { json, entry in
                json.object { json in
                    json.field("key", string: entry.key)
                    json.field("days", number: String(entry.value))
                }
            }
        }
    }

    /// The records of `periods` in `format`, after records written before when `continuing`; with
    /// what each averaged when `expanded` (JSON and NDJSON).
    func segment(_ periods: ArraySlice<Period>, format: AnswerFormat, continuing: Bool, expanded: Bool) -> (bytes: ByteBuffer, continuing: Bool) {
        var json = JSONWriter(continuing: continuing, capacity: periods.count * 64 * (quotes?.count ?? 32))
        var lines = ByteBufferAllocator().buffer(capacity: format == .json ? 0 : periods.count * 64 * (quotes?.count ?? 32))
        for period in periods {
            forEachMean(of: period) { record, sources in
                switch format {
                case .json: json.element { Self.write(record, period: expanded ? sources : nil, into: &$0) }
                case .ndjson:
                    lines.writeImmutableBuffer(JSONWriter.object { Self.write(record, period: expanded ? sources : nil, into: &$0) })
                    lines.writeStaticString("\n")
                case .csv: lines.writeString("\(record.day),\(record.base),\(record.quote),\(record.rate)\n")
                }
            }
        }
        return format == .json ? (json.buffer, json.isContinuing) : (lines, continuing)
    }

    /// `","rate":`, between a record's quote and its rate.
    private static let rateMember = Array(#"","rate":"#.utf8)

    private static func append(_ code: CurrencyCode, to bytes: inout [UInt8]) {
        let (first, second, third) = code.letters
        bytes.append(first)
        bytes.append(second)
        bytes.append(third)
    }

    /// One record's members, and its `providers` (a day's) or what it averaged (a period's) when given.
    static func write(_ record: Record, providers: [FrankfurterV2Weighed.Entry]? = nil, period: PeriodSources? = nil, into json: inout JSONWriter) {
        json.field("date", string: record.day.description)
        json.field("base", string: record.base.rawValue)
        json.field("quote", string: record.quote.rawValue)
        json.field("rate", number: record.rate)
        if let providers { FrankfurterV2Weighed.write(providers, into: &json) }
        period?.write(into: &json)
    }
}
