/// A day table as bytes, so that a store can keep each merged day beside its rows and a start
/// reads the whole history back without parsing a single rate's text.
///
/// Layout (integers little-endian): a format byte (1); the rate count N and the source count S
/// (two bytes each); N codes of three ASCII letters; N significands (eight bytes); N exponents (one
/// byte, signed); S sources, each its provider's length (two bytes), its ASCII letters and its
/// day number (four bytes, signed); when S > 0, N source positions (two bytes, as
/// ``DayTable/storage``). The significands and exponents are copied whole, not read number by
/// number, so a start reads thousands of tables in milliseconds.
extension DayTable {
    private static let format: UInt8 = 1

    /// The table as bytes; ``init(day:encoded:)`` reads them back to an equal table.
    public var encoded: [UInt8] {
        let sourceCount = storage.sourceCount
        var bytes: [UInt8] = [Self.format]
        bytes.reserveCapacity(5 + count * 14 + sourceCount * 16)
        Self.append(UInt16(count), to: &bytes)
        Self.append(UInt16(sourceCount), to: &bytes)
        for code in codes {
            let letters = code.letters
            bytes += [letters.0, letters.1, letters.2]
        }
        for index in 0..<count { Self.append(storage.significand(at: index), to: &bytes) }
        for index in 0..<count { bytes.append(UInt8(bitPattern: storage.exponent(at: index))) }
        for number in stride(from: 1, through: sourceCount, by: 1) {
            let source = storage.source(numbered: number)
            Self.append(UInt16(source.provider.utf8.count), to: &bytes)
            bytes += source.provider.utf8
            Self.append(Int32(source.day.dayNumber), to: &bytes)
        }
        if sourceCount > 0 {
            for index in 0..<count { Self.append(UInt16(storage.position(at: index)), to: &bytes) }
        }
        return bytes
    }

    /// The table `bytes` encode (``encoded``) for `day`; `nil` when they are not such a table
    /// (another format, a wrong length, codes out of order, a source position past the list, a zero rate).
    public init?(day: Day, encoded bytes: [UInt8]) {
        guard bytes.count >= 5, bytes[0] == Self.format else { return nil }
        let count = Int(bytes[1]) | Int(bytes[2]) << 8
        let sourceCount = Int(bytes[3]) | Int(bytes[4]) << 8
        var offset = 5
        guard bytes.count >= offset + count * 12 else { return nil }
        var codes: [CurrencyCode] = []
        codes.reserveCapacity(count)
        for _ in 0..<count {
            guard let code = CurrencyCode(letters: (bytes[offset], bytes[offset + 1], bytes[offset + 2])), codes.last.map({ $0 < code }) ?? true
            else { return nil }
            codes.append(code)
            offset += 3
        }
        let significands: [UInt64] = Self.array(count, from: bytes, at: &offset)
        let exponents: [Int8] = Self.array(count, from: bytes, at: &offset)
        guard !significands.contains(0) else { return nil }
        var sources: [RateSource] = []
        for _ in 0..<sourceCount {
            guard offset + 2 <= bytes.count else { return nil }
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
            let letters = bytes.dropFirst(offset + 2).prefix(length)
            offset += 2 + length
            guard length > 0, letters.count == length, letters.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), offset + 4 <= bytes.count else { return nil }
            let dayNumber: [Int32] = Self.array(1, from: bytes, at: &offset)
            sources.append(RateSource(provider: String(decoding: letters, as: UTF8.self), day: Day(dayNumber: Int(dayNumber[0]))))
        }
        let indexCount = sourceCount > 0 ? count : 0
        guard bytes.count == offset + indexCount * 2 else { return nil }
        let positions: [UInt16] = Self.array(indexCount, from: bytes, at: &offset)
        guard !positions.contains(where: { $0 > sourceCount }) else { return nil }
        self.init(day: day, codes: codes, significands: significands, exponents: exponents, sources: sources, positions: positions)
    }

    /// Appends `value` little-endian.
    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// `count` little-endian integers copied from `bytes` at `offset`, which moves past them; the
    /// caller has checked that they are there.
    private static func array<Integer: FixedWidthInteger>(_ count: Int, from bytes: [UInt8], at offset: inout Int) -> [Integer] {
        let size = count * MemoryLayout<Integer>.size
        let values = [Integer](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + size]))
            }
            initialized = count
        }
        offset += size
        #if _endian(big)
        return values.map { Integer(littleEndian: $0) }
        #else
        return values
        #endif
    }
}
