import Foundation

/// The offsets from UTC of an IANA time zone (`Europe/Berlin`), read from the system's time zone
/// database: the zone's TZif file (RFC 8536) under `TZDIR` or `/usr/share/zoneinfo`, its transitions,
/// and after the last of them the POSIX TZ rule of the file's footer (`CET-1CEST,M3.5.0,M10.5.0/3`).
///
/// Foundation's `TimeZone` answers the same from ICU's copy of the database, whose zone code and
/// data it maps into the process the first time a named zone is looked up; a ``PublicationSchedule``
/// needs only the offsets. A zone the system has no readable file of is Foundation's `TimeZone`,
/// and a name neither knows is UTC.
public final class ZoneOffsets: Hashable, Sendable {
    /// The zone's name, as asked for.
    public let identifier: String
    private let source: Source

    private enum Source {
        /// Offsets read from a TZif file: from each transition instant (seconds since 1970, ascending) on,
        /// the offset at the same index; `initial` before the first; `rule` (when the file has one) after the last.
        case file(transitions: [Int64], offsets: [Int], initial: Int, rule: PosixRule?)
        case foundation(TimeZone)
    }

    /// The zone `identifier` names, read once per process.
    public static func named(_ identifier: String) -> ZoneOffsets {
        if let known = loaded.withLock({ $0[identifier] }) { return known }
        let zone = ZoneOffsets(identifier: identifier)
        return loaded.withLock { zones in
            if let known = zones[identifier] { return known }
            zones[identifier] = zone
            return zone
        }
    }

    private static let loaded = Locked<[String: ZoneOffsets]>([:])

    private init(identifier: String) {
        self.identifier = identifier
        let directory = ProcessInfo.processInfo.environment["TZDIR"] ?? "/usr/share/zoneinfo"
        // A name is a relative path of the database; one that climbs out of it is no zone's.
        if !identifier.isEmpty, !identifier.hasPrefix("/"), !identifier.split(separator: "/").contains(".."),
            let bytes = FileManager.default.contents(atPath: directory + "/" + identifier), let read = Self.read([UInt8](bytes))
        {
            source = read
        } else {
            source = .foundation(TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)!)
        }
    }

    /// Two zones are one when they have one name: ``named(_:)`` reads a name once.
    public static func == (lhs: ZoneOffsets, rhs: ZoneOffsets) -> Bool { lhs.identifier == rhs.identifier }

    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    /// The offset from UTC, in seconds, in force at `date`.
    public func secondsFromGMT(for date: Date) -> Int {
        switch source {
        case .foundation(let zone):
            return zone.secondsFromGMT(for: date)
        case .file(let transitions, let offsets, let initial, let rule):
            // An instant beyond ±10^15 seconds (some 30 million years; infinity) is read as that bound.
            let seconds = date.timeIntervalSince1970.rounded(.down)
            let instant = seconds.isNaN ? 0 : Int64(max(min(seconds, 1e15), -1e15))
            guard let first = transitions.first, instant >= first else { return initial }
            if instant >= transitions.last!, let rule { return rule.offset(at: instant) }
            return offsets[transitions.partitionPoint { $0 <= instant } - 1]
        }
    }

    // MARK: - TZif

    /// The offsets of a TZif file: its version 2+ data (64-bit times) where it has it, else version 1's.
    private static func read(_ bytes: [UInt8]) -> Source? {
        var reader = TZifReader(bytes: bytes)
        guard var block = reader.block(timeSize: 4) else { return nil }
        var rule: PosixRule?
        if bytes[4] >= UInt8(ascii: "2") {
            guard let wide = reader.block(timeSize: 8) else { return nil }
            block = wide
            // The footer: a newline, a POSIX TZ string (empty when the file says nothing of later times), a newline.
            if reader.offset < bytes.count, bytes[reader.offset] == UInt8(ascii: "\n"),
                let end = bytes[(reader.offset + 1)...].firstIndex(of: UInt8(ascii: "\n"))
            {
                rule = PosixRule(String(decoding: bytes[(reader.offset + 1)..<end], as: UTF8.self))
            }
        }
        let (times, indices, types) = block
        // RFC 8536 §3.2: the transitions ascend, each names one of the types.
        guard !types.isEmpty, indices.allSatisfy({ Int($0) < types.count }), zip(times, times.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        // Before the first transition: the first type that is not daylight saving time (RFC 8536 §3.2), else the first.
        let initial = (types.first { !$0.isDST } ?? types[0]).offset
        return .file(transitions: times, offsets: indices.map { types[Int($0)].offset }, initial: initial, rule: rule)
    }

    /// Reads a TZif file's header and data blocks in turn.
    private struct TZifReader {
        let bytes: [UInt8]
        var offset = 0

        /// The next header and data block: its transition times, each transition's type, and the types.
        mutating func block(timeSize: Int) -> (times: [Int64], indices: [UInt8], types: [(offset: Int, isDST: Bool)])? {
            guard offset + 44 <= bytes.count, bytes[offset..<offset + 4].elementsEqual("TZif".utf8) else { return nil }
            let counts = (0..<6).map { Int(integer(at: offset + 20 + 4 * $0, size: 4)) }
            let (isUTCCount, isStdCount, leapCount) = (counts[0], counts[1], counts[2])
            let (timeCount, typeCount, charCount) = (counts[3], counts[4], counts[5])
            let start = offset + 44
            let length = timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4) + isStdCount + isUTCCount
            guard counts.allSatisfy({ $0 >= 0 }), start + length <= bytes.count else { return nil }
            let times = (0..<timeCount).map { integer(at: start + $0 * timeSize, size: timeSize) }
            let indicesStart = start + timeCount * timeSize
            let indices = Array(bytes[indicesStart..<indicesStart + timeCount])
            let typesStart = indicesStart + timeCount
            let types = (0..<typeCount).map { index in
                (offset: Int(integer(at: typesStart + 6 * index, size: 4)), isDST: bytes[typesStart + 6 * index + 4] != 0)
            }
            offset = start + length
            return (times, indices, types)
        }

        /// The signed big-endian integer of `size` bytes (4 or 8) at `position`.
        private func integer(at position: Int, size: Int) -> Int64 {
            let unsigned = bytes[position..<position + size].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return size == 4 ? Int64(Int32(truncatingIfNeeded: unsigned)) : Int64(bitPattern: unsigned)
        }
    }
}

