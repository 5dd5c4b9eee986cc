import Foundation
import GRDB
import RatesCore

/// The local SQLite cache: the one type that touches the database.
///
/// Every sync page is applied in one transaction together with its cursor, so a crash or a
/// dropped connection leaves the cache consistent and the next sync resumes. Reads of the
/// latest (and recently used) publications are served from memory, invalidated by this
/// cache's own writes at once and by other processes' writes within
/// ``externalChangeCheckInterval``.
final class RatesCache: Sendable {
    /// One day's rates, ready for cross-rate math, with where each came from.
    struct Publication: Sendable {
        var day: Day
        /// The rates, their table holding each one's source (``RatesCore/DayTable/source(at:)``).
        var rates: CrossRates
        /// Whether the sources are known: `false` for rates cached before sources were (``SyncState/sourcesKnown``).
        var sourcesKnown = true

        /// The sources of the values per provider base that the rates among `codes` are computed
        /// from: one per code with a rate, the provider base (the pivot) excepted; empty when unknown.
        func sources(of codes: some Sequence<CurrencyCode>) -> [CurrencyCode: RateSource] {
            guard sourcesKnown else { return [:] }
            var sources: [CurrencyCode: RateSource] = [:]
            for code in codes where code != rates.providerBase {
                if let index = rates.table.index(of: code) { sources[code] = rates.table.source(at: index) }
            }
            return sources
        }
    }

    /// What one applied page did.
    struct PageApplication: Sendable, Equatable {
        var upserted = 0
        var deleted = 0
        /// The page began a snapshot (no cursor sent, or `reset`).
        var startedSnapshot = false
        /// The page completed a snapshot: its data replaced the visible rates.
        var completedSnapshot = false
        /// The visible rates changed.
        var dataChanged = false
    }

    let pool: DatabasePool
    let path: String
    /// How often memory-cached reads check for another process's writes.
    let externalChangeCheckInterval: Duration
    private let memory = Locked(Memory())

