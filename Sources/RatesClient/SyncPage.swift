import Foundation
import RatesCore

/// One page of `GET /v1/sync`, decoded and checked: days, codes, rate texts and sources are valid.
///
/// Rates stay the server's decimal text (never parsed into binary floating point) until
/// `CrossRates` computes with them.
struct SyncPage: Sendable, Equatable {
    var epoch: String
    var cursor: String
    var more = false
    var reset = false
    var base: CurrencyCode = .euro
    var latestDate: Day?
    /// The newest publication the server's calendar says should be out (`nil`: the server does not say).
    var expectedLatestDate: Day?
    /// The server's verdict on its own data: a publication is missing, or the data was never
    /// confirmed by the upstream (`nil`: the server does not say).
    var stale: Bool?
    var nextUpdateAfter: Date?
    var upserts: [Day: [CurrencyCode: String]] = [:]
    /// Where each upserted value came from, when not from the ECB on that very day: day → currency → source.
    var sources: [Day: [CurrencyCode: RateSource]] = [:]
    var deletes: [Day: [CurrencyCode]] = [:]
}

// MARK: - Decoding

extension SyncPage {
    /// The JSON exactly as the server writes it; servers before `expectedLatestDate` and `stale`
    /// leave them out, and servers before sources (or a page of the ECB's own figures only) leave
    /// out `sources` and `upsertSources`.
    ///
    /// Read with ``JSONValue`` and a type check per field.
    private struct Wire {
        var epoch: String
        var cursor: String
        var more: Bool
        var reset: Bool
        var base: String
        var latestDate: String?
        var expectedLatestDate: String?
        var stale: Bool?
        var nextUpdateAfter: String?
        var upserts: [String: [String: String]]?
        /// The page's sources: `[provider, day]` pairs.
        var sources: [[String]]?
        /// Per day, one index per upserted currency in code order: 0 for the ECB's of that day, n for `sources[n - 1]`.
        var upsertSources: [String: [Int]]?
        var deletes: [String: [String]]?

        /// Reads a page body; a member that is `null` counts as left out.
        init(json data: Data) throws(RatesClientError) {
            guard let document = try? JSONValue(parsing: Array(data)), case .object = document else { throw .invalidResponse("sync page: not JSON") }
            func wrongType(_ path: String) -> RatesClientError { .invalidResponse("sync page: wrong type at '\(path)'") }
            /// The member `key` read by `read`, which gives `nil` for the wrong type; `nil` when it is left out or `null`.
            func member<T>(_ key: String, _ read: (JSONValue) -> T?) throws(RatesClientError) -> T? {
                guard let value = document[key], !value.isNull else { return nil }
                guard let read = read(value) else { throw wrongType(key) }
                return read
            }
            func required<T>(_ key: String, _ read: (JSONValue) -> T?) throws(RatesClientError) -> T {
                guard let value = try member(key, read) else { throw .invalidResponse("sync page: missing '\(key)'") }
                return value
            }
            func string(_ value: JSONValue) -> String? { value.stringValue }
            func bool(_ value: JSONValue) -> Bool? { if case .bool(let flag) = value { flag } else { nil } }
            func int(_ value: JSONValue) -> Int? { value.numberText.flatMap { Int($0) } }
            func array<Element>(_ readElement: @escaping (JSONValue) -> Element?) -> (JSONValue) -> [Element]? {
                { value in
                    guard let elements = value.elements else { return nil }
                    let read = elements.compactMap(readElement)
                    return read.count == elements.count ? read : nil
                }
            }
            /// An object whose every member `member` reads; `nil` names the member of the wrong type.
            func members<Member>(_ key: String, _ read: (JSONValue) -> Member?) throws(RatesClientError) -> [String: Member]? {
                guard let value = document[key], !value.isNull else { return nil }
                guard case .object(let members) = value else { throw wrongType(key) }
                var typed: [String: Member] = [:]
                typed.reserveCapacity(members.count)
                for member in members {
                    guard let read = read(member.value) else { throw wrongType(key + "." + member.key) }
                    typed[member.key] = read
                }
                return typed
            }
            epoch = try required("epoch", string)
            cursor = try required("cursor", string)
            more = try required("more", bool)
            reset = try required("reset", bool)
            base = try required("base", string)
            latestDate = try member("latestDate", string)
            expectedLatestDate = try member("expectedLatestDate", string)
            stale = try member("stale", bool)
            nextUpdateAfter = try member("nextUpdateAfter", string)
            sources = try member("sources", array(array(string)))
            upsertSources = try members("upsertSources", array(int))
            deletes = try members("deletes", array(string))
            upserts = try members("upserts") { day in
                guard case .object(let rates) = day else { return nil }
                var texts: [String: String] = [:]
                texts.reserveCapacity(rates.count)
                for rate in rates {
                    guard let text = rate.value.stringValue else { return nil }
                    texts[rate.key] = text
                }
                return texts
            }
        }
    }

