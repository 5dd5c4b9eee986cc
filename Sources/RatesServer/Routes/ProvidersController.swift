import Foundation
import Hummingbird
import NIOCore
import RatesCore
import RatesIngest
import RatesStore
import RatesUpstream

/// `GET /v1/providers` and `/v1/providers/{key}`: each source's identity, pivot, currencies,
/// schedule and health, and the values the consensus check left out of it.
///
/// Health changes with every fetch, not only with the dataset, so answers are `no-cache` with an
/// entity tag of their bytes (like `/v1/status`): a client revalidates and gets 304 while nothing changed.
///
/// Frankfurter v2's `/v2/providers` is `/v1/providers`' registry and holdings in v2's shape, `no-cache`
/// with a tag of its bytes as that one is (and `/v2/providers/{key}` one of them), errors in v2's
/// shape (``Problem/response(for:)``).
struct ProvidersController<Context: RequestContext>: Sendable {
    let store: RatesStore
    /// The providers' quotes, for the rank each has earned per currency.
    let quotes: ProviderQuotes
    /// The last standing measured, with the dataset version and provider it was measured for.
    let standingKept = Locked<(version: String, standing: [(currency: CurrencyCode, measure: SourceStanding.Measure)])?>(nil)
    let state: ServerState
    let configuration: ServerConfiguration
    /// The keys this server fetches: the ECB, and the configured providers that are on (a provider
    /// needing an API key is off without one).
    let fetched: Set<String>

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        // The providers' holdings are read from the database (then kept until the next run), off
        // the tasks other requests share.
        routes.on(.providers) { request, _ in try await store.offloaded { try answer(request, keys: ProviderRegistry.keys) } }
        routes.on(.provider) { request, context in
            let key = context.parameters.get("key") ?? ""
            guard let entry = ProviderRegistry.entry(key) else {
                throw Problem(.notFound, "'\(key.prefix(20))' is not a provider key; GET /v1/providers lists them.")
            }
            return try await store.offloaded { try answer(request, keys: [entry.key], single: true) }
        }
        for route in [Route.v2Providers, .v2Provider] {
            routes.on(route) { request, context in
                let key = context.parameters.get("key")
                return try await store.offloaded {
                    do throws(Problem) {
                        return try frankfurterV2Answer(request, key: key)
                    } catch {
                        return error.response(for: route)
                    }
                }
            }
        }
        return routes
    }

    func answer(_ request: Request, keys: [String], single: Bool = false) throws(Problem) -> Response {
        let holdings = try holdings()
        let exclusions = Dictionary(grouping: state.consensusExclusions, by: \.provider)
        // A provider's rank per currency reads its quotes around its newest day: shown for one provider.
        let standing = single ? try standing(of: keys[0], on: holdings[keys[0]]?.latestDay) : nil
        let now = configuration.now()
        let write = { (json: inout JSONWriter, key: String) in
            describe(key, holdings: holdings[key], exclusions: exclusions[key] ?? [], standing: standing, now: now, into: &json)
        }
        let body = single
            ? JSONWriter.object { write(&$0, keys[0]) }
            : JSONWriter.object { json in json.field("providers", array: keys) { json, key in json.object { write(&$0, key) } } }
        return PreparedAnswer(requestHeaders: request.headers, uncachedBody: body).response
    }

    /// Every provider's holdings (``RatesStore/providerHoldings()``), for `/v1/providers` and `/v2/providers`.
    func holdings() throws(Problem) -> [String: RatesStore.ProviderHoldings] {
        do {
            return try store.providerHoldings()
        } catch {
            throw Problem.unreadable("The providers' records")
        }
    }

    /// `/v2/providers`: each provider holding rates, by key, as v2 describes it: `rate_type` is the
    /// figure it contributes; we hold no links, so `data_url` and `terms_url` are `null`; `currencies`
    /// are those of its newest publication. With `key` (any letter case), that provider's object alone;
    /// 404 when no provider of that key holds rates.
    func frankfurterV2Answer(_ request: Request, key: String?) throws(Problem) -> Response {
        let holdings = try holdings()
        let now = configuration.now()
        func write(_ key: String, _ held: RatesStore.ProviderHoldings, _ provider: ProviderIdentity, into json: inout JSONWriter) {
            json.field("key", string: key)
            json.field("name", string: provider.name)
            json.field("country_code", optionalString: provider.country)
            json.field("rate_type", string: provider.rateType)
            json.field("pivot_currency", string: provider.pivot.rawValue)
            json.field("data_url", optionalString: nil)
            json.field("terms_url", optionalString: nil)
            json.field("start_date", string: held.firstDay.description)
            json.field("end_date", string: held.latestDay.description)
            json.field("publishes_missed", number: String(provider.schedule.publicationsDue(after: held.latestDay, asOf: now)))
            json.field("publish_cadence", string: provider.schedule.cadence.rawValue)
            json.field("currencies", strings: held.latestCurrencies.map(\.rawValue))
        }
        let body: ByteBuffer
        if let key {
            guard let provider = ProviderRegistry.entry(key.uppercased())?.identity, let held = holdings[provider.key] else {
                throw Problem(.notFound, "No provider holding rates has the key '\(key.prefix(20))'.")
            }
            body = JSONWriter.object { write(provider.key, held, provider, into: &$0) }
        } else {
            body = JSONWriter.array { json in
                for key in ProviderRegistry.keys.sorted() {
                    guard let held = holdings[key], let provider = ProviderRegistry.entry(key)?.identity else { continue }
                    json.element { write(key, held, provider, into: &$0) }
                }
            }
        }
        return PreparedAnswer(requestHeaders: request.headers, uncachedBody: body).response
    }

    /// The rank `key` has earned for each currency on its own newest publication day: measured once
    /// per dataset version.
    func standing(of key: String, on day: Day?) throws(Problem) -> [(currency: CurrencyCode, measure: SourceStanding.Measure)] {
        guard let day else { return [] }
        let snapshot = state.snapshot
        let version = "\(snapshot.epoch)-\(snapshot.version)-\(key)"
        if let kept = standingKept.withLock({ $0 }), kept.version == version { return kept.standing }
        let standing = try DataAnswers.readingQuotes {
            try quotes.standing(on: day).measures(on: day).filter { $0.provider == key }.map { ($0.currency, $0.measure) }
        }
        standingKept.withLock { $0 = (version, standing) }
        return standing
    }

    /// One provider's members.
    func describe(
        _ key: String, holdings: RatesStore.ProviderHoldings?, exclusions: [ConsensusExclusion],
        standing: [(currency: CurrencyCode, measure: SourceStanding.Measure)]?, now: Date, into json: inout JSONWriter
    ) {
        guard let provider = ProviderRegistry.entry(key)?.identity else { return }
        let status = state.providerStatus[key]
        let lastRun = status?.lastRun
        let schedule = provider.schedule
        json.field("key", string: key)
        json.field("name", string: provider.name)
        json.field("country", optionalString: provider.country)
        json.field("pivot", string: provider.pivot.rawValue)
        json.field("issues", strings: ProviderRegistry.entry(key)?.issues.map(\.rawValue) ?? [])
        json.field("rateType", string: provider.rateType)
        json.field("validityDays", number: provider.validityDays.map(String.init) ?? "null")
        json.field("enabled", bool: fetched.contains(key))
        json.field("needsAPIKey", bool: provider.needsAPIKey)
        json.field("schedule") { json in
            json.field("timeZone", string: schedule.timeZone)
            json.field("weekdays", integers: schedule.weekdays.sorted())
            json.field("expectedTime", string: String(format: "%02d:%02d", schedule.expectedMinute / 60, schedule.expectedMinute % 60))
            json.field("cadence", string: schedule.cadence.rawValue)
        }
        json.field("currencies", strings: holdings?.latestCurrencies.map(\.rawValue) ?? [])
        json.field("firstDate", optionalString: holdings?.firstDay.description)
        json.field("latestDate", optionalString: holdings?.latestDay.description)
        json.field("publications", number: String(holdings?.publicationCount ?? 0))
        json.field("publicationsMissed", number: holdings.map { String(schedule.publicationsDue(after: $0.latestDay, asOf: now)) } ?? "null")
        if let lastRun {
            json.field("lastFetch") { json in
                json.field("startedAt", string: lastRun.startedAt.formatted(.iso8601))
                json.field("finishedAt", string: lastRun.finishedAt.formatted(.iso8601))
                json.field("outcome", string: lastRun.outcome.rawValue)
                json.field("httpStatus", number: lastRun.httpStatus.map(String.init) ?? "null")
                json.field("detail", optionalString: lastRun.detail)
            }
        } else {
            json.field("lastFetch", number: "null")
        }
        json.field("lastSuccessfulFetchAt", optionalString: status?.lastSuccessfulFetchAt?.formatted(.iso8601))
        json.field("nextFetchAt", optionalString: configuration.schedule ? status?.nextFetchAt?.formatted(.iso8601) : nil)
        json.field("exclusions", array: exclusions) { json, exclusion in
            json.object { json in ConsensusExclusionWriter.write(exclusion, into: &json) }
        }
        // Per currency it quotes with enough same-day company: how far its figures typically sit from
        // the others' on its newest day, and the rank that earns it (docs/MERGE.md#a-source-earns-its-rank).
        guard let standing else { return }
        json.field("standing") { json in
            for (currency, measure) in standing {
                json.field(currency.rawValue) { json in
                    json.field("typicalDeviation", number: String(measure.deviation))
                    json.field("samples", number: String(measure.samples))
                    json.field("servedAs", string: quotes.precedence(of: key, for: currency).rawValue)
                    json.field("demoted", bool: quotes.demotes(key, with: measure, for: currency))
                }
            }
        }
    }
}

/// One consensus exclusion as JSON, for `/v1/providers` and `/v1/status`.
enum ConsensusExclusionWriter {
    /// How many `/v1/status` shows, newest merged day first.
    static let shownInStatus = 20

    static func write(_ exclusion: ConsensusExclusion, into json: inout JSONWriter) {
        json.field("date", string: exclusion.day.description)
        json.field("currency", string: exclusion.currency.rawValue)
        json.field("provider", string: exclusion.provider)
        json.field("providerDate", string: exclusion.rate.day.description)
        json.field("value", number: exclusion.rate.value)
        json.field("median", number: String(exclusion.median))
        json.field("deviation", number: String(exclusion.deviation))
        json.field("providerCount", number: String(exclusion.providerCount))
    }
}
