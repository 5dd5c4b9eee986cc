/// A day table's values packed in one allocation, so that a history of thousands of days costs
/// about eight bytes a value and one block a day, not five arrays a day
/// (docs/MEASUREMENTS.md#the-aggregator-with-every-provider).
///
/// Regions, each of its count of fixed-width integers, in this order so that every one is aligned:
/// - the significands of 2^31 or more, eight bytes each (about one value in ten: long published figures);
/// - every value's significand, four bytes: itself when below 2^31, else 2^31 + its place among the long ones;
/// - each source's day number, four bytes, and the end of its provider's letters, four bytes;
/// - every value's currency as its ordinal (``CurrencyCode/ordinal``), two bytes;
/// - every value's source position (as ``DayTable`` numbers them), only when the day names sources: one
///   byte when it names fewer than 256 (nearly every day), else two;
/// - every value's decimal exponent, one byte;
/// - the sources' provider keys, their ASCII letters one after another.
///
/// It is written once, when the table is made, and only read after, so sharing it between threads is safe.
struct DayTableStorage: @unchecked Sendable {
    /// The counts as its header, the regions as its elements.
    private let buffer: ManagedBuffer<Counts, UInt64>

    /// How many of each a table holds; the regions' places follow from them.
    struct Counts {
        var values: Int32
        var sources: Int32
        var longSignificands: Int32
        var letters: Int32
    }

    /// The first significand that does not fit the four bytes of its region.
    private static let longSignificand: UInt64 = 1 << 31

    /// A table of `codes` in order, each with its significand, exponent and source position (all as
    /// many; `positions` empty when `sources` is), and the `sources` that positions number from one.
    static func make(
        codes: [CurrencyCode], significands: [UInt64], exponents: [Int8], sources: [RateSource], positions: [UInt16]
    ) -> DayTableStorage {
        let long = significands.reduce(0) { $0 + ($1 >= longSignificand ? 1 : 0) }
        let letters = sources.reduce(0) { $0 + $1.provider.utf8.count }
        let counts = Counts(
            values: Int32(codes.count), sources: Int32(sources.count), longSignificands: Int32(long), letters: Int32(letters))
        let regions = Regions(counts)
        let narrowPositions = regions.positionWidth == 1
        let buffer = ManagedBuffer<Counts, UInt64>.create(minimumCapacity: (regions.end + 7) / 8) { _ in counts }
        buffer.withUnsafeMutablePointerToElements { words in
            let raw = UnsafeMutableRawPointer(words)
            var longPlace: UInt32 = 0
            for (index, significand) in significands.enumerated() {
                let held: UInt32
                if significand >= longSignificand {
                    raw.storeBytes(of: significand, toByteOffset: Int(longPlace) * 8, as: UInt64.self)
                    held = UInt32(longSignificand) + longPlace
                    longPlace += 1
                } else {
                    held = UInt32(significand)
                }
                raw.storeBytes(of: held, toByteOffset: regions.significands + index * 4, as: UInt32.self)
                raw.storeBytes(of: codes[index].ordinal, toByteOffset: regions.codes + index * 2, as: UInt16.self)
                raw.storeBytes(of: exponents[index], toByteOffset: regions.exponents + index, as: Int8.self)
            }
            for (index, position) in positions.enumerated() {
                if narrowPositions {
                    raw.storeBytes(of: UInt8(position), toByteOffset: regions.positions + index, as: UInt8.self)
                } else {
                    raw.storeBytes(of: position, toByteOffset: regions.positions + index * 2, as: UInt16.self)
                }
            }
            var letterEnd = 0
            for (index, source) in sources.enumerated() {
                raw.storeBytes(of: Int32(source.day.dayNumber), toByteOffset: regions.sourceDays + index * 4, as: Int32.self)
                for letter in source.provider.utf8 {
                    raw.storeBytes(of: letter, toByteOffset: regions.letters + letterEnd, as: UInt8.self)
                    letterEnd += 1
                }
                raw.storeBytes(of: UInt32(letterEnd), toByteOffset: regions.letterEnds + index * 4, as: UInt32.self)
            }
        }
        return DayTableStorage(buffer: buffer)
    }

    /// Where each region starts, in bytes from the first element.
    private struct Regions {
        let significands: Int
        let sourceDays: Int
        let letterEnds: Int
        let codes: Int
        let positions: Int
        /// Bytes a source position takes: 0 when the day names no source.
        let positionWidth: Int
        let exponents: Int
        let letters: Int
        let end: Int

