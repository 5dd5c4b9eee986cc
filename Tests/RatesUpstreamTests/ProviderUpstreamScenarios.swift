import Foundation
import RatesCore
import RatesTestFixtures
import RatesUpstream
import Testing

/// One provider served by ``FakeProviderUpstream`` from its real recorded answers, as its recordings'
/// folder describes it in `Tests/Fixtures/<bank>/scenario.json`: the paths the adapter asks for and
/// the file answered at each, the window fetched, and what the fetch must bring back.
///
/// The adapter is the registry's, pointed at `<fake root>/<key in lower case>`, so every registry
/// entry is fetched through HTTP exactly as a server fetches it.
struct ProviderScenario: Sendable, Decodable, CustomTestStringConvertible {
    /// One path the adapter requests, and the recorded answer served there.
    struct Route: Sendable, Decodable {
        /// The path on the fake; a trailing `*` matches every path with that prefix.
        var path: String
        /// Strings the request's query must all contain.
        var query: [String]?
        /// Strings the request's body must all contain (a SOAP operation, a form field).
        var body: [String]?
        /// The answer: a file of `Tests/Fixtures`.
        var fixture: String
    }

    /// A range of days to fetch instead of the newest publication.
    struct Window: Sendable, Decodable {
        var first: String
        var last: String
    }

    var key: String
    /// The API key given to a provider that needs one.
    var apiKey: String?
    /// The window fetched: the newest publication when `nil`.
    var window: Window?
    var routes: [Route]
    /// The number of quotes the fetch returns for each day, when checked.
    var days: [String: Int]?

    var testDescription: String { key }

    /// The window fetched.
    var fetchWindow: FetchWindow {
        guard let window else { return .latest }
        return .range(Day(window.first)!, Day(window.last)!)
    }

    /// The registry's adapter for ``key``, given the fake's root URL (no trailing slash).
    func make(_ root: String) throws -> any RatesProvider {
        try ProviderRegistry.make(key: key, baseURL: root + "/" + key.lowercased(), apiKey: apiKey)
    }

    /// Serves this scenario's recorded answers on `upstream`.
    func install(on upstream: FakeProviderUpstream) {
        for route in routes { upstream.serve(route.path, query: route.query ?? [], body: route.body ?? [], .fixture(route.fixture)) }
    }
}

extension ProviderScenario {
    /// Every `Tests/Fixtures/*/scenario.json`, by key.
    static let all: [String: ProviderScenario] = {
        let root = Fixtures.url("")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        var scenarios: [String: ProviderScenario] = [:]
        for folder in folders.sorted() {
            let file = root.appendingPathComponent(folder).appendingPathComponent("scenario.json")
            guard let data = try? Data(contentsOf: file) else { continue }
            do {
                let scenario = try JSONDecoder().decode(ProviderScenario.self, from: data)
                precondition(scenarios[scenario.key] == nil, "two scenarios for \(scenario.key)")
                scenarios[scenario.key] = scenario
            } catch {
                preconditionFailure("\(folder)/scenario.json: \(error)")
            }
        }
        return scenarios
    }()

    /// The scenario of `key`.
    static func named(_ key: String) -> ProviderScenario {
        guard let scenario = all[key] else { preconditionFailure("no Tests/Fixtures/*/scenario.json for \(key)") }
        return scenario
    }

    /// The scenarios that state the days and quote counts their fetch brings back, in key order.
    static var checked: [ProviderScenario] { all.values.filter { $0.days != nil }.sorted { $0.key < $1.key } }

    static var ecb: ProviderScenario { named("ECB") }
    static var nbp: ProviderScenario { named("NBP") }
    static var nb: ProviderScenario { named("NB") }
    static var cbr: ProviderScenario { named("CBR") }
    static var tcmb: ProviderScenario { named("TCMB") }
}