    /// Opens (creating if needed) the cache at `url` and migrates it.
    init(url: URL, externalChangeCheckInterval: Duration = .seconds(1)) throws(RatesClientError) {
        path = url.path
        self.externalChangeCheckInterval = externalChangeCheckInterval
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            var configuration = GRDB.Configuration()
            configuration.busyMode = .timeout(5)
            configuration.label = "RatesClient.cache"
            pool = try DatabasePool(path: url.path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch {
            throw .cacheUnavailable(path: url.path, reason: Self.describe(error))
        }
    }

    // MARK: - Sync state

    /// The `syncState` row.
    func state() throws(RatesClientError) -> SyncState {
        try read { db in try SyncState.fetchOne(db) ?? SyncState() }
    }

    /// Records a sync that found nothing new (304): the last page, and what the server said in it, still stand.
    func recordUpToDate(at date: Date) throws(RatesClientError) {
        try write { db in
            try db.execute(sql: "UPDATE syncState SET lastSuccessfulSync = ? WHERE id = 1", arguments: [date])
        }
    }

    // MARK: - Applying pages

    /// Applies one sync page and its cursor in one transaction.
    ///
    /// - Parameters:
    ///   - page: the decoded page.
    ///   - sentCursor: whether the request carried a cursor; without one the page starts a snapshot.
    ///   - window: the `from` the request was made for, stored with a new snapshot's cursor.
    ///   - etag: the response's `ETag`, kept only with a tail page (`more: false`).
    ///   - now: the time recorded as the last successful sync when the page is a tail page.
    @discardableResult
    func apply(_ page: SyncPage, sentCursor: Bool, window: Day?, etag: String?, now: Date) throws(RatesClientError) -> PageApplication {
        let application = try write { db -> PageApplication in
            var state = try SyncState.fetchOne(db) ?? SyncState()
            var result = PageApplication()
            result.startedSnapshot = !sentCursor || page.reset
            if result.startedSnapshot || state.snapshotInProgress {
                if result.startedSnapshot {
                    try db.execute(sql: "DELETE FROM stagedRate")
                    state.window = window?.description
                }
                result.upserted = try Self.insert(page, into: "stagedRate", db)
                if !page.more {
                    // The staged table becomes the visible one, and an empty one takes its place: no row is copied.
                    try db.execute(sql: "DROP TABLE rate; ALTER TABLE stagedRate RENAME TO rate; " + Self.createStagedRate)
                    state.base = page.base.rawValue
                    state.sourcesKnown = true
                    state.bundled = false
                    result.completedSnapshot = true
                    result.dataChanged = true
                }
                state.snapshotInProgress = page.more
            } else {
                result.upserted = try Self.insert(page, into: "rate", db)
                let delete = try db.cachedStatement(sql: "DELETE FROM rate WHERE day = ? AND currency = ?")
                for (day, codes) in page.deletes {
                    let dayText = day.description
                    for code in codes {
                        try delete.execute(arguments: [dayText, code.rawValue])
                        result.deleted += db.changesCount
                    }
                }
                state.base = page.base.rawValue
                result.dataChanged = result.upserted > 0 || result.deleted > 0
            }
            state.cursor = page.cursor
            state.epoch = page.epoch
            state.latestDate = page.latestDate?.description
            state.expectedLatestDate = page.expectedLatestDate?.description
            state.serverStale = page.stale
            if let next = page.nextUpdateAfter { state.nextUpdateAfter = next }
            state.etag = page.more ? nil : etag
            if !page.more { state.lastSuccessfulSync = now }
            if result.dataChanged { state.generation += 1 }
            try state.update(db)
            return result
        }
        if application.dataChanged { invalidateMemory() }
        return application
    }

    /// Puts the bundled snapshot `bundled` (a sync page's JSON) into a cache that never synced and
    /// holds nothing; `false` (nothing read or written) for any other cache, which is every launch but
    /// the first: the page is decoded only when it goes in. No cursor is kept: the first sync asks for
    /// a snapshot, which replaces it.
    @discardableResult
    func installBundled(_ bundled: Data) throws(RatesClientError) -> Bool {
        guard try state().takesBundledSnapshot else { return false }
        let page = try SyncPage(json: bundled)
        let installed = try write { db -> Bool in
            var state = try SyncState.fetchOne(db) ?? SyncState()
            guard state.takesBundledSnapshot, try Int.fetchOne(db, sql: "SELECT count(*) FROM rate") == 0 else { return false }
            _ = try Self.insert(page, into: "rate", db)
            state.base = page.base.rawValue
            state.latestDate = page.latestDate?.description
            state.bundled = true
            state.generation += 1
            try state.update(db)
            return true
        }
        if installed { invalidateMemory() }
        return installed
    }

    /// Inserts or replaces the upserts of `page` into `table`, each with its source; returns how many.
    ///
    /// Rows go in in key order (day, currency), so each lands after the one before in the table's
    /// B-tree: in hash order, every insert would touch another page of it.
    private static func insert(_ page: SyncPage, into table: String, _ db: Database) throws -> Int {
        let statement = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO \(table) (day, currency, value, provider, providerDay) VALUES (?, ?, ?, ?, ?)")
        var count = 0
        // A page's sources name few days, each for many values: each day is written out once.
        var dayTexts: [Day: String] = [:]
        func text(_ day: Day) -> String {
            if let text = dayTexts[day] { return text }
            let text = day.description
            dayTexts[day] = text
            return text
        }
        for (day, rates) in page.upserts.sorted(by: { $0.key < $1.key }) {
            let dayText = text(day)
            let sources = page.sources[day] ?? [:]
            for (code, value) in rates.sorted(by: { $0.key < $1.key }) {
                let source = sources[code]
                try statement.execute(arguments: [dayText, code.rawValue, value, source?.provider, source.map { text($0.day) }])
                count += 1
            }
        }
        return count
    }

    // MARK: - Queries

    /// The provider base of the visible rates.
    func base() throws(RatesClientError) -> CurrencyCode {
        try cached(\.base) { db in try Self.base(db) }
    }

    /// The newest publication, or `nil` when the cache is empty.
    func latestPublication() throws(RatesClientError) -> Publication? {
        try cached(\.latest) { db in try Self.latestPublication(db) }
    }

    /// The newest publication on or before `day`, or `nil` when there is none.
    func publication(onOrBefore day: Day) throws(RatesClientError) -> Publication? {
        if let latest = try latestPublication(), latest.day <= day { return latest }
        return try cached(get: { $0.resolved[day] }, set: { memory, publication in
            if memory.resolved.count >= Memory.maxDays { memory.resolved.removeAll(keepingCapacity: true) }
            memory.resolved[day] = .some(publication)
        }) { db in
            guard let text = try String.fetchOne(db.cachedStatement(sql: "SELECT MAX(day) FROM rate WHERE day <= ?"), arguments: [day.description]),
                  let found = Day(text)
            else { return nil }
            return try Self.publication(on: found, db)
        }
    }

    /// The first and newest days in the cache.
    func dayRange() throws(RatesClientError) -> ClosedRange<Day>? {
        try cached(\.dayRange) { db in
            let row = try Row.fetchOne(db, sql: "SELECT MIN(day), MAX(day) FROM rate")
            guard let first = (row?[0] as String?).flatMap(Day.init), let last = (row?[1] as String?).flatMap(Day.init) else { return nil }
            return first...last
        }
    }

    /// The rate `from → to` of the newest publication (`day == nil`) or of the nearest one on or
    /// before `day`, memoized: reading a day's rates from SQLite costs tens of microseconds, a
    /// memoized rate well under 1 µs. `nil` when there is no publication; `rate` is `nil` when a currency
    /// has none that day.
    func rate(on day: Day?, from: CurrencyCode, to: CurrencyCode) throws(RatesClientError) -> (publication: Publication, rate: RateValue?)? {
        try revalidateMemoryIfDue()
        let key = RateKey(requested: day, from: from, to: to)
        let (hit, token) = memory.withLock { ($0.rates[key], $0.token) }
        if let hit { return hit }
        let found = if let day { try publication(onOrBefore: day) } else { try latestPublication() }
        guard let publication = found else { return nil }
        let answer = (publication, publication.rates.rate(from: from, to: to))
        memory.withLock { memory in
            guard memory.token == token, answer.1 != nil else { return }
            if memory.rates.count >= Memory.maxRates { memory.rates.removeAll(keepingCapacity: true) }
            memory.rates[key] = answer
        }
        return answer
    }

    /// Every currency with at least one rate, the provider base excluded: those stored, and the pegged
    /// ones a day derives (``RatesCore/DayTable/derivingPegs(_:base:)``: a day with a source besides the
    /// ECB, and the peg's anchor).
    func currencies() throws(RatesClientError) -> Set<CurrencyCode> {
        try cached(\.currencies) { db in
            var stored = Set(try String.fetchAll(db, sql: "SELECT DISTINCT currency FROM rate").compactMap(CurrencyCode.init))
            let derives = try Self.base(db) == .euro
                && (try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM rate WHERE provider IS NOT NULL AND provider NOT IN (?, ?))",
                    arguments: [ProviderKey.ecb, FixedParity.pegProvider]) ?? false)
            if derives { stored.formUnion(FixedParity.pegs.filter { $0.anchor == .euro || stored.contains($0.anchor) }.map(\.currency)) }
            return stored
        }
    }

    /// Every publication from `start` through `end`, in day order.
    func publications(from start: Day, through end: Day) throws(RatesClientError) -> [Publication] {
        try read { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT day, currency, value, provider, providerDay FROM rate WHERE day BETWEEN ? AND ? ORDER BY day",
                arguments: [start.description, end.description])
            return try Self.publications(rows, base: Self.base(db))
        }
    }

    // MARK: - Shared SQL (also used inside observations)
    //
    // The reads behind a first conversion on a day use cached statements: compiling a statement
    // costs more than running it on a day's rows.

    static func base(_ db: Database) throws -> CurrencyCode {
        try String.fetchOne(db.cachedStatement(sql: "SELECT base FROM syncState WHERE id = 1")).flatMap(CurrencyCode.init) ?? .euro
    }

    static func latestPublication(_ db: Database) throws -> Publication? {
        guard let text = try String.fetchOne(db, sql: "SELECT MAX(day) FROM rate"), let day = Day(text) else { return nil }
        return try publication(on: day, db)
    }

    static func publication(on day: Day, _ db: Database) throws -> Publication? {
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT day, currency, value, provider, providerDay FROM rate WHERE day = ?"), arguments: [day.description])
        let sourcesKnown = try Bool.fetchOne(db.cachedStatement(sql: "SELECT sourcesKnown FROM syncState WHERE id = 1")) ?? true
        return try publications(rows, base: base(db), sourcesKnown: sourcesKnown).first
    }

    /// The publications of `rows` (day, currency, value, provider, providerDay), grouped by day in
    /// the order the days come, their pegs derived; a row whose day is not a valid day is left out.
    static func publications(_ rows: RowCursor, base: CurrencyCode, sourcesKnown: Bool = true) throws -> [Publication] {
        var result: [Publication] = []
        var dayText: String?
        var day: Day?
        var rates: [CurrencyCode: String] = [:]
        var sources: [CurrencyCode: RateSource] = [:]
        func flush() {
            guard let day else { return }
            let table = DayTable(day: day, rates: rates, sources: sources).derivingPegs(base: base)
            result.append(Publication(day: day, rates: CrossRates(providerBase: base, table: table), sourcesKnown: sourcesKnown))
        }
        while let row = try rows.next() {
            let rowDay: String = row[0]
            if rowDay != dayText {
                flush()
                (dayText, day) = (rowDay, Day(rowDay))
                rates = [:]
                sources = [:]
            }
            guard let day, let code = CurrencyCode(row[1] as String) else { continue }
            rates[code] = row[2]
            // NULL: the ECB's figure of that very day, the table's default.
            if let provider = row[3] as String? { sources[code] = RateSource(provider: provider, day: (row[4] as String?).flatMap(Day.init) ?? day) }
        }
        flush()
        return result
    }

    // MARK: - Memory

    /// A memoized rate: the day asked for (`nil`: the newest) and the pair.
    struct RateKey: Hashable, Sendable {
        var requested: Day?
        var from: CurrencyCode
        var to: CurrencyCode
    }

    /// Values cached in memory, valid for one stored `generation`.
    struct Memory: Sendable {
        static let maxDays = 256
        static let maxRates = 4_096
        /// Bumped by this process's writes; a load started under another token is not kept.
        var token = 0
        /// The stored generation the values belong to; `nil`: unknown, check before use.
        var generation: Int64?
        var checkedAt = ContinuousClock.now
        var base: CurrencyCode?
        var latest: Publication??
        var dayRange: ClosedRange<Day>??
        var currencies: Set<CurrencyCode>?
        /// Requested day → nearest earlier publication (`.some(nil)`: none).
        var resolved: [Day: Publication?] = [:]
        /// Rates already computed.
        var rates: [RateKey: (publication: Publication, rate: RateValue?)] = [:]

        mutating func clear(token newToken: Int) {
            self = Memory()
            token = newToken
        }
    }

    /// Drops every value cached in memory (after a write of this process).
    func invalidateMemory() {
        memory.withLock { $0.clear(token: $0.token + 1) }
    }

    /// A memory-cached value, loaded by `load` on a miss.
    private func cached<Value: Sendable>(
        _ keyPath: any WritableKeyPath<Memory, Value?> & Sendable, load: @escaping @Sendable (Database) throws -> Value
    ) throws(RatesClientError) -> Value {
        try cached(get: { $0[keyPath: keyPath] }, set: { $0[keyPath: keyPath] = $1 }, load: load)
    }

    private func cached<Value: Sendable>(
        get: (Memory) -> Value?, set: (inout Memory, Value) -> Void, load: @escaping @Sendable (Database) throws -> Value
    ) throws(RatesClientError) -> Value {
        try revalidateMemoryIfDue()
        let (hit, token) = memory.withLock { (get($0), $0.token) }
        if let hit { return hit }
        let (value, generation) = try read { db in (try load(db), try Self.generation(db)) }
        memory.withLock { memory in
            guard memory.token == token else { return }
            if memory.generation == nil {
                memory.generation = generation
                memory.checkedAt = .now
            }
            if memory.generation == generation { set(&memory, value) }
        }
        return value
    }

    /// Checks, at most once per `externalChangeCheckInterval`, whether another process changed the data.
    private func revalidateMemoryIfDue() throws(RatesClientError) {
        let (due, token) = memory.withLock { memory in
            (memory.generation != nil && memory.checkedAt.duration(to: .now) > externalChangeCheckInterval, memory.token)
        }
        guard due else { return }
        let generation = try read { db in try Self.generation(db) }
        memory.withLock { memory in
            guard memory.token == token else { return }
            if memory.generation != generation { memory.clear(token: memory.token + 1) }
            memory.generation = generation
            memory.checkedAt = .now
        }
    }

    private static func generation(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT generation FROM syncState WHERE id = 1")) ?? 0
    }

    // MARK: - Database access

    func read<T>(_ body: (Database) throws -> T) throws(RatesClientError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw .cacheUnavailable(path: path, reason: Self.describe(error))
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws(RatesClientError) -> T {
        do {
            return try pool.write(body)
        } catch {
            throw .cacheUnavailable(path: path, reason: Self.describe(error))
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? error.description }
        return String(describing: error)
    }
}
