import ArgumentParser

/// `rates`: a currency converter that answers from a local cache of a Rates Relay server.
@main
struct RatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rates",
        abstract: "Convert currencies with exchange rates cached from a Rates Relay server.",
        discussion: """
            Every command but `sync` answers from the local cache, without the network, and says \
            how old its rates are. Run `rates sync` once (and whenever you want newer rates); \
            afterwards everything works offline.

            When the cached rates are behind (the server reported its data stale, or a newer publication is \
            due by the ECB's publication schedule), `convert`, `latest`, `history` and `sync` warn on standard error.

            Environment: RATES_SERVER (server URL), RATES_CACHE (cache file), RATES_API_KEY (API key, if the server wants one).

            Exit status:
              0   success
              1   the command failed (no rates cached, unknown currency, ...)
              64  invalid arguments (the command's usage is shown)
              75  `sync` could not reach the server (the cache keeps answering)
            """,
        subcommands: [Convert.self, Latest.self, History.self, Currencies.self, Sources.self, Sync.self, Status.self]
    )
}
