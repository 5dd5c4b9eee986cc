import NIOCore
import RatesCore
import RatesIngest

/// The records of a Frankfurter v2 rates answer: for each publication the query covers, one
/// `{date, base, quote, rate}` per quote currency with a rate that day (the base itself among
/// them, at 1), by date and then by quote, as v2 orders them.
///
/// A publication without a rate of the base gives no records (v2 answers such a day with none).
struct FrankfurterV2Records {
    /// One record.
    struct Record {
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

    /// Calls `body` with each publication that has records, its table and the quotes to list, in order.
    func forEachPublication(_ body: (DayTable, CrossRates, [CurrencyCode]) -> Void) {
        for publication in publications {
            let table = snapshot.crossRates(publication)
            guard table.contains(base) else { continue }
            body(publication, table, quotes ?? table.currencies.sorted())
        }
    }

    /// The first record, if any, and the publication it is of.
    var first: (record: Record, publication: DayTable)? {
        var found: (record: Record, publication: DayTable)?
        forEachRecord { record, publication in found = found ?? (record, publication) }
        return found
    }

    /// The JSON array of the records, each `{"date","base","quote","rate"}`.
    ///
    /// Written as bytes rather than through ``JSONWriter``: a long range has a few hundred
    /// thousand records whose only varying parts are a code and a number (nothing to escape), so
    /// each publication's records are made in one array from its common prefix, then written at once.
    var json: ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: 64 + publications.count * 60 * (quotes?.count ?? 32))
        buffer.writeStaticString("[")
        var separator = false
        var bytes: [UInt8] = []
        forEachPublication { publication, table, codes in
            let prefix = Array(#"{"date":"\#(publication.day)","base":"\#(base)","quote":""#.utf8)
            bytes.removeAll(keepingCapacity: true)
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
            buffer.writeBytes(bytes)
        }
        buffer.writeStaticString("]")
        return buffer
    }

    /// Calls `body` with each record, in order, and the publication it is of.
    func forEachRecord(_ body: (Record, DayTable) -> Void) {
        forEachPublication { publication, table, codes in
            for quote in codes {
                guard let rate = table.rate(from: base, to: quote) else { continue }
                body(Record(day: publication.day, base: base, quote: quote, rate: rate.exact), publication)
            }
        }
    }

    /// The JSON array of the records, each with its `providers` (`expand=providers`, ``FrankfurterV2Weighed``).
    func json(weighed: FrankfurterV2Weighed) -> ByteBuffer {
        JSONWriter.array { json in
            forEachRecord { record, publication in
                let providers = weighed.entries(base: base, quote: record.quote, publication: publication)
                json.element { Self.write(record, providers: providers, into: &$0) }
            }
        }
    }

    /// The records as NDJSON (`Accept: application/x-ndjson`): each record's object on a line of its
    /// own, the members of ``json`` (with `providers` when `weighed` is given).
    func ndjson(weighed: FrankfurterV2Weighed?) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: 64 + publications.count * 61 * (quotes?.count ?? 32))
        forEachRecord { record, publication in
            let providers = weighed?.entries(base: base, quote: record.quote, publication: publication)
            buffer.writeImmutableBuffer(JSONWriter.object { Self.write(record, providers: providers, into: &$0) })
            buffer.writeStaticString("\n")
        }
        return buffer
    }

    /// The records as CSV, as v2 writes them: a `date,base,quote,rate` header line, then one line per record.
    var csv: ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: 64 + publications.count * 26 * (quotes?.count ?? 32))
        buffer.writeStaticString("date,base,quote,rate\n")
        var bytes: [UInt8] = []
        forEachPublication { publication, table, codes in
            let prefix = Array("\(publication.day),\(base),".utf8)
            bytes.removeAll(keepingCapacity: true)
            for quote in codes {
                guard let rate = table.rate(from: base, to: quote) else { continue }
                bytes.append(contentsOf: prefix)
                Self.append(quote, to: &bytes)
                bytes.append(UInt8(ascii: ","))
                rate.exact.withPlainText { bytes.append(contentsOf: $0) }
                bytes.append(UInt8(ascii: "\n"))
            }
            buffer.writeBytes(bytes)
        }
        return buffer
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
