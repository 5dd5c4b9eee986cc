/// One day's published rates as a compact table: the currencies in code order, each with its
/// rate held as an integer significand and a decimal exponent.
///
/// Finding a currency is a binary search over a few dozen packed codes; reading the whole table
/// in order is a walk over two contiguous arrays. A rate keeps the digits it was published with,
/// so it prints back byte for byte, and where it came from when that is not the ECB of that day.
public struct DayTable: Hashable, Sendable {
    /// The publication day.
    public let day: Day
    /// The currencies with a rate, in code order.
    public let codes: [CurrencyCode]
    /// Each code's rate, in the same order: the significand (below 10^18) and its exponent.
    let significands: [UInt64]
    let exponents: [Int8]
    /// The day's sources other than the ECB of ``day``, each once (a day has a few dozen at most).
    let sourceList: [RateSource]
    /// Each code's source, in the same order: its position in ``sourceList`` plus one, 0 for the ECB
    /// of ``day``. Empty when every rate is the ECB's of ``day`` (the whole history before other
    /// providers), so such days cost nothing more; two bytes a rate otherwise, not a source each.
    let sourceIndices: [UInt16]

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
        var codes: [CurrencyCode] = []
        var significands: [UInt64] = []
        var exponents: [Int8] = []
        var sourceList: [RateSource] = []
        var sourceIndices: [UInt16] = []
        codes.reserveCapacity(entries.count)
        significands.reserveCapacity(entries.count)
        exponents.reserveCapacity(entries.count)
        sourceIndices.reserveCapacity(entries.count)
        for entry in entries.sorted(by: { $0.code < $1.code }) {
            guard RateText.isValid(entry.text), let value = ExactDecimal(entry.text), let significand = value.smallSignificand,
                  let exponent = Int8(exactly: value.exponent)
            else { continue }
            codes.append(entry.code)
            significands.append(significand)
            exponents.append(exponent)
            guard let source = entry.source else {
                sourceIndices.append(0)
                continue
            }
            if let position = sourceList.firstIndex(of: source) {
                sourceIndices.append(UInt16(position + 1))
            } else {
                sourceList.append(source)
                sourceIndices.append(UInt16(sourceList.count))
            }
        }
        self.init(
            day: day, codes: codes, significands: significands, exponents: exponents, sourceList: sourceList,
            sourceIndices: sourceList.isEmpty ? [] : sourceIndices)
    }

    /// The table of its parts, as stored (``init(day:encoded:)`` checks them first).
    init(day: Day, codes: [CurrencyCode], significands: [UInt64], exponents: [Int8], sourceList: [RateSource], sourceIndices: [UInt16]) {
        self.day = day
        self.codes = codes
        self.significands = significands
        self.exponents = exponents
        self.sourceList = sourceList
        self.sourceIndices = sourceIndices
    }

    /// How many currencies have a rate.
    public var count: Int { codes.count }

    /// The rate at `index` of ``codes``.
    public func rate(at index: Int) -> ExactDecimal {
        ExactDecimal(significand: significands[index], exponent: Int(exponents[index]))
    }

    /// The position of `code` in ``codes``, or `nil` when it has no rate.
    public func index(of code: CurrencyCode) -> Int? {
        let low = codes.partitionPoint { $0 < code }
        return low < codes.count && codes[low] == code ? low : nil
    }

    /// The rate of `code`, or `nil` when it has none.
    public func rate(of code: CurrencyCode) -> ExactDecimal? {
        index(of: code).map(rate(at:))
    }

    /// Where the rate at `index` of ``codes`` came from: its provider and that provider's own day.
    public func source(at index: Int) -> RateSource {
        let position = sourceIndices.isEmpty ? 0 : Int(sourceIndices[index])
        return position == 0 ? RateSource(provider: ProviderKey.ecb, day: day) : sourceList[position - 1]
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
        for (index, position) in sourceIndices.enumerated() where position > 0 { found[codes[index]] = sourceList[Int(position) - 1] }
        return found
    }
}
