// swift-tools-version: 6.1
// Measurements kept out of the main package so that `swift test` never builds them:
// - client-sync-benchmark: the RatesClient SDK against a live server (Scripts/measure-sync.sh);
// - AnswerBuilding: CPU time and allocations of building one uncached answer
//   (`swift package --package-path Benchmarks benchmark`, ordo-one/benchmark).
import Foundation
import PackageDescription

// A path dependency is named after its folder, which is whatever the clone was called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
let strictSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "rates-relay-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        // The malloc interposer counts allocations; the runtime interposer is left out (not needed, not mirrored).
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "client-sync-benchmark",
            dependencies: [.product(name: "RatesClient", package: root), .product(name: "RatesCore", package: root)],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "AnswerBuilding",
            dependencies: [
                .product(name: "RatesServer", package: root), .product(name: "RatesCore", package: root),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/AnswerBuilding",
            swiftSettings: strictSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