    /// Decodes and validates a page body.
    init(json data: Data) throws(RatesClientError) {
        let wire = try Wire(json: data)
        guard let base = CurrencyCode(wire.base) else { throw .invalidResponse("sync page: base '\(wire.base)' is not a currency code") }
        guard !wire.cursor.isEmpty else { throw .invalidResponse("sync page: empty cursor") }
        /// The member `field`'s `text` read by `read`; `nil` when the server left it out.
        func optional<T>(_ field: String, _ text: String?, isNot what: String, _ read: (String) -> T?) throws(RatesClientError) -> T? {
            guard let text else { return nil }
            guard let value = read(text) else { throw .invalidResponse("sync page: \(field) '\(text)' is not \(what)") }
            return value
        }
        let latest = try optional("latestDate", wire.latestDate, isNot: "a day") { Day($0) }
        let expected = try optional("expectedLatestDate", wire.expectedLatestDate, isNot: "a day") { Day($0) }
        let next = try optional("nextUpdateAfter", wire.nextUpdateAfter, isNot: "an ISO 8601 instant", Self.instant)
        var upserts: [Day: [CurrencyCode: String]] = [:]
        for (dayText, values) in wire.upserts ?? [:] {
            guard let day = Day(dayText) else { throw .invalidResponse("sync page: '\(dayText)' is not a day") }
            var rates: [CurrencyCode: String] = [:]
            rates.reserveCapacity(values.count)
            for (codeText, value) in values {
                guard let code = CurrencyCode(codeText) else { throw .invalidResponse("sync page: '\(codeText)' is not a currency code") }
                guard RateText.isValid(value) else { throw .invalidResponse("sync page: \(codeText) on \(dayText) is '\(value)', not a positive decimal") }
                rates[code] = value
            }
            upserts[day] = rates
        }
        let sources = try Self.sources(table: wire.sources ?? [], indexes: wire.upsertSources ?? [:], upserts: upserts)
        var deletes: [Day: [CurrencyCode]] = [:]
        for (dayText, codes) in wire.deletes ?? [:] {
            guard let day = Day(dayText) else { throw .invalidResponse("sync page: '\(dayText)' is not a day") }
            deletes[day] = try codes.map { text throws(RatesClientError) in
                guard let code = CurrencyCode(text) else { throw .invalidResponse("sync page: '\(text)' is not a currency code") }
                return code
            }
        }
        self.init(
            epoch: wire.epoch, cursor: wire.cursor, more: wire.more, reset: wire.reset, base: base, latestDate: latest,
            expectedLatestDate: expected, stale: wire.stale, nextUpdateAfter: next, upserts: upserts, sources: sources, deletes: deletes)
    }

    /// The sources of the upserted values from the page's table and per-day indexes; a value
    /// without one (index 0, or a day without indexes) is the ECB's figure of its day.
    private static func sources(
        table rows: [[String]], indexes: [String: [Int]], upserts: [Day: [CurrencyCode: String]]
    ) throws(RatesClientError) -> [Day: [CurrencyCode: RateSource]] {
        let table = try rows.map { row throws(RatesClientError) -> RateSource in
            guard row.count == 2, let provider = row.first, ProviderKey.isWellFormed(provider), let day = Day(row[1]) else {
                throw .invalidResponse("sync page: source \(row) is not a provider key and a day")
            }
            return RateSource(provider: provider, day: day)
        }
        var sources: [Day: [CurrencyCode: RateSource]] = [:]
        for (dayText, dayIndexes) in indexes {
            guard let day = Day(dayText), let rates = upserts[day] else {
                throw .invalidResponse("sync page: upsertSources names '\(dayText)', not a day of upserts")
            }
            guard dayIndexes.count == rates.count else {
                throw .invalidResponse("sync page: upsertSources of \(dayText) has \(dayIndexes.count) entries for \(rates.count) currencies")
            }
            let ecb = RateSource(provider: ProviderKey.ecb, day: day)
            var daySources: [CurrencyCode: RateSource] = [:]
            for (code, index) in zip(rates.keys.sorted(), dayIndexes) where index != 0 {
                guard table.indices.contains(index - 1) else {
                    throw .invalidResponse("sync page: upsertSources of \(dayText) refers to source \(index) of \(table.count)")
                }
                if table[index - 1] != ecb { daySources[code] = table[index - 1] }
            }
            if !daySources.isEmpty { sources[day] = daySources }
        }
        return sources
    }

    /// `2026-11-02T15:00:00Z`, with or without fractional seconds.
    static func instant(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
