// swift-tools-version: 6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// The SDK's floor: apps with these deployment targets can import RatesClient (GRDB 7.10 needs only
// iOS 13 / macOS 10.15 / tvOS 13 / watchOS 7). Nothing here can build for them, so
// Scripts/check-platform-floor.sh keeps newer APIs out of RatesCore and RatesClient. The server
// targets and the tests use macOS 15 APIs (Synchronization, swift-configuration): they build on
// Linux, where the server ships; on a Mac they need `@available(macOS 15, *)` on those uses.
let package = Package(
    name: "rates-relay",
    platforms: [.iOS(.v16), .macCatalyst(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .executable(name: "rates-relay", targets: ["rates-relay"]),
        .library(name: "RatesCore", targets: ["RatesCore"]),
        // The HTTP application (`buildApplication`), for embedding and for Benchmarks/.
        .library(name: "RatesServer", targets: ["RatesServer"]),
        .library(name: "RatesClient", targets: ["RatesClient"]),
        .executable(name: "rates", targets: ["rates"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // Currency codes, dates, exact decimal cross-rate math, the publication calendar, a lock. No I/O.
        .target(name: "RatesCore", swiftSettings: strictSettings),
        // Provider adapters (ECB first): HTTP fetch, parsing and validation of published files.
        .target(
            name: "RatesUpstream",
            dependencies: [
                "RatesCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ],
            swiftSettings: strictSettings
        ),
        // The database (SQLite embedded, or PostgreSQL shared by replicas): schema, migrations, the
        // ingest transaction, change log and queries.
        .target(
            name: "RatesStore",
            dependencies: [
                "RatesCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // The one ingest pipeline (seed, import, fetch), the fetch scheduler, the in-memory dataset and its
        // announcements. No HTTP server: the server, the command line and tests drive it.
        .target(
            name: "RatesIngest",
            dependencies: [
                "RatesCore", "RatesUpstream", "RatesStore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources/eurofxref-hist.zip")],
            swiftSettings: strictSettings
        ),
        // The Hummingbird application: routes, middleware, prepared answers. HTTP only.
        .target(
            name: "RatesServer",
            dependencies: [
                "RatesCore", "RatesUpstream", "RatesStore", "RatesIngest",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            // The contract, served at /openapi.yaml, and the web page's files, served at / and /web/.
            resources: [.copy("Resources/openapi.yaml"), .copy("Resources/web")],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "rates-relay",
            dependencies: [
                "RatesServer", "RatesIngest", "RatesStore", "RatesCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSettings
        ),
        // The SDK apps import: sync engine, local SQLite cache, offline reads, observation. No server code.
        .target(
            name: "RatesClient",
            dependencies: ["RatesCore", .product(name: "GRDB", package: "GRDB.swift")],
            resources: [.copy("Resources/bundled-rates.json")],
            swiftSettings: strictSettings
        ),
        // A command-line converter built only on RatesClient.
        .executableTarget(
            name: "rates",
            dependencies: [
                "RatesClient", "RatesCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RatesCoreTests",
            dependencies: ["RatesCore", "RatesTestFixtures", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RatesUpstreamTests",
            dependencies: ["RatesUpstream", "RatesTestFixtures"],
            swiftSettings: strictSettings
        ),
        // The provider merge, on real recorded publications parsed by the real adapters.
        .testTarget(
            name: "RatesIngestTests",
            dependencies: [
                "RatesIngest", "RatesCore", "RatesUpstream", "RatesTestFixtures",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RatesStoreTests",
            dependencies: [
                "RatesStore", "RatesTestFixtures", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // What every test target may use, no server among it: the recorded fixtures, fake provider
        // upstreams, a PostgreSQL cluster's URL, waits, HTTP and TCP helpers.
        .target(
            name: "RatesTestFixtures",
            dependencies: [
                "RatesCore", "RatesUpstream",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tests/RatesTestFixtures",
            swiftSettings: strictSettings
        ),
        // What the server and client tests share besides: the real server on a temporary database and a fake ECB.
        .target(
            name: "RatesTestSupport",
            dependencies: [
                "RatesServer", "RatesIngest", "RatesTestFixtures",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/RatesTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RatesServerTests",
            dependencies: [
                "RatesServer",
                "RatesIngest",
                "RatesTestSupport",
                "RatesStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RatesClientTests",
            dependencies: [
                "RatesClient",
                // End-to-end tests run the real server over loopback; the SDK itself never imports it.
                "RatesServer",
                "RatesIngest",
                "RatesTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