        init(_ counts: Counts) {
            let values = Int(counts.values)
            let sources = Int(counts.sources)
            significands = Int(counts.longSignificands) * 8
            sourceDays = significands + values * 4
            letterEnds = sourceDays + sources * 4
            codes = letterEnds + sources * 4
            positions = codes + values * 2
            positionWidth = sources == 0 ? 0 : sources < 256 ? 1 : 2
            exponents = positions + values * positionWidth
            letters = exponents + values
            end = letters + Int(counts.letters)
        }
    }

    /// The counts, read through a pointer: reading `header` itself checks exclusive access at run
    /// time, which cost a start more than the reads it guarded.
    private var counts: Counts { buffer.withUnsafeMutablePointerToHeader { $0.pointee } }

    /// How many values the table holds.
    var count: Int { Int(counts.values) }

    /// How many sources the table names.
    var sourceCount: Int { Int(counts.sources) }

    private func load<Integer: FixedWidthInteger>(_: Integer.Type, at offset: Int) -> Integer {
        buffer.withUnsafeMutablePointerToElements { UnsafeRawPointer($0).load(fromByteOffset: offset, as: Integer.self) }
    }

    /// The currency at `index`.
    func code(at index: Int) -> CurrencyCode { CurrencyCode(ordinal: ordinal(at: index)) }

    /// The ordinal of the currency at `index` (``CurrencyCode/ordinal``).
    func ordinal(at index: Int) -> UInt16 { load(UInt16.self, at: Regions(counts).codes + index * 2) }

    /// The place of the first value whose currency is not before `code` (`count` when none is).
    func partitionPoint(of code: CurrencyCode) -> Int {
        let start = Regions(counts).codes
        let ordinal = code.ordinal
        return (0..<count).partitionPoint { load(UInt16.self, at: start + $0 * 2) < ordinal }
    }

    /// The significand at `index`.
    func significand(at index: Int) -> UInt64 {
        let held = load(UInt32.self, at: Regions(counts).significands + index * 4)
        guard UInt64(held) >= Self.longSignificand else { return UInt64(held) }
        return load(UInt64.self, at: Int(UInt64(held) - Self.longSignificand) * 8)
    }

    /// The decimal exponent at `index`.
    func exponent(at index: Int) -> Int8 { load(Int8.self, at: Regions(counts).exponents + index) }

    /// The source position at `index`: 0 for the ECB of the table's day, else the source's number from one.
    func position(at index: Int) -> Int {
        let regions = Regions(counts)
        switch regions.positionWidth {
        case 0: return 0
        case 1: return Int(load(UInt8.self, at: regions.positions + index))
        default: return Int(load(UInt16.self, at: regions.positions + index * 2))
        }
    }

    /// The source numbered `number` (from one).
    func source(numbered number: Int) -> RateSource {
        let regions = Regions(counts)
        let start = number == 1 ? 0 : Int(load(UInt32.self, at: regions.letterEnds + (number - 2) * 4))
        let end = Int(load(UInt32.self, at: regions.letterEnds + (number - 1) * 4))
        let provider = buffer.withUnsafeMutablePointerToElements { words in
            String(decoding: UnsafeRawBufferPointer(start: UnsafeRawPointer(words) + regions.letters + start, count: end - start), as: UTF8.self)
        }
        return RateSource(provider: provider, day: Day(dayNumber: Int(load(Int32.self, at: regions.sourceDays + (number - 1) * 4))))
    }

    /// Whether both hold the same values and sources.
    func holdsTheSame(as other: DayTableStorage) -> Bool {
        guard buffer !== other.buffer else { return true }
        let counts = self.counts
        let otherCounts = other.counts
        guard counts.values == otherCounts.values, counts.sources == otherCounts.sources,
              counts.longSignificands == otherCounts.longSignificands, counts.letters == otherCounts.letters
        else { return false }
        let length = Regions(counts).end
        return buffer.withUnsafeMutablePointerToElements { mine in
            other.buffer.withUnsafeMutablePointerToElements { theirs in
                UnsafeRawBufferPointer(start: mine, count: length).elementsEqual(UnsafeRawBufferPointer(start: theirs, count: length))
            }
        }
    }

    /// Feeds the values and sources to `hasher`.
    func hash(into hasher: inout Hasher) {
        let length = Regions(counts).end
        buffer.withUnsafeMutablePointerToElements { hasher.combine(bytes: UnsafeRawBufferPointer(start: $0, count: length)) }
    }
}
