import Foundation
import RatesCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A source as the server knows it now (`GET /v1/providers`): who it is, its newest publication,
/// and when the server last heard from it. Asked of the server each time, never cached: the
/// cached values name their sources themselves (``RateTable/sources``).
public struct ProviderHealth: Sendable, Hashable {
    /// The source's key (`ECB`, `NBU`), as the values' ``RateSource/provider`` names it.
    public var key: String
    /// The publisher's name.
    public var name: String
    /// Whether the server fetches the source.
    public var enabled: Bool
    /// The day of the source's newest stored publication.
    public var latestDate: Day?
    /// When the server last got an answer from the source: a publication, or word that nothing changed (`304`).
    public var lastHeardAt: Date?
    /// The outcome of the server's last fetch: `updated`, `unchanged`, `notModified`, `failed` or `rejected`.
    public var lastOutcome: String?
}

extension RatesClient {
    /// Every source the server knows, as it knows them now: when each last published and when the
    /// server last heard from it. Needs the network (one request, not retried).
    ///
    /// Throws ``RatesClientError/serverUnreachable(reason:)`` when the server cannot be reached, and the
    /// other ``RatesClientError``s of talking to the server (``RatesClientError/unauthorized(status:)``,
    /// ``RatesClientError/rejected(status:detail:)``, ``RatesClientError/invalidResponse(_:)``).
    ///
    /// ```swift
    /// for provider in try await client.providers() where provider.key == "NBU" {
    ///     print(provider.name, provider.latestDate?.description ?? "-", provider.lastHeardAt ?? "never")
    /// }
    /// ```
    public func providers() async throws -> [ProviderHealth] {
        let request = Self.request("v1/providers", accept: "application/json", configuration: configuration)
        let exchange: HTTPExchange
        do {
            exchange = try await transport.send(request)
        } catch {
            if HTTPTransport.isCancellation(error) { throw CancellationError() }
            throw RatesClientError.serverUnreachable(reason: HTTPTransport.describe(error, url: request.url ?? configuration.server))
        }
        switch exchange.status {
        case 200: break
        case 500...: throw RatesClientError.serverUnreachable(reason: "the server answered \(exchange.status)")
        default: throw exchange.failure(server: configuration.server)
        }
        do {
            return try JSONDecoder().decode(ProvidersAnswer.self, from: exchange.body).providers.map(\.health)
        } catch {
            throw RatesClientError.invalidResponse("/v1/providers: \(error)")
        }
    }
}

/// The members of `GET /v1/providers` that ``ProviderHealth`` carries.
private struct ProvidersAnswer: Decodable {
    struct Provider: Decodable {
        struct Fetch: Decodable {
            var outcome: String
        }

        var key: String
        var name: String
        var enabled: Bool
        var latestDate: String?
        var lastSuccessfulFetchAt: String?
        var lastFetch: Fetch?

        var health: ProviderHealth {
            ProviderHealth(
                key: key, name: name, enabled: enabled, latestDate: latestDate.flatMap(Day.init),
                lastHeardAt: lastSuccessfulFetchAt.flatMap { try? Date($0, strategy: .iso8601) }, lastOutcome: lastFetch?.outcome)
        }
    }

    var providers: [Provider]
}
