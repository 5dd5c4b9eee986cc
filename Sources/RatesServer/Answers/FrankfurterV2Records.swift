import NIOCore
import RatesCore
import RatesIngest

/// The records of a Frankfurter v2 rates answer: for each publication the query covers, one
/// `{date, base, quote, rate}` per quote currency with a rate that day (the base itself among
/// them, at 1), by date and then by quote, as v2 orders them.
///
/// A publication without a rate of the base gives no records (v2 answers such a day with none).
struct FrankfurterV2Records: Sendable {
    /// One record.
    struct Record: Sendable {
        var day: Day
        var base: CurrencyCode
        var quote: CurrencyCode
        var rate: ExactDecimal
    }

    let base: CurrencyCode
    /// Sorted; `nil` for every currency.
    let quotes: [CurrencyCode]?
    let publications: [DayTable]
    let snapshot: RatesSnapshot

    init(_ query: FrankfurterV2Query, snapshot: RatesSnapshot) {
        base = query.base
        quotes = query.quotes?.sorted()
        self.snapshot = snapshot
        publications = Self.publications(query.dates, grouping: query.grouping, base: query.base, snapshot: snapshot)
    }

    /// The publications of `dates` with a rate of `base`: the newest (on or before the day asked),
    /// or each in the range; with `grouping`, the last of each ISO week (Monday to Sunday) or
    /// calendar month within the range.
    static func publications(
        _ dates: FrankfurterV2Query.Dates, grouping: FrankfurterV2Query.Grouping?, base: CurrencyCode, snapshot: RatesSnapshot
    ) -> [DayTable] {
        let hasBase = { (publication: DayTable) in snapshot.crossRates(publication).contains(base) }
        switch dates {
        case .latest: return snapshot.latest.map { [$0] } ?? []
        case .day(let day): return snapshot.publication(onOrBefore: day).map { [$0] } ?? []
        case .range(let start, let end):
            guard start <= end else { return [] }
            let inRange = snapshot.publications(from: start, through: end).filter { $0.day >= start && hasBase($0) }
            guard let grouping else { return inRange }
            var chosen: [DayTable] = []
            var lastPeriod: Int?
            for publication in inRange {
                let period = Self.period(of: publication.day, grouping)
                if period == lastPeriod { chosen[chosen.count - 1] = publication } else { chosen.append(publication) }
                lastPeriod = period
            }
            return chosen
        }
    }

    /// A number naming the period `day` falls in: its week's Monday, or its month.
    static func period(of day: Day, _ grouping: FrankfurterV2Query.Grouping) -> Int {
        switch grouping {
        case .week: return day.dayNumber - (day.isoWeekday - 1)
        case .month:
            let (year, month, _) = day.parts
            return year * 12 + month
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

    /// The first record, if any, and the publication it is of.
    var first: (record: Record, publication: DayTable)? {
        for publication in publications {
            let table = snapshot.crossRates(publication)
            guard table.contains(base) else { continue }
            for quote in quotes ?? table.currencies.sorted() {
                if let rate = table.rate(from: base, to: quote) { return (Record(day: publication.day, base: base, quote: quote, rate: rate.exact), publication) }
            }
        }
        return nil
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
    /// or CSV's `date,base,quote,rate` lines under a header line. With `weighing`, a segment's
    /// providers (``FrankfurterV2Weighed``, `expand=providers`: read from the store) follow each record's rate.
    func body(
        _ format: AnswerFormat, records: Int, weighing: (@Sendable (ArraySlice<DayTable>) throws(Problem) -> FrankfurterV2Weighed)?
    ) -> SegmentedBody {
        let source = self
        let (opening, closing, bytesPerRecord): (String, String, Int) = switch format {
        case .json: ("[", "]", 60)
        case .ndjson: ("", "", 61)
        case .csv: ("date,base,quote,rate\n", "", 30)
        }
        return SegmentedBody(
            opening: ByteBuffer(string: opening), closing: ByteBuffer(string: closing), segmentCount: SegmentedBody.segments(of: publications.count),
            segment: { index, continuing throws(Problem) in
                let publications = SegmentedBody.slice(source.publications, segment: index)
                let weighed = try weighing?(publications)
                return source.segment(publications, format: format, continuing: continuing, weighed: weighed)
            },
            estimatedBytes: records * (weighing == nil ? bytesPerRecord : bytesPerRecord * 5))
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

    /// `","rate":`, between a record's quote and its rate.
    private static let rateMember = Array(#"","rate":"#.utf8)

    private static func append(_ code: CurrencyCode, to bytes: inout [UInt8]) {
        let (first, second, third) = code.letters
        bytes.append(first)
        bytes.append(second)
        bytes.append(third)
    }

    /// One record's members, and its `providers` when given.
    static func write(_ record: Record, providers: [FrankfurterV2Weighed.Entry]? = nil, into json: inout JSONWriter) {
        json.field("date", string: record.day.description)
        json.field("base", string: record.base.rawValue)
        json.field("quote", string: record.quote.rawValue)
        json.field("rate", number: record.rate)
        if let providers { FrankfurterV2Weighed.write(providers, into: &json) }
    }
}
