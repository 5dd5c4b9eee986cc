/// One day's published rates as a compact table: the currencies in code order, each with its
/// rate held as an integer significand and a decimal exponent.
///
/// Finding a currency is a binary search over a few dozen packed codes; the whole table is one
/// block of memory (``DayTableStorage``). A rate keeps the digits it was published with, so it
/// prints back byte for byte, and where it came from when that is not the ECB of that day.
public struct DayTable: Hashable, Sendable {
    /// The publication day.
    public let day: Day
    /// The codes, significands, exponents and sources. A source is numbered from one in the order
    /// first met; a value's source position is its number, or 0 for the ECB of ``day``. A table
    /// whose every rate is the ECB's of ``day`` (the whole history before other providers) names
    /// no source and keeps no positions, so such days cost nothing more.
    let storage: DayTableStorage

    /// One rate of a table: the currency, its rate as published text, and where it came from when
    /// not from the ECB on the table's day.
    public struct Entry: Sendable {
        /// The currency.
        public var code: CurrencyCode
        /// Its rate as published text (`0.8338`, trailing zeros kept).
        public var text: Substring
        /// Where it came from; `nil` for the ECB on the table's day.
        public var source: RateSource?

        public init(code: CurrencyCode, text: Substring, source: RateSource? = nil) {
            self.code = code
            self.text = text
            self.source = source
        }
    }

    /// The table of `rates`, with `sources` naming where a rate came from when not from the ECB on
    /// `day`; a text that is not a valid rate (``RateText/isValid(_:)``) is left out: every stored
    /// rate was checked on the way in, so none is.
    public init(day: Day, rates: [CurrencyCode: String], sources: [CurrencyCode: RateSource] = [:]) {
        self.init(day: day, entries: rates.map { Entry(code: $0.key, text: Substring($0.value), source: sources[$0.key]) })
    }

    /// The table of `entries`, in any order, each currency once; an entry whose text is not a valid
    /// rate (``RateText/isValid(_:)``) is left out, as by ``init(day:rates:sources:)``.
    public init(day: Day, entries: [Entry]) {
        self.init(day: day, rows: entries.sorted(by: { $0.code < $1.code }).compactMap { entry in
            guard RateText.isValid(entry.text), let value = ExactDecimal(entry.text), let significand = value.smallSignificand,
                  let exponent = Int8(exactly: value.exponent)
            else { return nil }
            return (entry.code, significand, exponent, entry.source)
        })
    }

    /// One value of a table as it is stored: its currency, significand, exponent and source (`nil` for the ECB of the table's day).
    typealias Row = (code: CurrencyCode, significand: UInt64, exponent: Int8, source: RateSource?)

    /// The table of `rows`, in code order, their sources numbered in the order first met (``position(of:in:)``).
    init(day: Day, rows: [Row]) {
        var sources: [RateSource] = []
        let positions = rows.map { Self.position(of: $0.source, in: &sources) }
        self.init(
            day: day, codes: rows.map(\.code), significands: rows.map(\.significand), exponents: rows.map(\.exponent), sources: sources,
            positions: sources.isEmpty ? [] : positions)
    }

    /// The position of `source` among `sources`, numbered from one in the order first met (appended
    /// when not there yet); 0 for `nil`, the ECB of the table's day.
    static func position(of source: RateSource?, in sources: inout [RateSource]) -> UInt16 {
        guard let source else { return 0 }
        if let position = sources.firstIndex(of: source) { return UInt16(position + 1) }
        sources.append(source)
        return UInt16(sources.count)
    }

    /// The table of its parts: `codes` in order, each with its significand, exponent and source
    /// position (`positions` empty when `sources` is), the sources numbered from one
    /// (``init(day:encoded:)`` checks them first).
    init(day: Day, codes: [CurrencyCode], significands: [UInt64], exponents: [Int8], sources: [RateSource], positions: [UInt16]) {
        self.day = day
        self.storage = .make(codes: codes, significands: significands, exponents: exponents, sources: sources, positions: positions)
    }

    /// The currencies with a rate, in code order.
    public var codes: Codes { Codes(storage: storage) }

    /// The currencies of a table, in code order, read from its storage without a copy.
    public struct Codes: RandomAccessCollection, Sendable {
        let storage: DayTableStorage

        public var startIndex: Int { 0 }
        public var endIndex: Int { storage.count }
        public subscript(index: Int) -> CurrencyCode { storage.code(at: index) }
    }

    /// The currencies with a rate in any of `tables`, each marked in a table of every three-letter
    /// code (26³ flags) rather than hashed: a history's half a million values take one pass.
    public static func currencies(in tables: [DayTable]) -> Set<CurrencyCode> {
        var seen = [Bool](repeating: false, count: 26 * 26 * 26)
        var found: Set<CurrencyCode> = []
        for table in tables {
            for index in 0..<table.count {
                let ordinal = table.storage.ordinal(at: index)
                guard !seen[Int(ordinal)] else { continue }
                seen[Int(ordinal)] = true
                found.insert(CurrencyCode(ordinal: ordinal))
            }
        }
        return found
    }

    /// How many currencies have a rate.
    public var count: Int { storage.count }

    /// The rate at `index` of ``codes``.
    public func rate(at index: Int) -> ExactDecimal {
        ExactDecimal(significand: storage.significand(at: index), exponent: Int(storage.exponent(at: index)))
    }

    /// The position of `code` in ``codes``, or `nil` when it has no rate.
    public func index(of code: CurrencyCode) -> Int? {
        let low = storage.partitionPoint(of: code)
        return low < count && storage.code(at: low) == code ? low : nil
    }

    /// The rate of `code`, or `nil` when it has none.
    public func rate(of code: CurrencyCode) -> ExactDecimal? {
        index(of: code).map(rate(at:))
    }

    /// Where the rate at `index` of ``codes`` came from: its provider and that provider's own day.
    public func source(at index: Int) -> RateSource {
        let position = storage.position(at: index)
        return position == 0 ? RateSource(provider: ProviderKey.ecb, day: day) : storage.source(numbered: position)
    }

    /// The rates as published text, by currency.
    public var texts: [CurrencyCode: String] {
        Dictionary(uniqueKeysWithValues: codes.indices.map { (codes[$0], rate(at: $0).description) })
    }

    /// The table as rate texts and sources by currency.
    public var dailyRates: DailyRates { DailyRates(day: day, rates: texts, sources: nonDefaultSources) }

    /// The sources of the rates that did not come from the ECB on ``day``, by currency (as ``DailyRates/sources``).
    public var nonDefaultSources: [CurrencyCode: RateSource] {
        var found: [CurrencyCode: RateSource] = [:]
        for index in 0..<count where storage.position(at: index) > 0 { found[storage.code(at: index)] = source(at: index) }
        return found
    }

    public static func == (left: DayTable, right: DayTable) -> Bool {
        left.day == right.day && left.storage.holdsTheSame(as: right.storage)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(day)
        storage.hash(into: &hasher)
    }
}