/// A POSIX TZ rule as TZif footers write it (`CET-1CEST,M3.5.0,M10.5.0/3`, `<+0545>-5:45`,
/// `AEST-10AEDT,M10.1.0,M4.1.0/3`): a standard offset, and optionally a daylight saving offset with
/// the local times it starts and ends each year. Offsets are written west-positive, as POSIX has them.
struct PosixRule: Sendable {
    /// Offsets from UTC (east-positive, seconds).
    var standard: Int
    var daylight: (offset: Int, start: Change, end: Change)?

    /// When in a year daylight saving time starts or ends: a day of the year and a local time.
    enum Change: Sendable {
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1–4, 5 = the last) of month `m`.
        case weekday(month: Int, week: Int, weekday: Int, seconds: Int)
        /// `Jn`: day `n` of the year (1–365), 29 February never counted.
        case julian(day: Int, seconds: Int)
        /// `n`: day `n` of the year counting from 0, 29 February counted.
        case ordinal(day: Int, seconds: Int)

        /// The change's local day in `year`, and the local time of day (seconds, which may pass a day's length or be negative).
        func moment(in year: Int) -> (day: Day, seconds: Int) {
            switch self {
            case let .weekday(month, week, weekday, seconds):
                let first = Day(year: year, month: month, day: 1)!
                var day = first.adding(days: (weekday - first.isoWeekday % 7 + 7) % 7 + 7 * (week - 1))
                while day.parts.month != month { day = day.adding(days: -7) }
                return (day, seconds)
            case let .julian(number, seconds):
                let isLeap = Day(year: year, month: 2, day: 29) != nil
                return (Day(year: year, month: 1, day: 1)!.adding(days: number - 1 + (isLeap && number >= 60 ? 1 : 0)), seconds)
            case let .ordinal(number, seconds):
                return (Day(year: year, month: 1, day: 1)!.adding(days: number), seconds)
            }
        }
    }

    /// The rule `text` writes, or `nil` when it is empty or not a rule.
    init?(_ text: String) {
        var scanner = Scanner(text)
        guard scanner.name(), let standard = scanner.offset() else { return nil }
        self.standard = -standard
        guard !scanner.atEnd else { return }
        guard scanner.name() else { return nil }
        let daylightOffset = scanner.peek == UInt8(ascii: ",") ? standard - 3600 : scanner.offset()
        guard let daylightOffset, scanner.skip(","), let start = scanner.change(), scanner.skip(","), let end = scanner.change(), scanner.atEnd
        else { return nil }
        daylight = (-daylightOffset, start, end)
    }

    /// The offset in force at `instant` (seconds since 1970).
    func offset(at instant: Int64) -> Int {
        guard let daylight else { return standard }
        // The rule of a year the calendar has (1 to 9999): the rule repeats, and a day outside them has no date.
        let year = min(max(Day(containing: Date(timeIntervalSince1970: TimeInterval(instant)), utcOffset: standard).parts.year, 1), 9999)
        func utc(_ change: Change, localOffset: Int) -> Int64 {
            let (day, seconds) = change.moment(in: year)
            return Int64(day.dayNumber) * 86_400 + Int64(seconds - localOffset)
        }
        let start = utc(daylight.start, localOffset: standard)
        let end = utc(daylight.end, localOffset: daylight.offset)
        // A southern-hemisphere rule starts late in the year and ends early in the next.
        let inDaylight = start < end ? (instant >= start && instant < end) : (instant < end || instant >= start)
        return inDaylight ? daylight.offset : standard
    }

    /// Reads a POSIX TZ string's parts.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ text: String) { bytes = Array(text.utf8) }

        var atEnd: Bool { position == bytes.count }
        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skip(_ character: Character) -> Bool {
            guard peek == character.asciiValue else { return false }
            position += 1
            return true
        }

        /// A zone abbreviation: three or more letters, or `<…>` quoted (`<+0545>`).
        mutating func name() -> Bool {
            if skip("<") {
                guard let close = bytes[position...].firstIndex(of: UInt8(ascii: ">")) else { return false }
                position = close + 1
                return true
            }
            let start = position
            while let byte = peek, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) {
                position += 1
            }
            return position - start >= 3
        }

        /// `[+-]hh[:mm[:ss]]` in seconds.
        mutating func offset() -> Int? {
            let negative = skip("-")
            if !negative { _ = skip("+") }
            return time().map { negative ? -$0 : $0 }
        }

        /// `hh[:mm[:ss]]` in seconds.
        mutating func time() -> Int? {
            var parts: [Int] = []
            repeat {
                guard let number = number() else { return nil }
                parts.append(number)
            } while parts.count < 3 && skip(":")
            return parts.enumerated().reduce(0) { $0 + $1.element * [3600, 60, 1][$1.offset] }
        }

        mutating func number() -> Int? {
            let start = position
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
            return position > start ? Int(String(decoding: bytes[start..<position], as: UTF8.self)) : nil
        }

        /// `Mm.w.d`, `Jn` or `n`, with an optional `/time` (02:00 when absent; signed in version 3 files).
        mutating func change() -> PosixRule.Change? {
            func at() -> Int? { skip("/") ? offset() : 7200 }
            if skip("M") {
                guard let month = number(), skip("."), let week = number(), skip("."), let weekday = number(),
                    (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday), let seconds = at()
                else { return nil }
                return .weekday(month: month, week: week, weekday: weekday, seconds: seconds)
            }
            if skip("J") {
                guard let day = number(), (1...365).contains(day), let seconds = at() else { return nil }
                return .julian(day: day, seconds: seconds)
            }
            guard let day = number(), (0...365).contains(day), let seconds = at() else { return nil }
            return .ordinal(day: day, seconds: seconds)
        }
    }
}
